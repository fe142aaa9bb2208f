"""One `pbem run` (or `pbem mail send`) at a time per database, so that two of them never both send.

SQLite: an exclusive `flock` on a file next to the database (`pbem.db.run-lock`); PostgreSQL: a session advisory
lock held by a connection of its own, so runs on two hosts sharing one server exclude each other too. Both end
with the process that holds them (a crash or kill -9 included): no stale lock is ever left for the GM to clear.
Another database (or an in-memory SQLite one) has nothing to share a lock with, and is not locked.

On PostgreSQL the run lock covers only reading the mail and sending the outbox: the due games are claimed one at a
time (`game_claims`, a session advisory lock per game keyed by its id), so several workers — `pbem run --jobs N`,
or runs on several hosts — split them, each game processed by whichever worker claimed it. SQLite has one writer at
a time: there the run lock covers the whole run and a claim is always granted.
"""
from __future__ import annotations

import os
import socket
import time
from contextlib import contextmanager
from pathlib import Path
from typing import Callable, ContextManager, Iterator

from sqlalchemy import create_engine, text
from sqlalchemy.engine import make_url
from sqlalchemy.pool import NullPool

ADVISORY_KEY = 0x7062656D72756E  # "pbemrun": one key per database (PostgreSQL scopes advisory locks by database)
POLL_SECONDS = 0.2
CLAIM_KEY = 0x70626D67  # "pbmg": the first key of a game's claim, the game's id the second

Claim = Callable[[str], ContextManager[bool]]  # a game's name -> whether this worker holds it for the block


class RunBusy(Exception):
    """Another run holds the database's run lock and did not let go within the wait."""


@contextmanager
def run_lock(url: str, wait: float) -> Iterator[None]:
    """Hold the run lock of the database at `url` for the block, waiting up to `wait` seconds for another holder
    to finish; RunBusy (saying who holds it, where that is known) when it does not."""
    parsed = make_url(url)
    if parsed.drivername.startswith("sqlite") and parsed.database not in (None, "", ":memory:"):
        with _file_lock(Path(f"{parsed.database}.run-lock"), wait):
            yield
    elif parsed.drivername.startswith("postgresql"):
        with _advisory_lock(url, wait):
            yield
    else:
        yield


def claims_games(url: str) -> bool:
    """Whether workers on the database at `url` claim games one by one (PostgreSQL) rather than take turns with
    the whole run (SQLite, one writer at a time)."""
    return make_url(url).drivername.startswith("postgresql")


@contextmanager
def granted(_: str) -> Iterator[bool]:
    """A claim where there is nothing to share: the run lock is held for the whole run."""
    yield True


@contextmanager
def game_claims(url: str) -> Iterator[Claim]:
    """Claims of games by name for the block (a connection of its own, so they outlast the commits of a step):
    each yields False at once when another worker holds the game, else holds it until its block ends."""
    if not claims_games(url):
        yield granted
        return
    engine = create_engine(url, poolclass=NullPool, isolation_level="AUTOCOMMIT")
    try:
        with engine.connect() as connection:
            @contextmanager
            def claim(name: str) -> Iterator[bool]:
                key = {"key": CLAIM_KEY, "name": name}
                mine = connection.execute(text("SELECT pg_try_advisory_lock(:key, id) FROM games WHERE name = :name"),
                                          key).scalar()
                try:
                    yield bool(mine)
                finally:
                    if mine:
                        connection.execute(text("SELECT pg_advisory_unlock(:key, id) FROM games WHERE name = :name"),
                                           key)
            yield claim
    finally:
        engine.dispose()


@contextmanager
def _file_lock(path: Path, wait: float) -> Iterator[None]:
    import fcntl

    with open(path, "a+", encoding="utf-8") as handle:
        deadline = time.monotonic() + wait
        while True:
            try:
                fcntl.flock(handle, fcntl.LOCK_EX | fcntl.LOCK_NB)
                break
            except BlockingIOError:
                if time.monotonic() >= deadline:
                    handle.seek(0)
                    holder = handle.read().strip() or "another process"
                    raise RunBusy(f"{holder} holds the run lock {path}") from None
                time.sleep(POLL_SECONDS)
        handle.seek(0)
        handle.truncate()
        handle.write(f"pbem run (pid {os.getpid()} on {socket.gethostname()})\n")
        handle.flush()
        try:
            yield
        finally:
            handle.truncate(0)  # the lock itself ends when the file is closed, or with the process
            handle.flush()


@contextmanager
def _advisory_lock(url: str, wait: float) -> Iterator[None]:
    engine = create_engine(url, poolclass=NullPool, isolation_level="AUTOCOMMIT")
    try:
        with engine.connect() as connection:
            deadline = time.monotonic() + wait
            while not connection.execute(text("SELECT pg_try_advisory_lock(:key)"), {"key": ADVISORY_KEY}).scalar():
                if time.monotonic() >= deadline:
                    raise RunBusy(f"another pbem run holds the run lock of {make_url(url).render_as_string()} "
                                  f"(advisory lock {ADVISORY_KEY})")
                time.sleep(POLL_SECONDS)
            try:
                yield
            finally:
                connection.execute(text("SELECT pg_advisory_unlock(:key)"), {"key": ADVISORY_KEY})
    finally:
        engine.dispose()
