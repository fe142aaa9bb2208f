"""The `pbem` command line (DESIGN.md "Command line"). Progress goes to stderr, results to stdout.

Each command group lives in its own module and attaches itself to `app`; `lazy.COMMANDS` names them, and a
module is imported only when one of its commands runs.
"""
from __future__ import annotations

import typer

from .common import EXIT_REFUSED, app
from .lazy import click_command


def main() -> None:
    """Run the command line; a file or folder that cannot be read or written is a refusal, not a traceback."""
    try:
        click_command(app)()
    except OSError as err:
        where = f"{err.filename}: " if err.filename else ""
        typer.echo(f"{where}{err.strerror or err}", err=True)
        raise SystemExit(EXIT_REFUSED) from None


__all__ = ["app", "main", "typer"]
