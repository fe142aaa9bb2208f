"""Teleporters (RULES B6.9): moving into an active one moves the robot on to the next free active one."""
from __future__ import annotations

from typing import TYPE_CHECKING, Iterator

from ..events import Teleported
from ..geometry import Dir, Square
from ..mechanism import Field, register, word
from ..movement import Arrival, arrive
from ..room import Element, Room
from ..vocabulary import Cause
from .base import Controlled, controlled_fields

if TYPE_CHECKING:  # pragma: no cover
    from ..context import TurnContext
    from ..state import Robot



@register
class Teleporter(Controlled):
    type = "teleporter"
    words = ("inactive", "active")
    flag = "active"
    flag_default = True
    fields = {"colour": Field(word), **controlled_fields("active", True)}
    enter_order = 20  # after the square's switch is pressed

    def check_room(self, room: Room, elements: list[Element]) -> Iterator[tuple[Element, str, str]]:
        seen: dict[str, int | None] = {}
        for element in elements:
            colour = str(element.get("colour")).lower()
            if colour in seen:
                yield element, "colour", f"a second {colour} teleporter (the first is on line {seen[colour]})"
            seen[colour] = element.line

    def on_enter(self, ctx: TurnContext, element: Element, robot: Robot, frm: Square, direction: Dir, how: str) -> bool:
        """B6.9: on to the next active teleporter; a real robot skips those a real robot holds (B9: virtual ones
        never block), a virtual robot goes to the next active one whoever stands there. Arriving is moving into that square for its other elements (B6.7: a switch is pressed, a pit or open
        trap door drops the robot) but not for its teleporter: arriving by teleport does not teleport again."""
        if how == Cause.TELEPORT or not self.is_set(ctx, element):
            return False
        ring = sorted(ctx.index.by_type[self.type], key=lambda e: str(e.get("colour")).lower())
        start = ring.index(element)
        for offset in range(1, len(ring)):
            target = ring[(start + offset) % len(ring)]
            if self.is_set(ctx, target) and (not ctx.solid(robot) or ctx.solid_at(target.at) is None):
                ctx.place(robot, target.at)
                ctx.emit(Teleported(ctx.stage, robot.name, element.at, target.at,
                                    str(element.get("colour")), str(target.get("colour"))))
                return bool(arrive(ctx, [Arrival(robot, direction, Cause.TELEPORT)]))
        return False
