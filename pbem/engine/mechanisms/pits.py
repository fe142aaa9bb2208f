"""Pits, trap doors and drawbridges (RULES B6.4–B6.6): squares a robot falls into."""
from __future__ import annotations

from typing import TYPE_CHECKING

from ..events import Fell
from ..geometry import Dir, Square
from ..mechanism import CONTROL, Block, Field, Mechanism, direction, register
from ..room import Element
from .base import Controlled, controlled_fields

if TYPE_CHECKING:  # pragma: no cover
    from ..context import TurnContext
    from ..state import Robot


def fall(ctx: TurnContext, robot: Robot, element: Element) -> bool:
    ctx.emit(Fell(ctx.stage, robot.name, element.at, element.type, element.key))
    ctx.destroy(robot, element.type)
    return True


@register
class Pit(Mechanism):
    """B6.4: entering it, by any means, destroys the robot."""

    type = "pit"
    enter_order = 0

    def safe_start(self, element: Element) -> bool:
        return False

    def on_enter(self, ctx: TurnContext, element: Element, robot: Robot, frm: Square, direction: Dir, how: str) -> bool:
        return fall(ctx, robot, element)


@register
class Trapdoor(Controlled):
    """B6.5: floor while closed, a pit while open; opening drops whoever stands on it."""

    type = "trapdoor"
    words = ("closed", "open")
    flag = "open"
    fields = controlled_fields("open", False)
    enter_order = 0

    def safe_start(self, element: Element) -> bool:
        return not element.get("open", False)

    def on_enter(self, ctx: TurnContext, element: Element, robot: Robot, frm: Square, direction: Dir, how: str) -> bool:
        return fall(ctx, robot, element) if self.is_set(ctx, element) else False

    def changed(self, ctx: TurnContext, element: Element) -> None:
        if self.is_set(ctx, element):
            for robot in ctx.robots_at(element.at):
                fall(ctx, robot, element)


@register
class Drawbridge(Mechanism):
    """B6.6: raised at game start — a wall from its `bridge` side, a pit from the others, a block for beams;
    lowered for good (plain floor) once its control turns on."""

    type = "drawbridge"
    fields = {"bridge": Field(direction), "control": CONTROL}
    enter_order = 0

    def initial_state(self, element: Element) -> str:
        return "raised"

    def safe_start(self, element: Element) -> bool:
        return False

    def raised(self, ctx: TurnContext, element: Element) -> bool:
        return ctx.state(element) == "raised"

    def blocks_step(self, ctx: TurnContext, element: Element, robot: Robot, frm: Square, to: Square,
                    direction: Dir) -> Block | None:
        if to == element.at and direction.opposite == element.get("bridge") and self.raised(ctx, element):
            return Block(self.type, element.key)
        return None

    def on_enter(self, ctx: TurnContext, element: Element, robot: Robot, frm: Square, direction: Dir, how: str) -> bool:
        return fall(ctx, robot, element) if self.raised(ctx, element) else False

    def blocks_beam(self, ctx: TurnContext, element: Element, square: Square, direction: Dir) -> bool:
        return self.raised(ctx, element)

    def controlled_state(self, element: Element, on: bool) -> str | None:
        return "lowered" if on else None
