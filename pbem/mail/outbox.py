"""The outbox: every message to send is queued in the database first, then delivered.

A message is queued under its Message-ID, so queueing the same report or
acknowledgement again changes nothing. Sending is one message at a time
(`send_one`): a message the server took is sent; one that fails for a passing
reason (server down, 4xx) stays pending with its error; one the server refuses
for good (5xx) is refused, and one that cannot be sent at all (an
internationalised address the server takes no SMTPUTF8 for, anything else that
breaks) is set aside with its reason. The send loop, its claims and records and
their commits are the GM's (`pbem.gm.outgoing`); the rows, the store's
(`pbem.store.outbox`).
"""
from __future__ import annotations

import hashlib
import smtplib
import ssl
from dataclasses import dataclass
from datetime import datetime
from email.message import EmailMessage
from email.parser import BytesParser
from email.utils import format_datetime, parseaddr
from pathlib import Path
from typing import Iterable, Protocol

from sqlmodel import Session, col, select

from ..formats.names import transport_address
from ..render.message import SMTP, message_bytes
from ..store.mail import MailOutgoing, OutboxState
from ..store.outbox import rewrite
from .config import Server
from .connect import connect
from .identity import parse_message_id
from .letters import clean, sender_address


def queue(session: Session, message: EmailMessage | bytes, purpose: str, at: datetime,
          replace: bool = False) -> MailOutgoing | None:
    """Add a message to the outbox (not committed); None when its Message-ID is there already. `replace`: a message
    written again (the same Message-ID, newer content) takes the place of its queued copy while no sender has
    claimed that, in one conditional update, so a copy on its way is never changed under its sender."""
    row = _pending(message, purpose, at)
    if replace:
        rewrite(session, row.message_id, row.data, row.subject)
    if session.exec(select(MailOutgoing.id).where(MailOutgoing.message_id == row.message_id)).first() is not None:
        return None
    session.add(row)
    return row


def queue_all(session: Session, messages: Iterable[tuple[str, EmailMessage | bytes]], at: datetime) -> int:
    """Each (purpose, message) queued as `queue` queues it (not committed), the outbox asked once which of their
    Message-IDs it holds (a game's mails were a query each, #36); how many were new."""
    rows = [_pending(message, purpose, at) for purpose, message in messages]
    held = set(session.exec(select(MailOutgoing.message_id).where(
        col(MailOutgoing.message_id).in_([row.message_id for row in rows]))).all()) if rows else set()
    new = 0
    for row in rows:
        if row.message_id not in held:
            held.add(row.message_id)
            session.add(row)
            new += 1
    return new


def _pending(message: EmailMessage | bytes, purpose: str, at: datetime) -> MailOutgoing:
    """The outbox's row of a message to send, pending; a message without one To address and a Message-ID is
    refused."""
    data = message if isinstance(message, bytes) else message_bytes(message)
    headers = BytesParser(policy=SMTP).parsebytes(header_block(data), headersonly=True)
    message_id = parse_message_id(headers.get("Message-ID"))
    recipient = sender_address(headers.get("To"))  # as written: an IDNA domain in its own script
    if message_id is None or recipient is None:
        raise ValueError("a message to send needs one To address and a Message-ID")
    return MailOutgoing(message_id=message_id, recipient=recipient, subject=clean(headers.get("Subject") or ""),
                        purpose=purpose, data=data, state=OutboxState.PENDING, queued_at=at)


def header_block(data: bytes) -> bytes:
    """The message's header block, with the blank line that ends it (CRLF or LF, whichever comes first): the parser
    reads a whole message line by line even for its headers alone (~8 ms of a report mail's 150 KB). A bare-LF
    blank line is looked for only before the CRLF one: a CRLF message has none, and its body is not read twice."""
    crlf = data.find(b"\r\n\r\n")
    lf = data.find(b"\n\n", 0, crlf + 3 if crlf >= 0 else len(data))  # one ending before the CRLF one's end
    ends = [end for end in (crlf + 4 if crlf >= 0 else -1, lf + 2 if lf >= 0 else -1) if end >= 0]
    return data[:min(ends)] if ends else data


class Transport(Protocol):
    def send(self, row: MailOutgoing, data: bytes) -> None: ...


class PermanentFailure(Exception):
    """The server refused the message for good (a 5xx reply)."""


class CannotSend(Exception):
    """The message cannot be sent as it stands (say, an address this server cannot carry): set aside."""


@dataclass
class Delivery:
    message_id: str
    recipient: str
    subject: str
    state: OutboxState
    error: str | None = None


def send_one(transport: Transport, row: MailOutgoing, at: datetime) -> Delivery:
    """Send one message through `transport` at `at` (the CLI's clock, for its Date header): what became of it. A
    passing failure (server down, 4xx) leaves it pending, a 5xx refuses it, anything else sets it aside."""
    try:
        transport.send(row, with_date(row.data, at))
        state, error = OutboxState.SENT, None
    except PermanentFailure as err:
        state, error = OutboxState.REFUSED, str(err)
    except CannotSend as err:
        state, error = OutboxState.SET_ASIDE, str(err)
    except (smtplib.SMTPException, OSError) as err:
        state, error = OutboxState.PENDING, clean(f"{type(err).__name__}: {err}", 300)
    except Exception as err:
        state, error = OutboxState.SET_ASIDE, clean(f"cannot be sent: {type(err).__name__}: {err}", 300)
    return Delivery(row.message_id, row.recipient, row.subject, state, error)


def with_date(data: bytes, at: datetime) -> bytes:
    """The message with a Date header (reports are written without one, to stay byte-stable)."""
    head = data.split(b"\r\n\r\n", 1)[0]
    if any(line.lower().startswith(b"date:") for line in head.split(b"\r\n")):
        return data
    return f"Date: {format_datetime(at)}\r\n".encode("ascii") + data


class FolderTransport:
    """Writes each message as an .eml file named by its Message-ID's digest (never by a player's name)."""

    def __init__(self, folder: Path):
        self.folder = folder
        folder.mkdir(parents=True, exist_ok=True)

    def send(self, row: MailOutgoing, data: bytes) -> None:
        name = hashlib.sha256(row.message_id.encode("utf-8")).hexdigest()[:24]
        (self.folder / f"{row.id:05d}-{name}.eml").write_bytes(data)


class SmtpTransport:
    """One SMTP connection (implicit TLS, STARTTLS or plain, then login) for a run; opened on first use."""

    def __init__(self, server: Server, sender: str):
        self.server, self.envelope_from = server, transport_address(parseaddr(sender)[1])
        self.connection: smtplib.SMTP | None = None
        self.unreachable: Exception | None = None  # a failed connection is not tried again in the same run

    def __enter__(self) -> "SmtpTransport":
        return self

    def __exit__(self, *_exc: object) -> None:
        if self.connection is not None:
            try:
                self.connection.quit()
            except (smtplib.SMTPException, OSError):
                self.connection.close()

    def send(self, row: MailOutgoing, data: bytes) -> None:
        if self.unreachable is not None:
            raise self.unreachable
        if self.connection is None:
            try:
                self.connection = connect(self.server, smtplib.SMTP, smtplib.SMTP_SSL, "context")
            except (smtplib.SMTPException, OSError) as err:
                self.unreachable = err
                raise
        options = self._utf8_options(row)
        try:
            self.connection.sendmail(self.envelope_from, [transport_address(row.recipient)], data,
                                     mail_options=options)
        except smtplib.SMTPRecipientsRefused as err:
            code, text = next(iter(err.recipients.values()))
            self._fail(code, text)
            raise
        except (smtplib.SMTPDataError, smtplib.SMTPSenderRefused) as err:
            self._fail(err.smtp_code, err.smtp_error)
            raise
        except (smtplib.SMTPServerDisconnected, ssl.SSLError, OSError):
            self.connection = None
            raise

    def _utf8_options(self, row: MailOutgoing) -> list[str]:
        """SMTPUTF8 (RFC 6531) for a message whose addresses are not all ASCII, when the server offers it."""
        if (self.envelope_from + transport_address(row.recipient)).isascii():
            return []
        assert self.connection is not None
        self.connection.ehlo_or_helo_if_needed()
        if not self.connection.has_extn("smtputf8"):
            raise CannotSend(f"{row.recipient}: an internationalised address needs SMTPUTF8 (RFC 6531), which "
                             f"the server {self.server.host} does not offer")
        return ["SMTPUTF8"]

    @staticmethod
    def _fail(code: int, text: bytes | str) -> None:
        if 500 <= code < 600:
            reason = text.decode("utf-8", "replace") if isinstance(text, bytes) else str(text)
            raise PermanentFailure(clean(f"{code} {reason}", 300))
