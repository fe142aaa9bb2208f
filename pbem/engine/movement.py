"""Moving one square at a time (RULES B3.2, B6): obstacles, push chains and entering squares.

Every move — by card, push, belt or pusher — goes through `step`, which
follows B6.11: edge obstacles first (the step does not happen), then robots in
the way (a push chain, B6.3), then the entered squares' own effects.
"""
from __future__ import annotations

from typing import Callable

from .cards import MOVES, SIDESTEPS, TURNS, Card
from .context import TurnContext
from .events import CardPlayed, Event, Moved, Obstacle, Pushed, Turned
from .geometry import Dir, Square
from .mechanism import Block
from .state import Robot

MOVED, BLOCKED, STOPPED = "moved", "blocked", "stopped"  # STOPPED: moved, but its movement ends there

Report = Callable[[Square, Square], Event]


def blocked(ctx: TurnContext, robot: Robot, frm: Square, direction: Dir) -> Block | None:
    """Why a step from `frm` cannot happen (perimeter fence first), or None."""
    to = frm.step(direction)
    if not ctx.index.inside(to):
        return Block("fence", "perimeter", ctx.ruleset.fence_damage)
    index = ctx.index
    for mech, element in index.edge_block.get((frm, direction), ()):
        block = mech.blocks_step(ctx, element, robot, frm, to, direction)
        if block:
            return block
    for mech, element in index.square_block.get(to, ()):
        block = mech.blocks_step(ctx, element, robot, frm, to, direction)
        if block:
            return block
    return None


def obstacle(ctx: TurnContext, robot: Robot, direction: Dir, block: Block) -> None:
    """A step that did not happen: its event, then the HP the block costs (B6.2 fences)."""
    ctx.emit(Obstacle(ctx.stage, robot.name, robot.at, direction, block.cause, block.source))
    if block.damage:
        ctx.damage(robot, block.damage, block.cause, block.source)


def step(ctx: TurnContext, robot: Robot, direction: Dir, how: str, report: Report) -> str:
    """Move `robot` one square (pushing any chain of real robots ahead of it); MOVED, BLOCKED or STOPPED."""
    frm = robot.at
    if ctx.locked(robot):
        ctx.emit(Obstacle(ctx.stage, robot.name, frm, direction, "locked", None))
        return BLOCKED
    block = blocked(ctx, robot, frm, direction)
    if block:
        obstacle(ctx, robot, direction, block)
        return BLOCKED
    to = frm.step(direction)
    chain: list[Robot] = []
    if ctx.solid(robot):
        square = to
        while (other := ctx.solid_at(square)) is not None:
            if ctx.locked(other):
                ctx.emit(Obstacle(ctx.stage, robot.name, frm, direction, "robot", other.name))
                return BLOCKED
            block = blocked(ctx, other, square, direction)
            if block:  # B6.3: nothing in the chain moves; a fence hurts the robot that would cross it
                ctx.emit(Obstacle(ctx.stage, robot.name, frm, direction, "robot", other.name))
                obstacle(ctx, other, direction, block)
                return BLOCKED
            chain.append(other)
            square = square.step(direction)
    for other in reversed(chain):
        start = other.at
        other.at = start.step(direction)
        ctx.emit(Pushed(ctx.stage, other.name, robot.name, start, other.at, direction))
    robot.at = to
    ctx.emit(report(frm, to))
    for other in reversed(chain):
        if other.on_board:
            enter(ctx, other, other.at.step(direction.opposite), direction, "push")
    if not robot.on_board:  # a pushed robot's effect (a switch opening a trap door) took the mover too
        return STOPPED
    return STOPPED if enter(ctx, robot, frm, direction, how) else MOVED


def enter(ctx: TurnContext, robot: Robot, frm: Square, direction: Dir, how: str) -> bool:
    """B6.11: the entered square's own effects, in mechanism order; True ends the robot's movement."""
    square = robot.at
    stop = False
    for mech, element in ctx.index.enter.get(square, ()):
        if robot.at != square or not robot.on_board:
            break
        stop = mech.on_enter(ctx, element, robot, frm, direction, how) or stop
    return stop or not robot.on_board


def play_card(ctx: TurnContext, robot: Robot, card: Card, register: int) -> None:
    """B3: one card; n squares are n single steps, each checked before the next."""
    fused = register in robot.registers
    ctx.emit(CardPlayed(ctx.stage, robot.name, register, card, fused))
    kind = card.kind
    if kind in TURNS:
        before = robot.facing
        robot.facing = before.turned(TURNS[kind])
        ctx.emit(Turned(ctx.stage, robot.name, card, before, robot.facing))
        return
    if kind in MOVES:
        distance = MOVES[kind]
        direction = robot.facing if distance > 0 else robot.facing.opposite
        steps = abs(distance)
    elif kind in SIDESTEPS:
        direction, steps = robot.facing.turned(SIDESTEPS[kind]), 1
    else:  # IDLE
        return

    def report(frm: Square, to: Square) -> Event:
        return Moved(ctx.stage, robot.name, card, frm, to, direction)

    for _ in range(steps):
        if step(ctx, robot, direction, "card", report) != MOVED:
            return
