"""The mail layer's tables: every message read (so each is handled once), the outbox, DM addresses.

`mail_received` remembers each incoming message by its key (the Message-ID, or a
digest of the bytes when there is none) with what became of it; `mail_outbox`
holds every message to send, keyed by its Message-ID so that queueing the same
report again changes nothing, with its delivery state (pending → sending, a
claim committed before it goes out → sent, or back to pending, or refused by
the server, or set aside as unsendable); `mail_dm_players` gives death-match
players the address and secret that ordinary players have in `players`.
"""
from __future__ import annotations

from datetime import datetime
from enum import StrEnum

from sqlalchemy import Column, LargeBinary, Text
from sqlmodel import Field, Session, select

from .model import Table


class OutboxState(StrEnum):
    """Where a queued message is on its way (`mail_outbox.state`, stored as these words)."""

    PENDING = "pending"  # to send (again, after a passing failure)
    SENDING = "sending"  # claimed by a sender, committed before it goes out
    SENT = "sent"
    REFUSED = "refused"  # refused by the server for good (5xx)
    SET_ASIDE = "set-aside"  # cannot be sent as it stands


class Outcome(StrEnum):
    """What became of an incoming message (`mail_received.outcome`)."""

    ACCEPTED = "accepted"
    REFUSED = "refused"
    PREVIEWED = "previewed"  # orders with `preview: true`: rehearsed and answered, nothing stored
    UNKNOWN = "unknown"  # a sender who is not a player: recorded, never answered (unless the config asks)
    OWN = "own"  # a message pbem sent itself, back in the inbox (the review mail goes to the GM's own address)
    DUPLICATE = "duplicate"  # handled before (never recorded twice)


class MailReceived(Table, table=True):
    __tablename__ = "mail_received"
    id: int | None = Field(default=None, primary_key=True)
    key: str = Field(unique=True, index=True)  # mail.identity.letter_key
    message_id: str | None = Field(default=None, index=True)
    received_at: datetime  # by the GM's server (RULES D5)
    read_at: datetime | None = None  # by pbem
    origin: str  # the inbox it came from
    archived: str  # its file name in the archive
    sender: str
    size: int
    outcome: str  # an Outcome
    kind: str  # a mail.letters.LetterKind: orders | dm | command | ""
    game: str | None = None
    player: str | None = None
    detail: str = Field(sa_column=Column(Text, nullable=False))  # JSON: the reasons, or what was accepted


class MailOutgoing(Table, table=True):
    __tablename__ = "mail_outbox"
    id: int | None = Field(default=None, primary_key=True)
    message_id: str = Field(unique=True, index=True)
    recipient: str
    subject: str
    purpose: str  # ack | report | sheet | file
    data: bytes = Field(sa_column=Column(LargeBinary, nullable=False))
    state: str = Field(index=True)  # an OutboxState
    attempts: int = 0
    last_error: str | None = None
    queued_at: datetime
    sent_at: datetime | None = None


class MailInbox(Table, table=True):
    """The last attempt to read the inbox (one row): `pbem run` lets no due turn or deadline pass while the inbox
    cannot be read, and `pbem status` says since when and why."""

    __tablename__ = "mail_inbox"
    id: int | None = Field(default=None, primary_key=True)
    origin: str  # what was read: imap://host/folder, a Maildir or mbox path
    failed_since: datetime | None = None  # None: the last attempt read it
    error: str | None = Field(default=None, sa_column=Column(Text, nullable=True))
    checked_at: datetime


def inbox_state(session: Session) -> MailInbox | None:
    return session.exec(select(MailInbox)).first()


def note_inbox(session: Session, origin: str, error: str | None, at: datetime) -> None:
    """Remember (not committed) whether the inbox could be read at `at`; a success after a success writes nothing."""
    row = inbox_state(session)
    if row is not None and error is None and row.failed_since is None and row.origin == origin:
        return
    row = row or MailInbox(origin=origin, checked_at=at)
    row.origin, row.checked_at, row.error = origin, at, error
    row.failed_since = None if error is None else (row.failed_since or at)
    session.add(row)
