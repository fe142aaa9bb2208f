"""A cache the command line lends a lower layer, which reads no files itself: render's pictures
(`pbem.render.shelf`), the store's parsed setups (`pbem.store.shelf`). Entries are bytes by key; with none lent,
nothing is kept. Importing nothing, so that lending costs a command nothing."""
from __future__ import annotations

from typing import Protocol


class Shelf(Protocol):
    def get(self, key: str) -> bytes | None: ...

    def put(self, key: str, data: bytes) -> None: ...


class Lent:
    """The shelf a layer was lent, if any."""

    def __init__(self) -> None:
        self._shelf: Shelf | None = None

    def lend(self, shelf: Shelf | None) -> None:
        """Keep entries on `shelf` from now on (None: keep nothing)."""
        self._shelf = shelf

    def shelved(self) -> Shelf | None:
        return self._shelf
