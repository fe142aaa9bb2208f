"""The `pbem` command line (DESIGN.md "Command line"). Progress goes to stderr, results to stdout.

Each command group lives in its own module and attaches itself to `app`;
this file only names them.
"""
from __future__ import annotations

import typer

from .common import EXIT_REFUSED, app
from . import room, scenario, game, turn, report, dm, gyulbot, ice, mail, run  # noqa: F401,E402  (each registers its commands)


def main() -> None:
    """Run the command line; a file or folder that cannot be read or written is a refusal, not a traceback."""
    try:
        app()
    except OSError as err:
        where = f"{err.filename}: " if err.filename else ""
        typer.echo(f"{where}{err.strerror or err}", err=True)
        raise SystemExit(EXIT_REFUSED) from None


__all__ = ["app", "main", "typer"]
