"""Conveyor belts (RULES B6b.1): every robot on a moving belt moves at once, without priority."""
from __future__ import annotations

from ..events import Conveyed, Obstacle, Rotated
from ..mechanism import Field, Mechanism, choice, direction, register
from ..movement import blocked, enter, obstacle


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

    def act(self, ctx, phase, elements) -> None:
        express = phase == "express conveyors"
        belts = {e.at: e for e in elements}
        moving = {sq: e for sq, e in belts.items() if not express or e.get("speed") == 2}
        movers = {}
        for robot in ctx.robots:
            belt = moving.get(robot.at) if robot.on_board else None
            if belt is None or ctx.locked(robot):
                continue
            way = belt.get("dir")
            block = blocked(ctx, robot, robot.at, way)
            if block:
                obstacle(ctx, robot, way, block)
                continue
            movers[robot.name] = (robot, robot.at.step(way), way, belt)
        self._cancel_conflicts(ctx, movers)
        for name in sorted(movers):
            robot, target, way, belt = movers[name]
            frm, robot.at = robot.at, target
            ctx.emit(Conveyed(ctx.stage, name, frm, target, way, express))
        for name in sorted(movers):
            robot, target, way, belt = movers[name]
            if robot.at != target or not robot.on_board:
                continue
            landing = belts.get(target)
            if landing is not None and landing.get("dir") in (way.turned(1), way.turned(-1)):
                before = robot.facing
                robot.facing = before.turned(1 if landing.get("dir") == way.turned(1) else -1)
                ctx.emit(Rotated(ctx.stage, name, before, robot.facing, "conveyor", landing.key))
            enter(ctx, robot, target.step(way.opposite), way, "conveyor")

    @staticmethod
    def _cancel_conflicts(ctx, movers) -> None:
        """B6b.1: drop moves into one square, swaps, and moves into robots that stay, until stable."""
        solid = {name: m for name, m in movers.items() if ctx.solid(m[0])}
        while True:
            targets: dict = {}
            for name, (robot, target, _, _) in solid.items():
                targets.setdefault(target, []).append(name)
            cancel = {name for names in targets.values() if len(names) > 1 for name in names}
            by_square = {m[0].at: name for name, m in solid.items()}
            for name, (robot, target, _, _) in solid.items():
                other = by_square.get(target)
                if other is not None and solid[other][1] == robot.at:
                    cancel.add(name)
            for name, (robot, target, way, _) in solid.items():
                stander = ctx.solid_at(target)
                if stander is not None and stander.name not in solid and name not in cancel:
                    cancel.add(name)
            if not cancel:
                return
            for name in sorted(cancel):
                robot, target, way, _ = solid.pop(name)
                movers.pop(name)
                ctx.emit(Obstacle(ctx.stage, name, robot.at, way, "robot", None))
