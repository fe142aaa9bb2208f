"""The `pbem` command line (DESIGN.md "Command line"). Progress goes to stderr, results to stdout.

Each command group lives in its own module and attaches itself to `app`; `lazy.COMMANDS` names them, and a
module is imported only when one of its commands runs.
"""
from __future__ import annotations

import atexit
import gc

import typer

from ..games import InstalledGameError
from .common import EXIT_REFUSED, app
from .lazy import click_command


def main() -> None:
    """Run the command line; a file or folder that cannot be read or written, or an installed game that cannot be
    played, is a refusal, not a traceback."""
    _exit_without_collecting()
    try:
        click_command(app)(prog_name="pbem")
    except OSError as err:
        where = f"{err.filename}: " if err.filename else ""
        typer.echo(f"{where}{err.strerror or err}", err=True)
        raise SystemExit(EXIT_REFUSED) from None
    except InstalledGameError as err:  # an installed package's game that cannot be played, named
        typer.echo(f"pbem: {err}", err=True)
        raise SystemExit(EXIT_REFUSED) from None


def _exit_without_collecting() -> None:
    """When the process ends, move every object to the collector's permanent generation first, so the interpreter's
    final collections skip them: the ~90,000 objects of SQLAlchemy, pydantic and the engine die with the process
    anyway, and traversing them took ~0.1 s of a one-second command. Registered once however often `main` runs."""
    atexit.unregister(gc.freeze)
    atexit.register(gc.freeze)


__all__ = ["app", "main", "typer"]
