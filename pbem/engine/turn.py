"""Resolving a turn: the engine's public entry point (RULES B5, B7.3, B12).

    result = resolve_turn(board, programs, ruleset, seed=game_seed, turn=3)
    result.board        # the new Board (the input is never mutated)
    result.events       # every typed event, in order (stage 0 = end of turn)
    result.snapshots    # the board at the start of each stage, then the final one

`record=False` is for callers that read only the new board (a planner's lookahead, the benchmark): no
snapshots, and no events for what changes nothing (a buzzsaw spinning on an empty square draws nothing).

A turn is a pure function of its arguments: same inputs, same events and
board, on any machine (RULES B13).
"""
from __future__ import annotations

from dataclasses import dataclass
from types import MappingProxyType
from typing import Any, Collection, Mapping, Sequence

from . import deal
from .cards import Card
from .context import TurnContext
from .end_of_turn import END_OF_TURN, EndStep
from .events import Event, quick_init
from .geometry import Dir, Square
from .index import RoomIndex, index_for
from .phases import PHASES, Phase
from .ruleset import Ruleset
from .state import Board, Robot
from .vocabulary import Mode


@dataclass(frozen=True)
class RobotView:
    """What a picture of the board needs of a robot."""

    name: str
    owner: str
    at: Square | None
    facing: Dir
    hp: int
    mode: Mode


quick_init(RobotView)


@dataclass(frozen=True)
class Snapshot:
    """The board at the start of `stage` (1..n), or after the end of the turn (`stage` 0)."""

    stage: int
    robots: tuple[RobotView, ...]
    elements: Mapping[str, str]


@dataclass(frozen=True)
class TurnResult:
    board: Board
    events: list[Event]
    snapshots: list[Snapshot]  # one per stage, then the final one (none if the turn was not recorded)
    stages: int                # how many stages ran (B7.3)


quick_init(TurnResult)


def snapshot(board: Board, stage: int) -> Snapshot:
    robots = tuple(RobotView(r.name, r.owner, r.at if r.on_board else None, r.facing, r.hp, r.mode)
                   for r in board.robots.values())
    return Snapshot(stage, robots, MappingProxyType(dict(board.elements)))


def register_sequence(robot: Robot, program: Sequence[Card], ruleset: Ruleset) -> list[Card | None]:
    """B7.3: the cards a robot runs, register by register: its program, and — if the program reaches the
    first fused register — every fused register after it."""
    if not robot.registers:
        return list(program)
    first_fused = min(robot.registers)
    if len(program) < first_fused - 1:
        return list(program)
    return [robot.registers[k] if k in robot.registers else (program[k - 1] if k <= len(program) else None)
            for k in range(1, max(ruleset.registers, max(robot.registers)) + 1)]


def resolve_turn(board: Board, programs: Mapping[str, Sequence[Card]], ruleset: Ruleset, *,
                 seed: int | str, turn: int, reboots: Collection[str] = (),
                 option_hp: Mapping[str, int] | None = None,
                 phases: Sequence[Phase] = PHASES,
                 end_of_turn: Sequence[EndStep] = END_OF_TURN, record: bool = True) -> TurnResult:
    """Resolve one turn on `board` and return the new board, the events and the per-stage snapshots.

    - `programs`: robot name -> its program, register 1 first (already validated; RULES B4.4–B4.5).
      Robots that are rebooting, in transit, destroyed or gone through a gate run nothing.
    - `seed`, `turn`: feed `derive_rng` (B13) for buzzsaws and random register fills.
    - `reboots`: robots whose submission declares a reboot for the next turn (B10).
    - `option_hp`: botwars, robot name -> the HP at which it gives up an option (B11).
    - `phases`: the stage's phase table (B5); `end_of_turn`: the B12 steps — the campaign layer passes
      its own list (see `pbem.engine.end_of_turn`).
    - `record`: False leaves out the snapshots and the events of what changes nothing (see above).
    The turn runs as many stages as the longest register sequence executed (B7.3), then the end-of-turn steps.
    Where every player plays alone (G2, `own_boards`), the board holds one player's robots: see `resolve_apart`.
    """
    if ruleset.own_boards and len({robot.owner for robot in board.robots.values()}) > 1:
        raise ValueError("G2: the robots of several players never share a board in this ruleset; "
                         "resolve each player's copy (resolve_apart)")
    work, index = playing_copy(board)
    sequences = register_sequences(work, programs, ruleset)
    ctx = TurnContext(work, ruleset, index, seed=seed, turn=turn, sequences=sequences,
                      option_hp=dict(option_hp or {}), declared_reboots=frozenset(reboots), record=record)
    stages = last_stage(sequences)
    snapshots = []
    for stage in range(1, stages + 1):
        ctx.stage = stage
        if record:
            snapshots.append(snapshot(work, stage))
        for phase in phases:
            phase.run(ctx, phase.name)
    ctx.stage = 0
    for step in end_of_turn:
        step.run(ctx, step.name)
    if record:
        snapshots.append(snapshot(work, 0))
    return TurnResult(work, ctx.events, snapshots, stages)


def copies_by_owner(board: Board) -> dict[str, Board]:
    """G2: each player's own copy of the board: their robots, the elements in the states the board gives
    (owners in the order of their first robot)."""
    owners = dict.fromkeys(robot.owner for robot in board.robots.values())
    return {owner: Board(board.room, {name: robot for name, robot in board.robots.items() if robot.owner == owner},
                         dict(board.elements))
            for owner in owners}


def resolve_apart(board: Board, programs: Mapping[str, Sequence[Card]], ruleset: Ruleset, **options: Any
                  ) -> dict[str, TurnResult]:
    """G2: every player's robots resolved in their own copy of the board (`resolve_turn`'s keyword arguments
    apply to each), owner -> result. Where players share the board (`own_boards` false) there is one copy."""
    if not ruleset.own_boards:
        return {"": resolve_turn(board, programs, ruleset, **options)}
    return {owner: resolve_turn(copy, {name: programs[name] for name in copy.robots if name in programs}, ruleset,
                                **options)
            for owner, copy in copies_by_owner(board).items()}


def playing_copy(board: Board) -> tuple[Board, RoomIndex]:
    """A copy of `board` to play on (the input is never mutated), every element in the state the room starts it
    in unless the board says otherwise (a board built without `new_board`), and the room's index."""
    work = board.copy()
    index = index_for(work.room)
    if not index.initial_states.keys() <= work.elements.keys():
        for key, word in index.initial_states.items():
            work.elements.setdefault(key, word)
    return work, index


def register_sequences(board: Board, programs: Mapping[str, Sequence[Card]], ruleset: Ruleset
                       ) -> dict[str, list[Card | None]]:
    """What each robot runs, register by register, fixed at the start of the turn."""
    return {name: register_sequence(robot, programs.get(name, ()), ruleset)
            for name, robot in board.robots.items() if robot.runs_program}


def last_stage(sequences: Mapping[str, Sequence[Card | None]]) -> int:
    """How many stages the turn has (B7.3): the longest register sequence."""
    return max(map(len, sequences.values()), default=0)


def receives_cards(board: Board, name: str, ruleset: Ruleset) -> bool:
    """B4.1: destroyed, in-transit, rebooting and departed robots receive no cards, nor one locked in a gate
    (G3: a waiting robot)."""
    robot = board.robots[name]
    if not robot.runs_program:
        return False
    ctx = TurnContext(board, ruleset, index_for(board.room), seed=0, turn=0)
    return not ctx.locked(robot)


def hand_size(board: Board, name: str, ruleset: Ruleset) -> int:
    """B4.1: registers_max − damage for a robot that receives cards, else 0."""
    return deal.hand_size(board.robots[name], ruleset) if receives_cards(board, name, ruleset) else 0
