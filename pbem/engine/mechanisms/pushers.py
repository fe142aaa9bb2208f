"""Pushers (RULES B6b.2): wall-mounted, active in their printed stages, each pushes one square away."""
from __future__ import annotations

from ..events import PushedByPusher
from ..mechanism import Field, direction, register, stages
from ..movement import step
from .base import Mounted


@register
class Pusher(Mounted):
    """Two pushers that would push into one square: neither pushes. A pushed robot shoves a robot in its
    way on if that one can move, else neither moves; into a fence it stays and takes the fence's HP."""

    type = "pusher"
    fields = {"wall": Field(direction), "stages": Field(stages)}
    phases = ("pushers",)

    def act(self, ctx, phase, elements) -> None:
        pushes = []
        for element in elements:
            if ctx.stage not in element.get("stages"):
                continue
            way = element.get("wall").opposite
            for robot in ctx.robots_at(element.at):
                if not ctx.locked(robot):
                    pushes.append((element, robot, way, element.at.step(way)))
        pushers_into: dict = {}
        for element, _, _, target in pushes:
            pushers_into.setdefault(target, set()).add(element.key)
        for element, robot, way, target in pushes:
            if len(pushers_into[target]) > 1 or robot.at != element.at or not robot.on_board:
                continue

            def report(frm, to, element=element, robot=robot, way=way):
                return PushedByPusher(ctx.stage, robot.name, frm, to, way, element.key)

            step(ctx, robot, way, "pusher", report)
