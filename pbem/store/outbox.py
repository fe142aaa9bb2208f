"""The outbox's rows (`mail_outbox`): the messages waiting, a sender's claim on one, and what became of it.

Nothing here commits: `pbem.gm.outgoing` commits each claim before the message goes out and each record after,
so two senders never both send a message and a crash loses no record but the one in flight.
"""
from __future__ import annotations

from datetime import datetime
from typing import Any, cast

from sqlalchemy import CursorResult
from sqlmodel import Session, col, select, update

from .mail import MailOutgoing, OutboxState


def listing(session: Session, everything: bool = False) -> list[MailOutgoing]:
    """The messages not sent (pending, or refused by the server), or every message; oldest first."""
    query = select(MailOutgoing).order_by(col(MailOutgoing.id))
    return list(session.exec(query if everything else query.where(MailOutgoing.state != OutboxState.SENT)).all())


def pending(session: Session) -> list[MailOutgoing]:
    query = select(MailOutgoing).where(MailOutgoing.state == OutboxState.PENDING).order_by(col(MailOutgoing.id))
    return list(session.exec(query).all())


def rewrite(session: Session, message_id: str, data: bytes, subject: str) -> None:
    """A pending message's new content under its own Message-ID, in one conditional update: a copy a sender has
    claimed (or sent) is left as it is."""
    session.execute(update(MailOutgoing)
                    .where(col(MailOutgoing.message_id) == message_id, col(MailOutgoing.state) == OutboxState.PENDING)
                    .values(data=data, subject=subject).execution_options(synchronize_session="fetch"))


def release_claims(session: Session) -> None:
    """Every message still marked as being sent back to pending: under the run lock, a claim left is a crash's."""
    session.execute(update(MailOutgoing).where(col(MailOutgoing.state) == OutboxState.SENDING)
                    .values(state=OutboxState.PENDING))


def claim(session: Session, row: MailOutgoing) -> bool:
    """Mark one pending message as being sent; False when it is no longer pending (another sender claimed or sent
    it meanwhile)."""
    taken = session.execute(update(MailOutgoing)
                            .where(col(MailOutgoing.id) == row.id, col(MailOutgoing.state) == OutboxState.PENDING)
                            .values(state=OutboxState.SENDING).execution_options(synchronize_session=False))
    session.expire(row, ["state"])  # read again when next used (the store's sessions keep objects on commit)
    return cast(CursorResult[Any], taken).rowcount == 1  # an UPDATE's result counts its rows


def record(session: Session, row: MailOutgoing, state: OutboxState, error: str | None, at: datetime) -> None:
    """What became of one attempt to send the message at `at`."""
    row.attempts += 1
    row.state, row.last_error = state, error
    if state == OutboxState.SENT:
        row.sent_at = at
    session.add(row)
