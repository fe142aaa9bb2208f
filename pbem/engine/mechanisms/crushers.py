"""Crushers (RULES B6b.4): in their printed stages they destroy a robot on the square and press it."""
from __future__ import annotations

from typing import TYPE_CHECKING

from ..events import Crushed
from ..mechanism import Field, Mechanism, register, stages
from ..room import Element
from ..vocabulary import Cause

if TYPE_CHECKING:  # pragma: no cover
    from ..context import TurnContext


@register
class Crusher(Mechanism):
    type = "crusher"
    fields = {"stages": Field(stages)}
    phases = ("crushers",)

    def act(self, ctx: TurnContext, phase: str, elements: list[Element]) -> None:
        for element in elements:
            if ctx.stage not in element.get("stages"):
                continue
            for robot in ctx.robots_at(element.at):
                ctx.emit(Crushed(ctx.stage, robot.name, element.at, element.key))
                ctx.destroy(robot, Cause.CRUSHER)
            ctx.press(element.at, Cause.CRUSHER, None)
