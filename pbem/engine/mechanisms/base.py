"""Shared shapes of the built-in families: wall-mounted devices and switch-controlled elements."""
from __future__ import annotations

from typing import TYPE_CHECKING, ClassVar

from ..geometry import Dir, Square
from ..mechanism import CONTROL, Block, Field, Mechanism, boolean
from ..room import Element
from ..vocabulary import Cause

if TYPE_CHECKING:  # pragma: no cover
    from ..context import TurnContext
    from ..state import Robot


class Mounted(Mechanism):
    """A device on a wall (`wall: SIDE` of its square): the wall is there too, for robots and beams."""

    def edges(self, element: Element) -> tuple[tuple[Square, Dir], ...]:
        return ((element.at, element.get("wall")),)

    def blocks_step(self, ctx: TurnContext, element: Element, robot: Robot, frm: Square, to: Square,
                    direction: Dir) -> Block | None:
        return Block(Cause.WALL, element.key)

    def blocks_beam(self, ctx: TurnContext, element: Element, square: Square, direction: Dir) -> bool:
        return True


def controlled_fields(flag: str, default: bool) -> dict[str, Field]:
    """The fields of a controlled element: its optional `control` and its listed state."""
    return {"control": CONTROL, flag: Field(boolean, required=False, default=default)}


class Controlled(Mechanism):
    """An element with two states, the one the file lists (`flag` true/false) holding while its
    `control` (a switch or eye id) is off, the other while it is on."""

    words: ClassVar[tuple[str, str]]  # (state when `flag` is false, state when true)
    flag: ClassVar[str]
    flag_default: ClassVar[bool] = False

    def initial_state(self, element: Element) -> str:
        return self.words[bool(element.get(self.flag, self.flag_default))]

    def controlled_state(self, element: Element, on: bool) -> str:
        return self.words[bool(element.get(self.flag, self.flag_default)) ^ on]

    def is_set(self, ctx: TurnContext, element: Element) -> bool:
        """In the state named by `flag` (open, active, on)."""
        return ctx.state(element) == self.words[1]
