"""Teleporters (RULES B6.9): moving into an active one moves the robot on to the next free active one."""
from __future__ import annotations

from ..events import Teleported
from ..mechanism import Field, register, word
from ..room import Room
from .base import Controlled, controlled_fields


@register
class Teleporter(Controlled):
    type = "teleporter"
    words = ("inactive", "active")
    flag = "active"
    flag_default = True
    fields = {"colour": Field(word), **controlled_fields("active", True)}
    enter_order = 20  # after the square's switch is pressed

    def check_room(self, room: Room, elements):
        seen: dict[str, int | None] = {}
        for element in elements:
            colour = str(element.get("colour")).lower()
            if colour in seen:
                yield element, "colour", f"a second {colour} teleporter (the first is on line {seen[colour]})"
            seen[colour] = element.line

    def on_enter(self, ctx, element, robot, frm, direction, how) -> bool:
        if not self.is_set(ctx, element):
            return False
        ring = sorted(ctx.index.by_type[self.type], key=lambda e: str(e.get("colour")).lower())
        start = ring.index(element)
        for offset in range(1, len(ring)):
            target = ring[(start + offset) % len(ring)]
            if self.is_set(ctx, target) and not ctx.robots_at(target.at):
                robot.at = target.at  # B6.9: arriving by teleport does not teleport again
                ctx.emit(Teleported(ctx.stage, robot.name, element.at, target.at,
                                    str(element.get("colour")), str(target.get("colour"))))
                break
        return False
