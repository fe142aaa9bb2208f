"""Gates (RULES G3): a closed gate is a wall; robots leave the room through open ones."""
from __future__ import annotations

from ..events import EnteredGate, LeftRoom
from ..mechanism import Block, register
from .base import Controlled, controlled_fields


@register
class Gate(Controlled):
    """A robot that enters an open gate stops there and cannot be moved. With one gate in the room it
    leaves at the end of the stage; with several, all leave at the end of the stage in which every gate
    holds one of the player's robots."""

    type = "gate"
    words = ("closed", "open")
    flag = "open"
    fields = controlled_fields("open", False)
    phases = ("gates",)
    enter_order = 30

    def blocks_step(self, ctx, element, robot, frm, to, direction) -> Block | None:
        if to == element.at and not self.is_set(ctx, element):
            return Block("gate", element.key)
        return None

    def blocks_beam(self, ctx, element, square, direction) -> bool:
        return not self.is_set(ctx, element)

    def on_enter(self, ctx, element, robot, frm, direction, how) -> bool:
        several = len(ctx.index.by_type[self.type]) > 1
        ctx.emit(EnteredGate(ctx.stage, robot.name, element.at, element.key, several))
        return True

    def holds(self, ctx, element, robot) -> bool:
        return self.is_set(ctx, element)

    def act(self, ctx, phase, elements) -> None:
        occupants = [ctx.robots_at(gate.at) for gate in elements]
        if len(elements) > 1:
            owners = {robot.owner for robots in occupants for robot in robots}
            if not all(occupants) or len(owners) != 1:
                return
        for robots in occupants:
            for robot in robots:
                at = robot.at
                robot.left_room, robot.at = True, None
                ctx.emit(LeftRoom(ctx.stage, robot.name, at, ctx.board.room.name))
