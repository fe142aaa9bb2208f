"""Where one step from each square and facing ends, as the engine has it: the pilot's map (issue #16).

A step that some element may act on is probed: the robots-move phase of one
stage (`stage.run_stage`) moves a lone robot with a FWD1. Any other step (open
floor, as the room index shows: nothing holds the robot, blocks the edge or the
square, or acts on entering it) reaches the next square, as `movement.step`
has it, without a probe. A probe notes the element states it read, so a room
whose switches or gates changed re-probes only the steps those states touch.
"""
from __future__ import annotations

from collections.abc import MutableMapping
from typing import Iterable, Iterator, Mapping

from .cards import Card
from .context import TurnContext
from .geometry import Dir, Square
from .index import RoomIndex, index_for
from .phases import PHASES
from .room import Room
from .roomcache import RoomCache
from .ruleset import Ruleset
from .stage import run_stage
from .state import Board, Robot
from .vocabulary import Mode, PhaseName

Node = tuple[Square, Dir]
Outcome = tuple[tuple[tuple[str, str | None], ...], Square | None]  # the states read, and where the step ended
_MOVE_ONLY = [p for p in PHASES if p.name == PhaseName.ROBOTS_MOVE]
_PROBE_CARD = Card(490, "FWD1")
_DELTAS = [(facing, facing.delta) for facing in Dir]
_tables: RoomCache[dict[Node, Square | None]] = RoomCache()  # (room, states, ruleset) -> the step table
# (room, ruleset) -> (row, col, facing) -> the outcomes probed so far
_outcomes: RoomCache[dict[tuple[int, int, Dir], list[Outcome]]] = RoomCache()


def squares(room: Room) -> Iterable[Square]:
    return (Square(r, c) for r in range(1, room.size.rows + 1) for c in range(1, room.size.cols + 1))


def steps(room: Room, elements: Mapping[str, str], ruleset: Ruleset) -> dict[Node, Square | None]:
    """(square, direction) -> where one step in that direction ends: the next square, a teleporter's far
    end, the same square (blocked) or None (the robot is destroyed)."""
    key = (id(room), tuple(sorted(elements.items())), ruleset.name)
    found = _tables.recall(key)
    if found is not None:
        return found
    index = index_for(room)
    states = {**index.initial_states, **elements}
    known = _outcomes.recall((id(room), ruleset.name))
    if known is None:
        known = _outcomes.remember((id(room), ruleset.name), room, {})
    grid = {(square.row, square.col): square for square in squares(room)}
    acted_on = _acted_on(index)
    result: dict[Node, Square | None] = {}
    for (row, col), square in grid.items():
        for facing, (d_row, d_col) in _DELTAS:
            where = (row, col, facing)
            if where in acted_on:
                result[(square, facing)] = _outcome(known.setdefault(where, []), room, states, ruleset, square, facing)
            else:
                result[(square, facing)] = grid[(row + d_row, col + d_col)]
    return _tables.remember(key, room, result)


def _acted_on(index: RoomIndex) -> set[tuple[int, int, Dir]]:
    """The steps (row, col, facing) some element may act on: the robot is held, the edge or the square
    entered has a blocker, entering has an effect, or the step leaves the board."""
    found = {(square.row, square.col, facing) for square, entries in index.holds.items() if entries
             for facing in Dir}
    found |= {(square.row, square.col, facing) for (square, facing), entries in index.edge_block.items() if entries}
    for table in (index.square_block, index.enter):
        found |= {(square.row - d_row, square.col - d_col, facing) for square, entries in table.items() if entries
                  for facing, (d_row, d_col) in _DELTAS}
    for row in range(1, index.rows + 1):
        found |= {(row, 1, Dir.W), (row, index.cols, Dir.E)}
    for col in range(1, index.cols + 1):
        found |= {(1, col, Dir.N), (index.rows, col, Dir.S)}
    return found


def _outcome(known: list[Outcome], room: Room, states: Mapping[str, str], ruleset: Ruleset, square: Square,
             facing: Dir) -> Square | None:
    """A probe's outcome, reused from an earlier probe that read the same values of the states it read."""
    for read, where in known:
        if all(states.get(name) == word for name, word in read):
            return where
    watched = _Watched(states)
    where = _probe(room, watched, ruleset, square, facing)
    known.append((tuple((name, states.get(name)) for name in sorted(watched.read)), where))
    return where


def _probe(room: Room, elements: "_Watched", ruleset: Ruleset, square: Square, facing: Dir) -> Square | None:
    """Where a FWD1 from (square, facing) ends, played by the engine: the robots-move phase of stage 1 with
    this robot alone on the board, whose element states are `elements` (the probe's own copy)."""
    robot = Robot("probe", "probe", square, facing, ruleset.max_hp)
    board = Board(room, {"probe": robot}, elements)  # type: ignore[arg-type]  # a dict that notes what is read
    run_stage(TurnContext(board, ruleset, index_for(room), seed=0, turn=1,
                          sequences={"probe": (_PROBE_CARD,)}), 1, _MOVE_ONLY)
    return robot.at if robot.mode != Mode.DESTROYED else None


class _Watched(MutableMapping[str, str]):
    """A probe's copy of the element states that notes every name looked up (a lookup, `get` or `in`);
    going through them all (iteration, copies, comparison) counts as reading them all."""

    def __init__(self, states: Mapping[str, str]):
        self.words = dict(states)
        self.read: set[str] = set()

    def __getitem__(self, name: str) -> str:
        self.read.add(name)
        return self.words[name]

    def __setitem__(self, name: str, word: str) -> None:
        self.words[name] = word

    def __delitem__(self, name: str) -> None:
        del self.words[name]

    def __iter__(self) -> Iterator[str]:
        self.read.update(self.words)
        return iter(self.words)

    def __len__(self) -> int:
        return len(self.words)
