"""What the game and turn commands share: the store (its refusals as exit 1), progress on stderr.

SQLAlchemy and Rich are imported when a store is opened or a bar is shown, not with the command's module.
"""
from __future__ import annotations

from contextlib import contextmanager
from pathlib import Path
from typing import TYPE_CHECKING, Iterator, cast

import typer

from .common import db_url, refuse

if TYPE_CHECKING:
    from rich.progress import Progress, TaskID

    from ..store.games import Store


def missing_database(url: str) -> Path | None:
    """The file of a SQLite URL when it does not exist (a read-only command must not create it), else None."""
    from sqlalchemy.engine import make_url

    try:
        parsed = make_url(url)
    except Exception:  # a bad URL is refused when the store opens it, with its reason
        return None
    if not parsed.drivername.startswith("sqlite") or parsed.database in (None, "", ":memory:") \
            or parsed.query.get("uri") == "true":
        return None
    path = Path(parsed.database)
    return None if path.exists() else path


def refuse_missing_database(ctx: typer.Context) -> None:
    """Exit 1 naming the file when --db names a SQLite file that does not exist: only the commands that start a
    database (`game new`, `game import`, `dm new`, `demo`) may create one, so a cron line or a command run in the
    wrong folder says so instead of working on a new empty database."""
    missing = missing_database(db_url(ctx))
    if missing is not None:
        refuse([f"no database at {missing.resolve()}: give --db (or PBEM_DB), run in the campaign folder, "
                "or start one with pbem game new"])


@contextmanager
def open_store(ctx: typer.Context, read_only: bool = False, create: bool = False) -> Iterator[Store]:
    """The store named by --db / PBEM_DB; a refusal prints every reason and exits 1. Only a command that starts a
    database (`create`) may open a SQLite file that does not exist yet; `read_only` is for the commands that only
    read (kept for their callers' clarity)."""
    from sqlalchemy.exc import OperationalError, SQLAlchemyError

    from ..formats.problems import FormatError
    from ..store.base import Refused, Store

    if not create:
        refuse_missing_database(ctx)
    try:
        store = Store(db_url(ctx))
    except (SQLAlchemyError, OSError, ValueError, ImportError) as err:  # a bad URL, an unreachable server, no driver
        refuse([f"cannot open the database {db_url(ctx)}: {err}"])
    try:
        yield store
    except Refused as err:
        refuse(err.reasons)
    except FormatError as err:
        refuse([str(p) for p in err.problems])
    except OperationalError as err:  # a read-only database, a full disk, a server gone away
        reason = str(err.orig or err).strip().splitlines()[0]
        refuse([f"the database {db_url(ctx)} refused the work: {reason}. Nothing of this command was stored "
                "(each command stores all of its work or none of it)."])
    finally:
        store.close()


RUN_WAIT = 120.0  # seconds a run or mail send waits for another to end (cron's five minutes, with room to spare)


@contextmanager
def holding_run_lock(ctx: typer.Context, wait: float) -> Iterator[None]:
    """The database's run lock (pbem.store.runlock) for the block: one `pbem run` or `pbem mail send` at a time.
    When another holds it past `wait` seconds, exit 1 saying so, having done nothing."""
    from ..store.runlock import RunBusy, run_lock

    try:
        with run_lock(db_url(ctx), wait):
            yield
    except RunBusy as err:  # raised only while waiting for the lock, before the block ran
        refuse([f"{err}: another pbem run or mail send is still working on this database after {wait:g} s; "
                "this one did nothing (the next one goes on where that one ends)"])


def progress() -> Progress | HiddenBar:
    """A progress bar on stderr (hidden when stderr is not a terminal: then Rich is not imported, ~15 ms)."""
    if not _may_be_terminal():
        return HiddenBar()
    from rich.console import Console
    from rich.progress import BarColumn, MofNCompleteColumn, Progress, TextColumn, TimeElapsedColumn

    stderr = Console(stderr=True)
    return Progress(TextColumn("{task.description}"), BarColumn(), MofNCompleteColumn(), TimeElapsedColumn(),
                    console=stderr, transient=True, disable=not stderr.is_terminal)


def _may_be_terminal() -> bool:
    """Whether Rich could take stderr for a terminal: it is one, or the environment may say so (Rich's
    TTY_COMPATIBLE, FORCE_COLOR). False is sure: Rich would hide the bar."""
    import os
    import sys

    try:
        return sys.stderr.isatty() or bool({"TTY_COMPATIBLE", "FORCE_COLOR"} & os.environ.keys())
    except ValueError:  # stderr closed
        return False


class HiddenBar:
    """The bar Rich shows on no terminal: its tasks count nothing and draw nothing."""

    def __enter__(self) -> HiddenBar:
        return self

    def __exit__(self, *raised: object) -> None:
        pass

    def add_task(self, description: str, total: float | None = None) -> TaskID:
        return cast("TaskID", 0)

    def update(self, task: TaskID, description: str) -> None:
        pass

    def advance(self, task: TaskID) -> None:
        pass
