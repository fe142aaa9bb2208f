"""`pbem mail send`: the messages the GM gives (`.eml` files, a game's news) queued, then everything pending sent.

Queuing is one step (committed, or with a dry run written to a folder and rolled back); sending is another, each
message claimed and recorded in commits of its own by `mail.outbox.deliver` under the run lock the caller holds.
"""
from __future__ import annotations

from datetime import datetime
from pathlib import Path
from typing import Iterable

from sqlmodel import Session

from ..mail.config import Server
from ..mail.outbox import Delivery, FolderTransport, SmtpTransport, deliver, queue
from ..store.base import Refused
from .ending import queue_game_news


def queue_outgoing(session: Session, files: Iterable[tuple[Path, bytes]], games: list[str], sender: str,
                   now: datetime, templates: tuple[str, ...],
                   dry_run_into: Path | None = None) -> tuple[int, list[Delivery]]:
    """Each message file queued once (by Message-ID), and each game's reports of its last processed turn and sheets
    of its dealt turn; committed. With `dry_run_into`, everything pending is written there as `.eml` files instead
    and nothing is kept. How many were queued, and the messages written by a dry run."""
    queued = 0
    for path, data in files:
        try:
            queued += queue(session, data, "file", now) is not None
        except ValueError as err:
            raise Refused([f"{path}: {err}"]) from None
    for name in games:
        news, told = queue_game_news(session, name, sender, now, templates)
        queued += news + len(told)
    session.flush()
    if dry_run_into is not None:
        written = deliver(session, FolderTransport(dry_run_into), now, dry_run=True)
        session.rollback()
        return queued, written
    session.commit()
    return queued, []


def send_pending(session: Session, server: Server, sender: str, now: datetime) -> list[Delivery]:
    """Everything pending sent over SMTP (the caller holds the run lock); a failed send stays pending."""
    with SmtpTransport(server, sender) as transport:
        return deliver(session, transport, now)
