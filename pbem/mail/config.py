"""Mail settings: a YAML file (`--config`, or `PBEM_MAIL_CONFIG`), each value overridable by the environment.

    from: "Game Master <gm@example.org>"   # PBEM_MAIL_FROM
    max_bytes: 1000000                      # bigger messages are refused unread
    archive: mail-archive                   # a Maildir that keeps every message read
    imap: {host: imap.example.org, user: gm, password: "…"}      # PBEM_IMAP_HOST, _USER, _PASSWORD …
    smtp: {host: smtp.example.org, user: gm, password: "…"}      # PBEM_SMTP_HOST, _USER, _PASSWORD …

A server section also takes `port`, `tls` (`ssl`, `starttls` or `none`; IMAP
defaults to ssl on 993, SMTP to starttls on 587), `cafile` (a certificate to
trust, for a self-signed server), `timeout` in seconds and, for IMAP, `folder`.
Passwords are best kept in the environment, out of the file.
"""
from __future__ import annotations

import os
from dataclasses import dataclass, replace
from pathlib import Path
from typing import Any, Mapping

from ..formats.fields import Field, Fields, flag, whole
from ..formats.names import DEFAULT_SENDER
from ..formats.problems import FormatError, Problem, line_of

TLS_MODES = ("ssl", "starttls", "none")
PORTS = {"imap": {"ssl": 993, "starttls": 143, "none": 143}, "smtp": {"ssl": 465, "starttls": 587, "none": 25}}
DEFAULT_TLS = {"imap": "ssl", "smtp": "starttls"}
SERVER_KEYS = ("host", "port", "user", "password", "tls", "cafile", "timeout", "folder")
TOP_KEYS = ("from", "max_bytes", "archive", "imap", "smtp", "answer_unknown", "name", "notes")
DEFAULT_FROM = DEFAULT_SENDER  # the From of the reports `pbem report` writes, too


@dataclass(frozen=True)
class Server:
    kind: str  # imap | smtp
    host: str
    port: int
    user: str | None
    password: str | None
    tls: str
    cafile: str | None
    timeout: float
    folder: str = "INBOX"


@dataclass(frozen=True)
class MailConfig:
    sender: str = DEFAULT_FROM
    max_bytes: int = 1_000_000
    archive: Path = Path("mail-archive")
    imap: Server | None = None
    smtp: Server | None = None
    answer_unknown: bool = False  # reply to senders who are not players (off: replies to forged senders are spam)

    def server(self, kind: str) -> Server:
        found: Server | None = getattr(self, kind)
        if found is None:
            prefix = f"PBEM_{kind.upper()}_"
            raise FormatError([Problem("mail config", None, kind,
                                       f"no {kind.upper()} server: give {kind}: {{host: …}} or {prefix}HOST")])
        return found


def load_config(path: str | Path | None, environ: Mapping[str, str] = os.environ) -> MailConfig:
    """The settings from `path` (or PBEM_MAIL_CONFIG, or none), then the environment's overrides."""
    path = path or environ.get("PBEM_MAIL_CONFIG")
    document: Any = {}
    if path:
        from ..formats.yamlfile import read_yaml_file  # YAML only for a file, not for settings from the environment

        document = read_yaml_file(path)
    source = str(path or "environment")
    if document is None:
        document = {}
    if not isinstance(document, dict):
        raise FormatError([Problem(source, None, "", "the mail config is a mapping (from, imap, smtp …)")])
    fields = Fields(source)
    fields.unknown(document, TOP_KEYS, f"unknown setting (known: {', '.join(TOP_KEYS[:6])})")
    sender = environ.get("PBEM_MAIL_FROM") or document.get("from") or DEFAULT_FROM
    given = fields.read(document, SETTINGS)
    archive = Path(str(document.get("archive", MailConfig.archive)))
    problems = fields.problems
    servers = {kind: _server(kind, document.get(kind), environ, source, problems) for kind in ("imap", "smtp")}
    if problems:
        raise FormatError(problems)
    return MailConfig(str(sender), given["max_bytes"], archive, servers["imap"], servers["smtp"],
                      given["answer_unknown"])


SETTINGS = {"max_bytes": Field(whole("must be a whole number ≥ 1000", least=1000), default=MailConfig.max_bytes,
                               null=False),
            "answer_unknown": Field(flag(), default=False, null=False)}


def _server(kind: str, section: Any, environ: Mapping[str, str], source: str, problems: list[Problem]) -> Server | None:
    section = section if section is not None else {}
    if not isinstance(section, dict):
        problems.append(Problem(source, None, kind, "must be a mapping (host, port, user, password, tls)"))
        return None
    values: dict[str, Any] = {}
    for key, value in section.items():
        if key not in SERVER_KEYS:
            problems.append(Problem(source, line_of(section, key), f"{kind}.{key}",
                                    f"unknown setting (known: {', '.join(SERVER_KEYS)})"))
        values[key] = value
    for key in SERVER_KEYS:
        variable = f"PBEM_{kind.upper()}_{key.upper()}"
        if environ.get(variable):
            values[key] = environ[variable]
    if not values.get("host"):
        return None
    tls = str(values.get("tls", DEFAULT_TLS[kind])).lower()
    if tls not in TLS_MODES:
        problems.append(Problem(source, line_of(section, "tls"), f"{kind}.tls", f"must be one of {', '.join(TLS_MODES)}"))
        return None
    numbers = {}
    for key, default in (("port", PORTS[kind][tls]), ("timeout", 30)):
        try:
            numbers[key] = int(values.get(key, default))
        except (TypeError, ValueError):
            problems.append(Problem(source, line_of(section, key), f"{kind}.{key}", "must be a whole number"))
            return None
    text = {key: None if values.get(key) is None else str(values[key]) for key in ("user", "password", "cafile")}
    server = Server(kind, str(values["host"]), numbers["port"], text["user"], text["password"], tls, text["cafile"],
                    float(numbers["timeout"]))
    return replace(server, folder=str(values["folder"])) if values.get("folder") else server
