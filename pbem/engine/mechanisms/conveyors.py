"""Conveyor belts (RULES B6b.1): every robot on a moving belt moves at once, without priority."""
from __future__ import annotations

from typing import TYPE_CHECKING

from ..events import Conveyed, Obstacle, Rotated
from ..mechanism import Field, Mechanism, choice, direction, register
from ..movement import Arrival, arrive, blocked, conflicts, obstacle
from ..room import Element
from ..vocabulary import Cause

if TYPE_CHECKING:  # pragma: no cover
    from ..context import TurnContext


@register
class Conveyor(Mechanism):
    """Speed 1 belts move in the "conveyors" phase; express (speed 2) belts in both phases.

    A move is cancelled when two robots would end on one square or swap squares, when the target holds a
    robot that is not moving away (repeated until nothing changes), or at a wall or fence (which costs its
    HP). A robot moved by a belt onto a belt turned 90° from its travel is rotated the same way.
    Virtual robots (B9) take no part in robot conflicts."""

    type = "conveyor"
    fields = {"dir": Field(direction), "speed": Field(lambda v: int(choice("1", "2")(v)), required=False, default=1)}
    phases = ("express conveyors", "conveyors")
    robots_only = True  # nobody on one (most stages): nothing to do

    def act(self, ctx: TurnContext, phase: str, elements: list[Element]) -> None:
        express = phase == "express conveyors"
        belts = ctx.index.placed(self.type)  # `elements`: every belt of the room
        movers = {}  # robot name -> (robot, target, way), in board order
        for robot in ctx.robots_in_order:
            belt = belts.get(robot.square) if robot.on_board else None
            if belt is None or (express and belt.get("speed") != 2) or ctx.locked(robot):
                continue
            way = belt.get("dir")
            block = blocked(ctx, robot, robot.square, way)
            if block:
                obstacle(ctx, robot, way, block)
                continue
            movers[robot.name] = (robot, robot.square.step(way), way)
        if not movers:
            return
        while cancel := conflicts(ctx, {n: [(m[0], m[1])] for n, m in movers.items() if ctx.solid(m[0])}):
            for name in [n for n in movers if n in cancel]:
                robot, _, way = movers.pop(name)
                ctx.emit(Obstacle(ctx.stage, name, robot.square, way, Cause.ROBOT, None))
        for name, (robot, target, way) in movers.items():
            frm = robot.square
            ctx.place(robot, target)
            ctx.emit(Conveyed(ctx.stage, name, frm, target, way, express))
        for name, (robot, target, way) in movers.items():
            landing = belts.get(target)
            if landing is not None and landing.get("dir") in (way.turned(1), way.turned(-1)):
                before = robot.facing
                robot.facing = before.turned(1 if landing.get("dir") == way.turned(1) else -1)
                ctx.emit(Rotated(ctx.stage, name, before, robot.facing, Cause.CONVEYOR, landing.key))
        arrive(ctx, [Arrival(robot, way, Cause.CONVEYOR) for robot, _, way in movers.values()])
