"""What the game and turn commands share: the store (its refusals as exit 1), progress on stderr.

SQLAlchemy and Rich are imported when a store is opened or a bar is shown, not with the command's module.
"""
from __future__ import annotations

from contextlib import contextmanager
from pathlib import Path
from typing import TYPE_CHECKING, Iterator

import typer

from .common import db_url, refuse

if TYPE_CHECKING:
    from rich.progress import Progress

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


@contextmanager
def open_store(ctx: typer.Context, read_only: bool = False) -> Iterator[Store]:
    """The store named by --db / PBEM_DB; a refusal prints every reason and exits 1. A command that only reads
    (`read_only`) refuses a SQLite file that does not exist instead of creating an empty database there."""
    from sqlalchemy.exc import OperationalError, SQLAlchemyError

    from ..formats.problems import FormatError
    from ..store.base import Refused, Store

    missing = missing_database(db_url(ctx)) if read_only else None
    if missing is not None:
        refuse([f"no database at {missing.resolve()}: give --db (or PBEM_DB), or start one with pbem game new"])
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


def progress() -> Progress:
    """A progress bar on stderr (hidden when stderr is not a terminal)."""
    from rich.console import Console
    from rich.progress import BarColumn, MofNCompleteColumn, Progress, TextColumn, TimeElapsedColumn

    stderr = Console(stderr=True)
    return Progress(TextColumn("{task.description}"), BarColumn(), MofNCompleteColumn(), TimeElapsedColumn(),
                    console=stderr, transient=True, disable=not stderr.is_terminal)
