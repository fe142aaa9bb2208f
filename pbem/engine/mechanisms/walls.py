"""Walls and electric fences (RULES B6.1, B6.2): obstacles on cell edges."""
from __future__ import annotations

from typing import TYPE_CHECKING

from ..geometry import Dir, Square
from ..mechanism import Block, Field, Mechanism, direction, register
from ..room import Element
from ..vocabulary import Cause

if TYPE_CHECKING:  # pragma: no cover
    from ..context import TurnContext
    from ..state import Robot


@register
class Wall(Mechanism):
    """B6.1: blocks both ways, no damage; stops beams."""

    type = "wall"
    fields = {"side": Field(direction)}

    def edges(self, element: Element) -> tuple[tuple[Square, Dir], ...]:
        return ((element.at, element.get("side")),)

    def place(self, element: Element) -> tuple[Square, Dir]:
        """The edge, named the same from either side (r3c4 W is r3c3 E)."""
        at, side = element.at, element.get("side")
        return min((at, side), (at.step(side), side.opposite))

    def blocks_step(self, ctx: TurnContext, element: Element, robot: Robot, frm: Square, to: Square,
                    direction: Dir) -> Block | None:
        return Block(Cause.WALL, element.key)

    def blocks_beam(self, ctx: TurnContext, element: Element, square: Square, direction: Dir) -> bool:
        return True


@register
class Fence(Wall):
    """B6.2: an obstacle that costs `fence_damage` per attempted step (the perimeter is one too)."""

    type = "fence"

    def blocks_step(self, ctx: TurnContext, element: Element, robot: Robot, frm: Square, to: Square,
                    direction: Dir) -> Block | None:
        return Block(Cause.FENCE, element.key, ctx.ruleset.fence_damage)
