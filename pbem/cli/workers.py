"""The due games of `pbem run` shared by workers: `--jobs N` processes on this host (spawned, each with a store of
its own), each claiming one game at a time (pbem.store.runlock.game_claims) so that no game is done twice and runs
on other hosts sharing the PostgreSQL server take their part. SQLite has one writer at a time: one worker, under
the run lock.
"""
from __future__ import annotations

from datetime import datetime
from pathlib import Path
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from concurrent.futures import ProcessPoolExecutor

    from ..gm.schedule import Done
    from ..mail.config import MailConfig


def share_games(url: str, jobs: int, now: datetime, config: MailConfig, out: Path, templates: tuple[str, ...],
                inbox_read: bool) -> list[Done]:
    """Every due game done by `jobs` workers (this process alone for one); what each did, worker by worker."""
    if jobs == 1:
        return work_games(url, now, config, out, templates, inbox_read)
    with worker_pool(jobs) as pool:
        workers = [pool.submit(work_games, url, now, config, out, templates, inbox_read) for _ in range(jobs)]
        return [d for worker in workers for d in worker.result()]


def worker_pool(jobs: int) -> ProcessPoolExecutor:
    """`jobs` worker processes, spawned, each started as the `pbem` process starts (`pbem.__main__.start`): without
    it a worker compiled every dataclass's methods again (~40 ms of its imports) and collected its young objects
    every 700 allocations."""
    from concurrent.futures import ProcessPoolExecutor  # with workers only: one process does without them
    from multiprocessing import get_context

    from ..__main__ import start

    return ProcessPoolExecutor(max_workers=jobs, mp_context=get_context("spawn"), initializer=start)


def work_games(url: str, now: datetime, config: MailConfig, out: Path, templates: tuple[str, ...],
               inbox_read: bool) -> list[Done]:
    """One worker's pass over the games: each one no other worker holds, claimed, done and released."""
    from ..gm.schedule import run_games
    from ..store.base import Store
    from ..store.runlock import game_claims

    store = Store(url)
    try:
        with game_claims(url) as claim, store.session() as session:
            return run_games(session, now, config, out, templates, inbox_read, claim)
    finally:
        store.close()
