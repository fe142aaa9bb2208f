"""One stage (RULES B5): the phase table, as one list of named steps run in order.

Mechanisms attach to a phase by naming it in their `phases`; the generic step
`run_mechanisms` lets every mechanism registered for that phase act. Robot
movement (B5.1), the laser volley (B5.7: board lasers, blasers and robot
lasers all at once, then electric eyes) and virtual robots (B9) are the
engine's own steps.
"""
from __future__ import annotations

from dataclasses import dataclass
from typing import Callable

from .context import TurnContext
from .events import BecameReal
from .geometry import Dir, Square
from .movement import play_card
from .options import option_effect
from .state import Robot
from .vocabulary import Mode, PhaseName as P

StepFn = Callable[[TurnContext, str], None]


@dataclass(frozen=True)
class Phase:
    name: str
    rule: str
    run: StepFn


def run_mechanisms(ctx: TurnContext, phase: str) -> None:
    """Every mechanism registered for this phase acts, with all its elements, in registration order."""
    for mech, elements in ctx.index.acting.get(phase, ()):
        mech.act(ctx, phase, elements)


def move_robots(ctx: TurnContext, phase: str) -> None:
    """B5.1: robots play this register's card in descending priority (a destroyed robot plays no more)."""
    playing = []
    for name in ctx.sequences:
        card = ctx.program_card(ctx.board.robots[name], ctx.stage)
        if card is not None:
            playing.append((card.number, name, card))
    playing.sort(key=lambda item: (-item[0], item[1]))
    for _, name, card in playing:
        robot = ctx.board.robots[name]
        if robot.runs_program:
            play_card(ctx, robot, card, ctx.stage)


# --- lasers (B6b.5, B6.8) ------------------------------------------------


def trace(ctx: TurnContext, start: Square, direction: Dir, *, shooter: Robot | None,
          occupancy: dict[Square, list[Robot]]) -> tuple[Robot | None, list]:
    """Follow a beam from `start` (a robot's beam starts past the shooter's own square); return the robot hit,
    if any, and the edge hooks of the wall it stopped at (eyes). `occupancy`: the robots on each square."""
    own_square = shooter is not None  # a robot's beam starts in the square in front of it
    ends: tuple = ()
    for square, square_blockers, edge_blockers, ends in ctx.index.beam_path(start, direction):
        if not own_square:
            for mech, element in square_blockers:
                if mech.blocks_beam(ctx, element, square, direction):
                    return None, []
            for robot in occupancy.get(square, ()):
                if robot is not shooter and (shooter is None or robot.mode != Mode.VIRTUAL):
                    return robot, []  # B9: robot beams pass virtual robots; board beams hit them
        own_square = False
        for mech, element in edge_blockers:
            if mech.blocks_beam(ctx, element, square, direction):
                return None, [(m, e, square) for m, e in ends]
    return None, [(m, e, square) for m, e in ends]  # the board's edge


def robot_beams(ctx: TurnContext, robot: Robot) -> list[tuple[Dir, int, str]]:
    """The beams a robot fires: (direction, damage, option or 'main')."""
    if not ctx.solid(robot) or robot.mode == Mode.REBOOTING:
        return []
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
    hits: list[tuple[Robot, int, str, str]] = []
    eye_hits: dict[tuple[str, Square, Dir], tuple] = {}
    occupancy: dict[Square, list[Robot]] = {}
    for robot in ctx.board.robots.values():
        if robot.on_board:
            occupancy.setdefault(robot.at, []).append(robot)

    def shoot(start: Square, direction: Dir, damage: int, cause: str, source: str, shooter: Robot | None) -> None:
        target, ends = trace(ctx, start, direction, shooter=shooter, occupancy=occupancy)
        if target is not None:
            hits.append((target, damage, cause, source))
        for mech, element, square in ends:  # one call per edge side and direction: an eye flips once
            eye_hits.setdefault((element.key, square, direction), (mech, element, square, direction))

    for mech, element in ctx.index.beam_sources:
        for start, direction, damage in mech.beams(ctx, element):
            shoot(start, direction, damage, "laser", element.key, None)
    for robot in ctx.robots:
        for direction, damage, _ in robot_beams(ctx, robot):
            shoot(robot.at, direction, damage, "robot-laser", robot.name, robot)
    for target, damage, cause, source in hits:
        ctx.damage(target, damage, cause, source)
    for key in sorted(eye_hits, key=lambda k: (k[0], k[1].row, k[1].col, k[2].name)):
        mech, element, square, direction = eye_hits[key]
        mech.on_beam(ctx, element, square, direction)
    run_mechanisms(ctx, phase)


def become_real(ctx: TurnContext, phase: str) -> None:
    """B9: a virtual robot alone in its square turns real, once a complete turn has passed since reinstatement."""
    for robot in ctx.robots:
        if robot.mode != Mode.VIRTUAL or not robot.on_board:
            continue
        since = robot.reinstated_turn if robot.reinstated_turn is not None else 0
        if ctx.turn <= since + ctx.ruleset.virtual_turns:
            continue
        if len(ctx.robots_at(robot.at)) == 1:
            robot.mode = Mode.REAL
            ctx.emit(BecameReal(ctx.stage, robot.name, robot.at))


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
