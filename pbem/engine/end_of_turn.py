"""The end of a turn (RULES B12) as an ordered list of named steps, stage 0.

The board-level steps live here: wrench repairs (mechanisms registered for
the phase "wrench repairs"), reinstating destroyed robots where the board
says (`Robot.reinstate_at`: the start square, the last flag or wrench square),
and reboots (B10). Upgrades and options are recorded as they are gained, at
the end of the stage (G7), so they need no step of their own here.

Composing: `resolve_turn(..., end_of_turn=steps)` takes any list of
`EndStep`s. The campaign layer builds its own with
`end_of_turn_steps(reinstate=its_function)` — replacing where destroyed
robots come back (G5: room 1, in transit) — and appends its steps (room
exits, dealing) to the list; each step gets the `TurnContext` (board, ruleset,
seed, turn, and `declared_reboots`).
"""
from __future__ import annotations

from typing import Callable

from .cards import Card, standard_cards
from .context import TurnContext
from .deal import cards_in_registers
from .events import RebootEnded, RebootStarted, RegisterFilled, Reinstated
from .geometry import Dir, Square
from .phases import Phase, StepFn, run_mechanisms
from .state import Robot
from .vocabulary import Mode, PhaseName

EndStep = Phase  # an end-of-turn step is a named step like a stage's phases, run at stage 0
Reinstate = Callable[[TurnContext, Robot], None]


def reinstate_on_board(ctx: TurnContext, robot: Robot) -> None:
    """B8: a destroyed robot with lives left comes back on its reinstatement square, facing north —
    in `botwars` virtual with `reinstate_damage`, in `geeko` real with full HP."""
    if robot.reinstate_at is None or (ctx.ruleset.lives is not None and robot.lives <= 0):
        return
    put_back(ctx, robot, robot.reinstate_at, Dir.N)


def put_back(ctx: TurnContext, robot: Robot, square: Square, facing: Dir) -> None:
    """Reinstate `robot` on `square` (used by the campaign's own reinstatement too)."""
    rules = ctx.ruleset
    before = robot.hp
    ctx.place(robot, square)
    robot.facing = facing
    robot.hp = rules.max_hp - rules.reinstate_damage
    robot.mode = Mode.VIRTUAL if rules.virtual else Mode.REAL
    robot.reinstated_turn = ctx.turn
    robot.left_room = False
    ctx.refuse(robot, before)
    ctx.emit(Reinstated(ctx.stage, robot.name, square, facing, robot.mode, robot.hp))


def reinstate_step(reinstate: Reinstate) -> StepFn:
    def run(ctx: TurnContext, step: str) -> None:
        for robot in ctx.robots_in_order:
            if robot.mode == Mode.DESTROYED:
                reinstate(ctx, robot)
    return run


def reboots(ctx: TurnContext, step: str) -> None:
    """B10: robots that spent this turn rebooting come back online (empty fused registers get random
    cards); then the reboots declared for next turn begin. The HP comes back "at the start of the
    rebooting turn", i.e. in the state that turn starts from, so it is restored here, and with it every
    register unfuses (ruling B10). A robot destroyed during this turn does not begin its reboot."""
    ending = [r for r in ctx.robots_in_order if r.name in ctx.started_rebooting and r.mode == Mode.REBOOTING]
    held = cards_in_registers(ctx.robots_in_order) if ending else set()  # read once, not once per robot
    for robot in ending:
        robot.mode = Mode.REAL
        fill_at_random(ctx, robot, held)
        ctx.emit(RebootEnded(ctx.stage, robot.name, robot.mode))
    for name in sorted(ctx.declared_reboots - ctx.destroyed):  # ruling: destroyed this turn, the reboot lapses
        rebooting = ctx.board.robots.get(name)
        if rebooting is None or not rebooting.runs_program:
            continue
        rebooting.mode = Mode.REBOOTING
        if ctx.ruleset.reboot_restores_hp:  # ruling: full HP unfuses every register
            rebooting.hp = ctx.ruleset.max_hp
            ctx.unfuse_all(rebooting)
        ctx.emit(RebootStarted(ctx.stage, rebooting.name, rebooting.hp))


def fill_at_random(ctx: TurnContext, robot: Robot, held: set[Card]) -> None:
    """B7.2/B10: each empty fused register gets a seeded random card not held in any fused register (`held`, the
    cards in every robot's fused registers, to which the cards dealt here are added)."""
    empty = sorted(n for n, card in robot.registers.items() if card is None)
    if not empty:
        return
    pool: list[Card] = [card for card in standard_cards() if card not in held]
    rng = ctx.rng("register-fill", robot.name)
    for register in empty:
        card = pool.pop(rng.randrange(len(pool)))
        robot.registers[register] = card
        held.add(card)
        ctx.emit(RegisterFilled(ctx.stage, robot.name, register, card, "random"))


def end_of_turn_steps(reinstate: Reinstate = reinstate_on_board) -> list[EndStep]:
    """The B12 steps, with the given reinstatement."""
    return [
        EndStep(PhaseName.WRENCH_REPAIRS, "B12", run_mechanisms),
        EndStep(PhaseName.REINSTATE, "B8", reinstate_step(reinstate)),
        EndStep(PhaseName.REBOOTS, "B10", reboots),
    ]


END_OF_TURN: list[EndStep] = end_of_turn_steps()
