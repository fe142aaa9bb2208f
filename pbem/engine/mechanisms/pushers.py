"""Pushers (RULES B6b.2): wall-mounted, active in their printed stages, each pushes one square away."""
from __future__ import annotations

from typing import TYPE_CHECKING

from ..events import Obstacle, Pushed, PushedByPusher
from ..geometry import Square
from ..mechanism import Field, direction, register, stages
from ..movement import Arrival, arrive, blocked, chain_ahead, chain_blocked, conflicts, obstacle
from ..room import Element
from ..vocabulary import Cause
from .base import Mounted

if TYPE_CHECKING:  # pragma: no cover
    from ..context import TurnContext
    from ..state import Robot


@register
class Pusher(Mounted):
    """All pushers active in a stage push at once, as belts move (ruling B6b.2). Two pushers that would push
    into one square: neither pushes. A pushed robot shoves a stationary robot in its way on if that one can
    move (a chain, B6.3), else neither moves; into a fence it stays and takes the fence's HP. A robot its own
    pusher moves is not stationary: another pushed robot does not shove it but follows it if it leaves, and
    two pushed robots that would swap squares, or land on one square, both stay. A push that cannot happen
    makes its robot stationary, and the pushes are worked out again until nothing changes."""

    type = "pusher"
    fields = {"wall": Field(direction), "stages": Field(stages)}
    phases = ("pushers",)
    robots_only = True  # nobody on one (most stages): nothing to do

    def act(self, ctx: TurnContext, phase: str, elements: list[Element]) -> None:
        pushes = []
        for element in elements:
            if ctx.stage in element.get("stages"):
                way = element.get("wall").opposite
                pushes += [(robot, way, element) for robot in ctx.robots_at(element.at) if not ctx.locked(robot)]
        if not pushes:
            return
        aimed: dict[Square, set[str]] = {}
        for _, way, element in pushes:
            aimed.setdefault(element.at.step(way), set()).add(element.key)
        movers = {robot.name: (robot, way, element) for robot, way, element in pushes
                  if len(aimed[element.at.step(way)]) == 1}
        chains: dict[str, list[tuple[Robot, Square]]] = {}
        while movers:
            chains, stuck = {}, []
            for name, (robot, way, _) in movers.items():
                block = blocked(ctx, robot, robot.square, way)
                chain, culprit, chain_block = chain_ahead(ctx, robot, way, movers)
                if block or culprit is not None:
                    stuck.append((name, block, culprit, chain_block))
                elif ctx.solid(robot):
                    chains[name] = [(r, r.square.step(way)) for r in (robot, *chain)]
            if not stuck:  # a push stopped by an obstacle first: its robot is stationary for the others
                stuck = [(name, None, None, None) for name in conflicts(ctx, chains)]
            if not stuck:
                break
            for name, block, culprit, chain_block in sorted(stuck, key=lambda s: list(movers).index(s[0])):
                robot, way, _ = movers.pop(name)
                if block:
                    obstacle(ctx, robot, way, block)
                elif culprit is not None:
                    chain_blocked(ctx, robot, way, culprit, chain_block)
                else:
                    ctx.emit(Obstacle(ctx.stage, name, robot.square, way, Cause.ROBOT, None))
        arrivals = []
        for name, (robot, way, element) in movers.items():  # all at once: the chains are disjoint
            for other, to in reversed(chains.get(name, [(robot, robot.square.step(way))])):
                start = other.square
                ctx.place(other, to)
                if other is robot:
                    ctx.emit(PushedByPusher(ctx.stage, name, start, to, way, element.key))
                    arrivals.append(Arrival(robot, way, Cause.PUSHER))
                else:
                    ctx.emit(Pushed(ctx.stage, other.name, name, start, to, way))
                    arrivals.append(Arrival(other, way, Cause.PUSH))
        arrive(ctx, arrivals)
