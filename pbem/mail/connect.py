"""Opening a connection to a mail server (IMAP or SMTP) the way its settings say."""
from __future__ import annotations

import ssl
from typing import Any, Callable

from .config import Server


def tls_context(server: Server) -> ssl.SSLContext:
    """Certificates verified (against `cafile` when given, else the system's)."""
    return ssl.create_default_context(cafile=server.cafile)


def connect(server: Server, plain: Callable[..., Any], implicit_tls: Callable[..., Any], context_keyword: str) -> Any:
    """Implicit TLS, STARTTLS or plain as `server.tls` says, then a login when a user is set.

    `plain` and `implicit_tls` are the library's two client classes (imaplib.IMAP4 and IMAP4_SSL,
    smtplib.SMTP and SMTP_SSL); `context_keyword` is what both call their SSL context argument.
    """
    if server.tls == "ssl":
        connection = implicit_tls(server.host, server.port, timeout=server.timeout,
                                  **{context_keyword: tls_context(server)})
    else:
        connection = plain(server.host, server.port, timeout=server.timeout)
        if server.tls == "starttls":
            connection.starttls(**{context_keyword: tls_context(server)})
    if server.user:
        connection.login(server.user, server.password or "")
    return connection
