"""Buzzsaws (RULES B6b.6): each stage each saw draws from the seeded RNG and may spin."""
from __future__ import annotations

from typing import TYPE_CHECKING

from ..events import SawSpun
from ..mechanism import Mechanism, register
from ..room import Element
from ..vocabulary import Cause

if TYPE_CHECKING:  # pragma: no cover
    from ..context import TurnContext


@register
class Buzzsaw(Mechanism):
    type = "buzzsaw"
    fields = {}
    phases = ("buzzsaws",)

    def act(self, ctx: TurnContext, phase: str, elements: list[Element]) -> None:
        for element in elements:
            victims = ctx.robots_at(element.at)
            if not victims and not ctx.record:
                continue  # the draw only decides an event (seeding its RNG is most of a saw's cost)
            draw = ctx.rng("buzzsaw", element.key).random()
            if draw <= ctx.ruleset.buzzsaw_threshold:
                continue
            ctx.emit(SawSpun(ctx.stage, victims[0].name if victims else None, element.at, element.key,
                             f"{draw:.4f}"))
            for robot in victims:
                ctx.damage(robot, ctx.ruleset.buzzsaw_damage, Cause.SAW, element.key)
