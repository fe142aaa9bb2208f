"""Program cards (RULES B3): a kind and a unique number, the number being the card's priority."""
from __future__ import annotations

import re
from dataclasses import dataclass

MOVES = {"FWD1": 1, "FWD2": 2, "FWD3": 3, "RVS1": -1, "RVS2": -2, "RVS3": -3}
TURNS = {"LF90": -1, "RT90": 1, "UTRN": 2}
SIDESTEPS = {"SLF1": -1, "SRT1": 1}  # quarter turn from facing towards the side stepped to
KINDS = (*MOVES, *TURNS, *SIDESTEPS, "IDLE")
BASIC_KINDS = ("FWD1", "FWD2", "FWD3", "RVS1", "LF90", "RT90", "UTRN")
# G7: the card sets a computer square names, and the upgrade cards each unlocks.
CARD_SETS = {"reverse": ("RVS2", "RVS3"), "idle": ("IDLE",), "strafe": ("SLF1", "SRT1")}

_SET_OF = {kind: name for name, kinds in CARD_SETS.items() for kind in kinds}  # a kind's set, asked per card
_CARD = re.compile(r"^([A-Z][A-Z0-9]{3})#(\d{1,18})$")


@dataclass(frozen=True, order=True, slots=True)
class Card:
    number: int
    kind: str

    @classmethod
    def parse(cls, text: str) -> "Card":
        """A full card, `KIND#NUMBER` (e.g. `FWD2#700`)."""
        match = _CARD.match(str(text).strip().upper())
        if not match or match[1] not in KINDS:
            raise ValueError(f"not a card (KIND#NUMBER): {text!r}")
        return cls(int(match[2]), match[1])

    @property
    def card_set(self) -> str | None:
        """The G7 set a robot needs to use this card, or None for a basic card."""
        return _SET_OF.get(self.kind)

    def __str__(self) -> str:
        return f"{self.kind}#{self.number}"


def _series(kind: str, first: int, last: int, step: int) -> list[Card]:
    return [Card(n, kind) for n in range(first, last + 1, step)]


def standard_cards() -> list[Card]:
    """The 84 RoboRally cards of RULES B3.3, in ascending number."""
    cards = (_series("UTRN", 10, 60, 10) + _series("LF90", 70, 410, 20) + _series("RT90", 80, 420, 20)
             + _series("RVS1", 430, 480, 10) + _series("FWD1", 490, 660, 10) + _series("FWD2", 670, 780, 10)
             + _series("FWD3", 790, 840, 10))
    return sorted(cards)


def upgrade_cards() -> list[Card]:
    """The upgrade cards of the RULES B3.4 ruling, numbered to end in 5."""
    cards = (_series("IDLE", 5, 55, 10) + _series("SLF1", 495, 655, 20) + _series("SRT1", 505, 665, 20)
             + _series("RVS2", 675, 775, 20) + _series("RVS3", 795, 835, 10))
    return sorted(cards)
