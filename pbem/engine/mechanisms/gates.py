"""Gates (RULES G3): a closed gate is a wall; robots leave the room through open ones."""
from __future__ import annotations

from typing import TYPE_CHECKING

from ..events import EnteredGate, LeftRoom
from ..geometry import Dir, Square
from ..mechanism import Block, register
from ..room import Element
from .base import Controlled, controlled_fields

if TYPE_CHECKING:  # pragma: no cover
    from ..context import TurnContext
    from ..state import Robot


@register
class Gate(Controlled):
    """Entering an open gate ends the robot's movement: it has reached the way out (ruling — the gate is
    the opening in the fence, so the rest of a card does not run it into the fence beyond). With one gate in
    the room a robot standing in it at the end of a stage leaves, and until then is an ordinary robot (it
    can be pushed). With several, it is locked there — it cannot move and no mechanism moves it, whatever
    the gate's own state (ruling: a gate that closes keeps its robot) — and a player's robots all leave at
    the end of the stage in which every gate holds one of them (ruling: gates release one player's robots,
    never a mix)."""

    type = "gate"
    words = ("closed", "open")
    flag = "open"
    fields = controlled_fields("open", False)
    phases = ("gates",)
    robots_only = True
    enter_order = 30

    def blocks_step(self, ctx: TurnContext, element: Element, robot: Robot, frm: Square, to: Square,
                    direction: Dir) -> Block | None:
        if to == element.at and not self.is_set(ctx, element):
            return Block(self.type, element.key)
        return None

    def blocks_beam(self, ctx: TurnContext, element: Element, square: Square, direction: Dir) -> bool:
        return not self.is_set(ctx, element)

    def on_enter(self, ctx: TurnContext, element: Element, robot: Robot, frm: Square, direction: Dir, how: str) -> bool:
        ctx.emit(EnteredGate(ctx.stage, robot.name, element.at, element.key, self.locks(ctx)))
        return True

    def locks(self, ctx: TurnContext) -> bool:
        return len(ctx.index.by_type[self.type]) > 1

    def holds(self, ctx: TurnContext, element: Element, robot: Robot) -> bool:
        return self.locks(ctx)

    def act(self, ctx: TurnContext, phase: str, elements: list[Element]) -> None:
        occupants = [ctx.robots_at(gate.at) for gate in elements]
        if not any(occupants):
            return
        leaving = [robot for robots in occupants for robot in robots]
        if len(elements) > 1:
            owners = sorted({robot.owner for robot in leaving})
            released = {owner for owner in owners if all(any(r.owner == owner for r in rs) for rs in occupants)}
            leaving = [robot for robot in leaving if robot.owner in released]
        for robot in leaving:
            at = robot.square
            robot.left_room = True
            ctx.place(robot, None)
            ctx.emit(LeftRoom(ctx.stage, robot.name, at, ctx.board.room.name))
