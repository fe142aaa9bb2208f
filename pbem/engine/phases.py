"""One stage (RULES B5): the phase table, as one list of named steps run in order.

Mechanisms attach to a phase by naming it in their `phases`; the generic step
`run_mechanisms` lets every mechanism registered for that phase act. Robot
movement (B5.1), the laser volley (B5.7: board lasers, blasers and robot
lasers all at once, then electric eyes) and virtual robots (B9) are the
engine's own steps.
"""
from __future__ import annotations

from dataclasses import dataclass
from typing import Any, Callable, Sequence

from .context import TurnContext
from .events import BecameReal
from .geometry import Dir, Square
from .index import Occupancy
from .mechanism import Mechanism
from .movement import play_card
from .options import option_effect
from .room import Element
from .state import Robot
from .vocabulary import Cause, Mode
from .vocabulary import PhaseName as P

StepFn = Callable[[TurnContext, str], None]


@dataclass(frozen=True)
class Phase:
    name: str
    rule: str
    run: StepFn


def run_mechanisms(ctx: TurnContext, phase: str) -> None:
    """Every mechanism registered for this phase acts, with all its elements, in registration order (one that
    is `robots_only` if a robot stands on one of its elements; one that acts `each_square` with those only)."""
    for mech, elements, cells in ctx.index.acting.get(phase, ()):
        if cells:  # robots_only
            standing = ctx.occupied_cells() & cells
            if not standing:
                continue
            if mech.each_square:
                elements = ctx.index.elements_on(mech.type, standing)
        mech.act(ctx, phase, elements)


def move_robots(ctx: TurnContext, phase: str) -> None:
    """B5.1: robots play this register's card in descending priority (a destroyed robot plays no more)."""
    playing = []
    stage = ctx.stage
    for name, sequence in ctx.sequences.items():
        card = sequence[stage - 1] if 0 < stage <= len(sequence) else None
        if card is not None:
            playing.append((-card.number, name, card))
    playing.sort()  # highest number first, then by name (names differ: cards are never compared)
    for _, name, card in playing:
        robot = ctx.board.robots[name]
        if robot.runs_program:
            play_card(ctx, robot, card, ctx.stage)


# --- lasers (B6b.5, B6.8) ------------------------------------------------


def trace(ctx: TurnContext, start: Square, direction: Dir, *, shooter: Any,
          occupancy: Occupancy) -> tuple[Any, Sequence[tuple[Any, Element, Square]], Square]:
    """Follow a beam from `start` (a robot's beam starts past the shooter's own square); return the robot hit,
    if any, the edge hooks of the wall it stopped at (eyes), and the last square it reaches. `occupancy`: the
    robots on each square (anything with a `mode`: the pictures ask with a snapshot's robots).

    On each square a beam meets the square's blockers, then its robots, then the edge it leaves by: the
    nearest robot it could hit is found first, then the blockers up to it are asked in order."""
    ray = ctx.index.ray(start, direction)
    squares = ray.squares
    first = 0 if shooter is None else 1  # a robot's beam starts in the square in front of it
    target, reach = None, len(squares)
    on_path = occupancy.mask & (ray.mask if first == 0 else ray.past)
    cells = occupancy.cells
    ascending = direction == Dir.E or direction == Dir.S  # cell numbers grow along the path: the nearest is lowest
    while on_path and target is None:  # the cells on the path where robots stand, nearest first, to the first hit
        if ascending:
            cell = (on_path & -on_path).bit_length() - 1
        else:
            cell = on_path.bit_length() - 1
        on_path ^= 1 << cell
        for robot in cells[cell]:
            if robot is not shooter and (shooter is None or robot.mode != Mode.VIRTUAL):
                target, reach = robot, ray.position[cell] - ray.offset  # B9: robot beams pass virtual robots
                break
    for i, square_blocks, edge_blocks in ray.stops:
        if i > reach:
            break
        if i >= first:
            square = squares[i]
            for mech, element in square_blocks:
                if mech.blocks_beam(ctx, element, square, direction):
                    return None, (), squares[i - 1] if i else start
        if i == reach:
            break
        for mech, element in edge_blocks:
            if mech.blocks_beam(ctx, element, squares[i], direction):
                return None, ray.ends[i], squares[i]
    if target is not None:
        return target, (), squares[reach]
    return None, ray.ends[-1], squares[-1]


def robot_beams(ctx: TurnContext, robot: Robot) -> list[tuple[Dir, int, str]]:
    """The beams a robot fires: (direction, damage, option or 'main')."""
    if robot.mode != Mode.REAL or not robot.on_board:  # virtual, rebooting or off the board: it does not fire
        return []
    if not robot.options:  # most robots: the main laser alone
        return [(robot.facing, ctx.ruleset.laser_damage, "main")] if ctx.ruleset.robot_lasers else []
    beams: dict[Dir, tuple[Dir, int, str]] = {}
    if ctx.ruleset.robot_lasers:
        beams[robot.facing] = (robot.facing, ctx.ruleset.laser_damage, "main")
    for option in robot.options:
        effect = option_effect(option)
        if effect.get("effect") == "laser":
            direction = robot.facing if effect.get("direction", "forward") == "forward" else robot.facing.opposite
            beams.setdefault(direction, (direction, int(effect.get("damage", ctx.ruleset.laser_damage)), option))
    return [beams[d] for d in sorted(beams)]


def fire_lasers(ctx: TurnContext, phase: str) -> None:
    """B5.7: every beam is traced on the same board, then damage is dealt, then eyes hit head-on toggle once."""
    standing = [robot for robot in ctx.robots_in_order if robot.on_board]
    occupied = ctx.occupied_cells()  # the cells of `standing`, as bits
    occupancy: Occupancy | None = None  # made for the first beam with a robot on its path
    beams: list[tuple[Square, Dir, int, str, str, Robot | None]] = [
        (start, direction, damage, Cause.LASER, element.key, None)
        for mech, element in ctx.index.beam_sources for start, direction, damage in mech.beams(ctx, element)]
    beams += [(robot.square, direction, damage, Cause.ROBOT_LASER, robot.name, robot)
              for robot in standing for direction, damage, _ in robot_beams(ctx, robot)]
    hits: list[tuple[Robot, int, str, str]] = []
    eye_hits: dict[tuple[str, Square, Dir], tuple[Mechanism, Element, Square, Dir]] = {}
    for start, direction, damage, cause, source, shooter in beams:
        ray = ctx.index.ray(start, direction)
        if not ray.hooked and not occupied & (ray.mask if shooter is None else ray.past):
            continue  # nobody on its path and no eye on it: whatever stops it, the beam does nothing
        if occupancy is None:
            occupancy = Occupancy(ctx.index, standing)
        target, ends, _ = trace(ctx, start, direction, shooter=shooter, occupancy=occupancy)
        if target is not None:
            hits.append((target, damage, cause, source))
        for mech, element, square in ends:  # one call per edge side and direction: an eye flips once
            eye_hits.setdefault((element.key, square, direction), (mech, element, square, direction))
    for target, damage, cause, source in hits:
        ctx.damage(target, damage, cause, source)
    for key in sorted(eye_hits, key=lambda k: (k[0], k[1].row, k[1].col, k[2].name)) if len(eye_hits) > 1 else eye_hits:
        mech, element, square, direction = eye_hits[key]
        mech.on_beam(ctx, element, square, direction)
    run_mechanisms(ctx, phase)


def become_real(ctx: TurnContext, phase: str) -> None:
    """B9: a virtual robot alone in its square turns real, once a complete turn has passed since reinstatement."""
    for robot in ctx.robots_in_order:
        if robot.mode != Mode.VIRTUAL or not robot.on_board:
            continue
        since = robot.reinstated_turn if robot.reinstated_turn is not None else 0
        if ctx.turn <= since + ctx.ruleset.virtual_turns:
            continue
        if len(ctx.robots_at(robot.square)) == 1:
            robot.mode = Mode.REAL
            ctx.emit(BecameReal(ctx.stage, robot.name, robot.square))


PHASES: list[Phase] = [
    Phase(P.ROBOTS_MOVE, "B5.1", move_robots),
    Phase(P.EXPRESS_CONVEYORS, "B5.2", run_mechanisms),
    Phase(P.CONVEYORS, "B5.3", run_mechanisms),
    Phase(P.PUSHERS, "B5.4", run_mechanisms),
    Phase(P.GEARS, "B5.5", run_mechanisms),
    Phase(P.CRUSHERS, "B5.6", run_mechanisms),
    Phase(P.LASERS, "B5.7", fire_lasers),
    Phase(P.BUZZSAWS, "B5.8", run_mechanisms),
    Phase(P.END_OF_STAGE, "B5.9", run_mechanisms),       # flags, armouries, computers (G7)
    Phase(P.VIRTUAL_ROBOTS, "B5.9", become_real),         # B9
    Phase(P.GATES, "B5.9", run_mechanisms),               # G3
]
