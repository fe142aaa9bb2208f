"""The editions of Flower Field (RULES D4.1): flower kinds, their names, the centre flower, plants per turn.

Each kind is one letter on the board. A player may name it by the letter,
the colour or any listed alias, in any case. Time controls follow each
edition's seed text (D5).
"""
from __future__ import annotations

from dataclasses import dataclass

from ..clock import TimeControl


@dataclass(frozen=True)
class Kind:
    letter: str
    name: str
    colour: str  # a colour word the renderer knows
    aliases: tuple[str, ...] = ()


@dataclass(frozen=True)
class Variant:
    name: str
    kinds: tuple[Kind, ...]
    centre: str | None  # the letter of the D4 flower at the start; None: empty board
    per_turn: int  # most flowers planted in one turn
    adjacent: bool  # D4.2: plants must touch a flower placed before this turn
    clock: TimeControl

    def kind(self, word: object) -> str:
        """The letter of the kind `word` names; ValueError listing the choices otherwise."""
        wanted = str(word).strip().lower()
        for kind in self.kinds:
            if wanted in {kind.letter.lower(), kind.name.lower(), kind.colour.lower(), *kind.aliases}:
                return kind.letter
        choices = ", ".join(f"{k.letter} ({k.name})" for k in self.kinds)
        raise ValueError(f"{word!r} is not a flower of {self.name}: {choices}")


def _kinds(*colours: str) -> tuple[Kind, ...]:
    return tuple(Kind(colour[0].upper(), colour, colour) for colour in colours)


_LONG = TimeControl(turn=120, reserve=600, step=60, bonus={"challenge": 60})
VARIANTS = {
    v.name: v
    for v in (
        Variant("classic", _kinds("red", "blue", "purple"), "P", 2, True, _LONG),
        Variant(
            "genius4",
            (
                Kind("R", "ruby rose", "red", ("rose", "ruby")),
                Kind("S", "saffron sunflower", "yellow", ("sunflower", "saffron")),
                Kind("T", "turquoise tulip", "turquoise", ("tulip", "blue")),
            ),
            "R", 2, True, TimeControl(turn=60, reserve=300, step=1),
        ),
        Variant("grunkle", _kinds("red", "blue", "yellow"), "Y", 2, True,
                TimeControl(turn=60, reserve=300, step=30, bonus={"challenge": 60})),
        Variant("pan", _kinds("red", "green", "yellow"), "R", 2, True, _LONG),
        # Primary Patterns: one tile a turn on an empty board; its text has no adjacency rule.
        Variant("primary", _kinds("red", "blue", "yellow"), None, 1, False, TimeControl(turn=90)),
    )
}


def variant(name: str | None) -> Variant:
    try:
        return VARIANTS[name or "classic"]
    except (KeyError, TypeError):  # TypeError: a list or mapping given as the name
        raise ValueError(f"unknown Flower Field variant {name!r}; known: {', '.join(VARIANTS)}") from None
