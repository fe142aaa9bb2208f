"""A request the store (or the game master's step over it) cannot carry out: one exception for every layer above,
in a module of its own so that a command writing without the ORM (`store.newmatch`) raises the same one."""
from __future__ import annotations

from typing import Iterable


class Refused(Exception):
    """A request the game master cannot carry out, with every reason."""

    def __init__(self, reasons: Iterable[object]):
        self.reasons = [str(reason) for reason in reasons]
        super().__init__("\n".join(self.reasons))
