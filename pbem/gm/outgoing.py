"""`pbem mail send`: the messages the GM gives (`.eml` files, a game's news) queued, then everything pending sent.

Queuing is one step (committed, or with a dry run written to a folder and rolled back); sending is another
(`deliver`), under the run lock the caller holds. Before sending, a message is claimed in a committed step of its
own (pending → sending, only if still pending), so two senders never both send it; what became of it is
committed right after. Delivery is at least once: a crash between the server's acceptance and the record leaves
the claim behind, and the next sender (under the run lock, so no claim is live then) sends it again, with the same
Message-ID (mail readers show it once). A refused or unsendable message blocks none behind it; `pbem mail
outbox` shows it. `--dry-run` writes the pending messages to a folder and changes no state.
"""
from __future__ import annotations

from datetime import datetime
from pathlib import Path
from typing import Iterable

from sqlmodel import Session

from ..mail.config import Server
from ..mail.outbox import Delivery, FolderTransport, SmtpTransport, Transport, queue, send_one
from ..store import outbox
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


def deliver(session: Session, transport: Transport, at: datetime, *, dry_run: bool = False) -> list[Delivery]:
    """Send every pending message, oldest first, each claimed and recorded in commits of its own (nothing stored
    with `dry_run`); `at` is the time of sending (the CLI's clock), for the Date header and the record. The
    caller holds the run lock (pbem.store.runlock), so a message still marked sending was left by a crash."""
    if not dry_run:
        outbox.release_claims(session)
        session.commit()
    results = []
    for row in outbox.pending(session):
        if not dry_run:
            taken = outbox.claim(session, row)
            session.commit()  # the claim, before the message goes out
            if not taken:
                continue  # another sender took it
        delivery = send_one(transport, row, at)
        results.append(delivery)
        if not dry_run:
            outbox.record(session, row, delivery.state, delivery.error, at)
            session.commit()
    return results
