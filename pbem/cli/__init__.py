"""The `pbem` command line (DESIGN.md "Command line"). Progress goes to stderr, results to stdout.

Each command group lives in its own module and attaches itself to `app`;
this file only names them.
"""
from __future__ import annotations

import typer

from .common import app
from . import room, scenario, game, turn, report, dm, gyulbot, ice, mail  # noqa: F401,E402  (each registers its commands)


def main() -> None:
    app()


__all__ = ["app", "main", "typer"]
