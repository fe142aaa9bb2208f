"""Gears (RULES B6b.3): rotate the robots on them."""
from __future__ import annotations

from typing import TYPE_CHECKING

from ..events import Rotated
from ..mechanism import Field, Mechanism, choice, register
from ..room import Element
from ..vocabulary import Cause

if TYPE_CHECKING:  # pragma: no cover
    from ..context import TurnContext

TURNS = {"left": -1, "right": 1, "half": 2}


@register
class Gear(Mechanism):
    type = "gear"
    fields = {"turn": Field(choice(*TURNS))}
    phases = ("gears",)
    robots_only = True
    each_square = True

    def act(self, ctx: TurnContext, phase: str, elements: list[Element]) -> None:
        for element in elements:
            for robot in ctx.robots_at(element.at):
                before = robot.facing
                robot.facing = before.turned(TURNS[element.get("turn")])
                ctx.emit(Rotated(ctx.stage, robot.name, before, robot.facing, Cause.GEAR, element.key))
