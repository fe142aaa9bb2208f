"""Moving one square at a time (RULES B3.2, B6): obstacles, push chains and entering squares.

A card's step goes through `step`, which follows B6.11: edge obstacles first
(the step does not happen), then robots in the way (a push chain, B6.3), then
the entered squares' own effects. Simultaneous moves (belts, pushers) use the
same pieces: `blocked`, `chain_ahead`, `conflicts`, and `arrive`, which applies
square effects in the B6.11 order once every robot of the move has arrived.
"""
from __future__ import annotations

from typing import Callable, Collection, Mapping, NamedTuple, Sequence, TypeVar

from .cards import MOVES, SIDESTEPS, TURNS, Card
from .context import TurnContext
from .events import CardPlayed, Event, Moved, Obstacle, Pushed, Turned
from .geometry import Dir, Square
from .mechanism import Block
from .state import Robot
from .vocabulary import Cause

MOVED, BLOCKED, STOPPED = "moved", "blocked", "stopped"  # STOPPED: moved, but its movement ends there

Report = Callable[[Square, Square], Event]
K = TypeVar("K")


def blocked(ctx: TurnContext, robot: Robot, frm: Square, direction: Dir) -> Block | None:
    """Why a step from `frm` cannot happen, or None. The perimeter fence comes first; of several elements on
    the edge or square the costliest block counts (B6.2: a fence sharing an edge with a wall still burns),
    so the order of the room file never matters."""
    to = frm.step(direction)
    index = ctx.index
    if not (0 < to.row <= index.rows and 0 < to.col <= index.cols):  # `index.inside`, without the call
        return Block(Cause.FENCE, "perimeter", ctx.ruleset.fence_damage)
    edge, square = index.edge_block.get((frm, direction)), index.square_block.get(to)
    if not edge and not square:  # the hot path: open floor
        return None
    worst: Block | None = None
    for mech, element in (edge or []) + (square or []):
        block = mech.blocks_step(ctx, element, robot, frm, to, direction)
        if block and (worst is None or block.damage > worst.damage):
            worst = block
    return worst


def obstacle(ctx: TurnContext, robot: Robot, direction: Dir, block: Block) -> None:
    """A step that did not happen: its event, then the HP the block costs (B6.2 fences)."""
    ctx.emit(Obstacle(ctx.stage, robot.name, robot.square, direction, block.cause, block.source))
    if block.damage:
        ctx.damage(robot, block.damage, block.cause, block.source)


def chain_ahead(ctx: TurnContext, robot: Robot, direction: Dir,
                moving: Collection[str] = ()) -> tuple[list[Robot], Robot | None, Block | None]:
    """B6.3: the real robots a step of `robot` would push, nearest first, stopping at an empty square or at a
    robot in `moving` (one moved by its own mechanism this phase, B6b.2). If the chain cannot move, also the
    robot that cannot and why (`Block` None: it is locked)."""
    chain: list[Robot] = []
    if not ctx.solid(robot):
        return chain, None, None
    square = robot.square.step(direction)
    while (other := ctx.solid_at(square)) is not None and other.name not in moving:
        if ctx.locked(other):
            return chain, other, None
        block = blocked(ctx, other, square, direction)
        if block:
            return chain, other, block
        chain.append(other)
        square = square.step(direction)
    return chain, None, None


def chain_blocked(ctx: TurnContext, robot: Robot, direction: Dir, culprit: Robot, block: Block | None) -> None:
    """The events of a push that cannot happen: the mover meets a robot; a fence hurts the one that would cross."""
    ctx.emit(Obstacle(ctx.stage, robot.name, robot.square, direction, Cause.ROBOT, culprit.name))
    if block is not None:
        obstacle(ctx, culprit, direction, block)


def conflicts(ctx: TurnContext, groups: Mapping[K, Sequence[tuple[Robot, Square]]]) -> set[K]:
    """B6b.1, B6b.2: of simultaneous moves (each group moves together or not at all), those that cannot
    happen: two robots onto one square, two robots swapping squares, a robot into a square whose robot is
    not moving away, or one robot in two groups. Only real robots are given (B9)."""
    if not groups:
        return set()
    landing: dict[Square, int] = {}  # counted by hand: a Counter costs more than the few moves of a phase
    movers: dict[str, int] = {}
    leaving: dict[Square | None, Square] = {}
    for moves in groups.values():
        for robot, to in moves:
            landing[to] = landing.get(to, 0) + 1
            movers[robot.name] = movers.get(robot.name, 0) + 1
            leaving[robot.at] = to
    out = set()
    for key, moves in groups.items():
        for robot, to in moves:
            if landing[to] > 1 or movers[robot.name] > 1 or (
                    leaving[to] == robot.at if to in leaving else ctx.solid_at(to) is not None):
                out.add(key)
    return out


def step(ctx: TurnContext, robot: Robot, direction: Dir, how: str, report: Report) -> str:
    """Move `robot` one square (pushing any chain of real robots ahead of it); MOVED, BLOCKED or STOPPED."""
    frm = robot.square
    if ctx.locked(robot):
        ctx.emit(Obstacle(ctx.stage, robot.name, frm, direction, Cause.LOCKED, None))
        return BLOCKED
    block = blocked(ctx, robot, frm, direction)
    if block:
        obstacle(ctx, robot, direction, block)
        return BLOCKED
    chain, culprit, block = chain_ahead(ctx, robot, direction)
    if culprit is not None:  # B6.3: nothing in the chain moves
        chain_blocked(ctx, robot, direction, culprit, block)
        return BLOCKED
    for other in reversed(chain):
        start = other.square
        ctx.place(other, start.step(direction))
        ctx.emit(Pushed(ctx.stage, other.name, robot.name, start, other.square, direction))
    to = frm.step(direction)
    ctx.place(robot, to)
    ctx.emit(report(frm, to))
    arrivals = [Arrival(other, direction, Cause.PUSH) for other in chain]
    arrivals.append(Arrival(robot, direction, how))
    for stopped in arrive(ctx, arrivals):
        if stopped is robot:
            return STOPPED
    return MOVED


class Arrival(NamedTuple):
    """A robot that has just moved one square in `direction`, and how (card, push, conveyor, pusher …)."""

    robot: Robot
    direction: Dir
    how: str


def arrive(ctx: TurnContext, arrivals: Sequence[Arrival]) -> list[Robot]:
    """B6.11: every robot of one move has arrived; now the entered squares' effects, kind by kind in
    `enter_order` (falls, then presses, then teleports …), each kind in reading order of the squares (robots
    on one square in the order given, never by name). Returns the robots whose movement ends (fell, left
    the board, teleported to a stop, entered a gate …)."""
    enter = ctx.index.enter
    if len(arrivals) == 1:  # the hot path: one robot, its square's elements already in enter_order
        robot, direction, how = arrivals[0]
        square = robot.square
        stop = False
        for mech, element in enter.get(square, ()):
            if robot.at != square or not robot.on_board:
                break
            stop = mech.on_enter(ctx, element, robot, square.step(direction.opposite), direction, how) or stop
        return [robot] if stop or not robot.on_board else []
    pending = []
    for rank, arrival in enumerate(arrivals):
        square = arrival.robot.square
        for mech, element in enter.get(square, ()):
            pending.append((mech.enter_order, square.row, square.col, rank, mech, element, arrival, square))
    pending.sort(key=lambda item: item[:4])
    stopped: dict[int, Robot] = {}
    for _, _, _, _, mech, element, arrival, square in pending:
        robot = arrival.robot
        if robot.at != square or not robot.on_board:
            continue
        if mech.on_enter(ctx, element, robot, square.step(arrival.direction.opposite), arrival.direction,
                         arrival.how):
            stopped[id(robot)] = robot
    stopped.update((id(a.robot), a.robot) for a in arrivals if not a.robot.on_board)
    return list(stopped.values())


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
        if step(ctx, robot, direction, Cause.CARD, report) != MOVED:
            return
