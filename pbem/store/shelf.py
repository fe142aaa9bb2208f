"""Where the store keeps decoded setups between processes (`pbem.store.states.load_setup`): the command line lends a
cache folder (`pbem.cli.shelf`), as it lends render its pictures' (`pbem.render.shelf`); with none, nothing is kept.
A module of its own, importing nothing, so that lending costs a command nothing."""
from __future__ import annotations

from typing import Protocol


class Shelf(Protocol):
    def get(self, key: str) -> bytes | None: ...

    def put(self, key: str, data: bytes) -> None: ...


_shelf: Shelf | None = None


def lend(shelf: Shelf | None) -> None:
    """Keep decoded setups on `shelf` from now on (None: keep nothing)."""
    global _shelf
    _shelf = shelf


def shelved() -> Shelf | None:
    """The shelf lent, if any."""
    return _shelf
