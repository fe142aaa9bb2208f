"""The outbox: every message to send is queued in the database first, then delivered.

A message is queued under its Message-ID, so queueing the same report or
acknowledgement again changes nothing, and a message recorded as sent is not
sent again. Before sending, a message is claimed in a committed step of its
own (pending → sending, only if still pending), so two senders never both send
it. Delivery is at least once: a crash between the server's acceptance and the
record leaves the claim behind, and the next sender (under the run lock, so no
claim is live then) sends it again, with the same Message-ID (mail readers show
it once). One that fails for a passing reason (server down, 4xx) goes back to
pending with its error and is retried on the next run; one the server refuses
for good (5xx) is marked refused, and one that cannot be sent at all (an
internationalised address the server takes no SMTPUTF8 for, anything else that
breaks) is set aside with its reason: neither blocks the messages behind it and
`pbem mail outbox` shows both. `--dry-run` writes the pending messages to a
folder and changes no state.
"""
from __future__ import annotations

import hashlib
import smtplib
import ssl
from dataclasses import dataclass
from datetime import datetime
from email import policy
from email.message import EmailMessage
from email.parser import BytesParser
from email.utils import format_datetime, parseaddr
from pathlib import Path
from typing import Any, Protocol, cast

from sqlalchemy import CursorResult
from sqlmodel import Session, col, select, update

from ..render.message import message_bytes
from ..store.mail import PENDING, REFUSED, SENDING, SENT, SET_ASIDE, MailOutgoing
from .config import Server
from .connect import connect
from .letters import clean, parse_message_id, sender_address


def queue(session: Session, message: EmailMessage | bytes, purpose: str, at: datetime) -> MailOutgoing | None:
    """Add a message to the outbox (not committed); None when its Message-ID is there already."""
    data = message if isinstance(message, bytes) else message_bytes(message)
    headers = BytesParser(policy=policy.SMTP).parsebytes(header_block(data), headersonly=True)
    message_id = parse_message_id(headers.get("Message-ID"))
    recipient = sender_address(headers.get("To"))
    if message_id is None or recipient is None:
        raise ValueError("a message to send needs one To address and a Message-ID")
    if session.exec(select(MailOutgoing.id).where(MailOutgoing.message_id == message_id)).first() is not None:
        return None
    row = MailOutgoing(message_id=message_id, recipient=recipient, subject=clean(headers.get("Subject") or ""),
                       purpose=purpose, data=data, state=PENDING, queued_at=at)
    session.add(row)
    return row


def header_block(data: bytes) -> bytes:
    """The message's header block, with the blank line that ends it: the parser reads a whole message line by
    line even for its headers alone (~8 ms of a report mail's 150 KB)."""
    ends = [end + len(blank) for blank in (b"\r\n\r\n", b"\n\n") if (end := data.find(blank)) >= 0]
    return data[:min(ends)] if ends else data


def listing(session: Session, everything: bool = False) -> list[MailOutgoing]:
    """The messages not sent (pending, or refused by the server), or every message; oldest first."""
    query = select(MailOutgoing).order_by(col(MailOutgoing.id))
    return list(session.exec(query if everything else query.where(MailOutgoing.state != SENT)).all())


def pending(session: Session) -> list[MailOutgoing]:
    query = select(MailOutgoing).where(MailOutgoing.state == PENDING).order_by(col(MailOutgoing.id))
    return list(session.exec(query).all())


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
    state: str
    error: str | None = None


def deliver(session: Session, transport: Transport, at: datetime, *, dry_run: bool = False) -> list[Delivery]:
    """Send every pending message, oldest first, each claimed and recorded in commits of its own (nothing stored
    with `dry_run`); `at` is the time of sending (the CLI's clock), for the Date header and the record. The
    caller holds the run lock (pbem.store.runlock), so a message still marked sending was left by a crash."""
    if not dry_run:
        session.execute(update(MailOutgoing).where(col(MailOutgoing.state) == SENDING).values(state=PENDING))
        session.commit()
    results = []
    for row in pending(session):
        if not dry_run and not claim(session, row):
            continue  # another sender took it
        try:
            transport.send(row, with_date(row.data, at))
            state, error = SENT, None
        except PermanentFailure as err:
            state, error = REFUSED, str(err)
        except CannotSend as err:
            state, error = SET_ASIDE, str(err)
        except (smtplib.SMTPException, OSError) as err:
            state, error = PENDING, clean(f"{type(err).__name__}: {err}", 300)
        except Exception as err:
            state, error = SET_ASIDE, clean(f"cannot be sent: {type(err).__name__}: {err}", 300)
        results.append(Delivery(row.message_id, row.recipient, row.subject, state, error))
        if dry_run:
            continue
        row.attempts += 1
        row.state, row.last_error = state, error
        if state == SENT:
            row.sent_at = at
        session.add(row)
        session.commit()
    return results


def claim(session: Session, row: MailOutgoing) -> bool:
    """Mark one pending message as being sent, committed before it goes out; False when it is no longer pending
    (another sender claimed or sent it meanwhile)."""
    taken = session.execute(update(MailOutgoing)
                            .where(col(MailOutgoing.id) == row.id, col(MailOutgoing.state) == PENDING)
                            .values(state=SENDING).execution_options(synchronize_session=False))
    session.commit()
    session.expire(row, ["state"])  # read again when next used (the store's sessions keep objects on commit)
    return cast(CursorResult[Any], taken).rowcount == 1  # an UPDATE's result counts its rows


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
        self.server, self.envelope_from = server, parseaddr(sender)[1]
        self.connection: smtplib.SMTP | None = None
        self.unreachable: Exception | None = None  # a failed connection is not tried again in the same run

    def __enter__(self) -> "SmtpTransport":
        return self

    def __exit__(self, *_exc) -> None:
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
            self.connection.sendmail(self.envelope_from, [row.recipient], data, mail_options=options)
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
        if (self.envelope_from + row.recipient).isascii():
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
