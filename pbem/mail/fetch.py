"""The inbox `pbem mail fetch` and `pbem run` read: a Maildir, an mbox file, or an IMAP folder.

Only choosing and reading: what becomes of each message is judged and committed by `pbem.gm.intake`.
"""
from __future__ import annotations

from pathlib import Path
from typing import Any, Iterable

from sqlmodel import Session, select

from ..store.mail import MailReceived
from .config import Server
from .inbox import Incoming, imap_messages, maildir_messages, mbox_messages


def messages_from(session: Session, max_bytes: int, maildir: Path | None = None, mbox: Path | None = None,
                  imap: Server | None = None) -> Iterable[Incoming]:
    """The inbox to read (an IMAP folder asks the store what it has handled, so a handled message is not
    downloaded again); a message over `max_bytes` is read only as far as its headers."""
    if maildir is not None:
        return maildir_messages(maildir, max_bytes)
    if mbox is not None:
        return mbox_messages(mbox, max_bytes)
    if imap is not None:
        return imap_messages(imap, max_bytes, lambda key: _recorded(session, MailReceived.key, key),
                             lambda message_id: _recorded(session, MailReceived.message_id, message_id))
    return []


def _recorded(session: Session, column: Any, value: str) -> bool:
    return session.exec(select(MailReceived.id).where(column == value)).first() is not None
