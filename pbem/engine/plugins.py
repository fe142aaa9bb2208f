"""Where the mechanism registry gets its plug-ins (RULES G9): loaders the caller adds, each run once, the first
time the registry is read. The engine reads no files itself; the CLI adds a loader for the installed packages'
entry points and the campaign folder's `mechanisms/`. (A module of its own, importing nothing, so that adding
a loader costs a command nothing.)"""
from __future__ import annotations

from typing import Callable

_LOADERS: list[Callable[[], None]] = []


def add_loader(loader: Callable[[], None]) -> None:
    _LOADERS.append(loader)


def run_loaders() -> None:
    """Run the loaders added since the last call (a loader that fails is not run again)."""
    while _LOADERS:
        _LOADERS.pop(0)()
