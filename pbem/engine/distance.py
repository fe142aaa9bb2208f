"""Card-count distances over a room: the planner's heuristic (issue #16).

The flood fill never re-implements a rule: each square's four single steps are
probed with the real engine (`stage.run_stage` with only the robots-move phase),
so walls, fences, closed gates, raised bridges, pits, trap doors and
teleporters all count exactly as the engine has them. Only a step on open
floor, where the room index lists no element that could act on it, is taken to
reach the next square without a probe (most steps: a probe costs ~50 us). A node is a square and a
facing; an edge is one basic card (FWD1-3, RVS1, LF90, RT90, UTRN). The
distance from a node is the fewest cards to reach a goal square. Results are
cached per room and element states, since a turn explores many positions of
the same room.
"""
from __future__ import annotations

from collections import OrderedDict
from typing import Iterable, Mapping, NamedTuple

from .cards import Card
from .context import TurnContext
from .geometry import Dir, Square
from .index import RoomIndex, index_for
from .phases import PHASES
from .room import Room
from .ruleset import Ruleset
from .stage import run_stage
from .state import Board, Robot
from .vocabulary import Mode, PhaseName

Node = tuple[Square, Dir]
UNREACHABLE = 99  # a finite stand-in so that positions without a path still compare
_MOVE_ONLY = [p for p in PHASES if p.name == PhaseName.ROBOTS_MOVE]
_PROBE_CARD = Card(490, "FWD1")
_CACHE_SIZE = 256
_steps_cache: "OrderedDict[tuple, tuple[Room, dict]]" = OrderedDict()
_field_cache: "OrderedDict[tuple, tuple[Room, dict]]" = OrderedDict()
_graph_cache: "OrderedDict[tuple, tuple[Room, dict]]" = OrderedDict()


def _remember(cache: OrderedDict, key: tuple, room: Room, value):
    cache[key] = (room, value)  # the room is kept so that its id is not reused while the entry lives
    if len(cache) > _CACHE_SIZE:
        cache.popitem(last=False)
    return value


def _recall(cache: OrderedDict, key: tuple):
    hit = cache.get(key)
    if hit is None:
        return None
    cache.move_to_end(key)
    return hit[1]


def forget() -> None:
    """Empty every cache (a benchmark's cold start: rooms never seen)."""
    for cache in (_steps_cache, _graph_cache, _field_cache):
        cache.clear()


def squares(room: Room) -> Iterable[Square]:
    return (Square(r, c) for r in range(1, room.size.rows + 1) for c in range(1, room.size.cols + 1))


def steps(room: Room, elements: Mapping[str, str], ruleset: Ruleset) -> dict[Node, Square | None]:
    """(square, direction) -> where one step in that direction ends: the next square, a teleporter's far
    end, the same square (blocked) or None (the robot is destroyed)."""
    key = (id(room), tuple(sorted(elements.items())), ruleset.name)
    found = _recall(_steps_cache, key)
    if found is not None:
        return found
    index = index_for(room)
    states = {**index.initial_states, **elements}
    grid = {(square.row, square.col): square for square in squares(room)}
    acted_on = _acted_on(index)
    result: dict[Node, Square | None] = {}
    for (row, col), square in grid.items():
        for facing, (d_row, d_col) in _DELTAS:
            if (row, col, facing) in acted_on:
                result[(square, facing)] = probe(room, states, ruleset, square, facing)
            else:
                result[(square, facing)] = grid[(row + d_row, col + d_col)]
    return _remember(_steps_cache, key, room, result)


_DELTAS = [(facing, facing.delta) for facing in Dir]


def _acted_on(index: RoomIndex) -> set[tuple[int, int, int]]:
    """The steps (row, col, facing) some element may act on: the robot is held, the edge or the square
    entered has a blocker, entering has an effect, or the step leaves the board. Any other step is the
    open-floor path of `movement.step`, which moves the robot to the next square."""
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


def probe(room: Room, states: Mapping[str, str], ruleset: Ruleset, square: Square, facing: Dir) -> Square | None:
    """Where a FWD1 from (square, facing) ends, played by the engine: the robots-move phase of stage 1 with
    this robot alone on the board; `states` gives every stateful element's word."""
    robot = Robot("probe", "probe", square, facing, ruleset.max_hp)
    run_stage(TurnContext(Board(room, {"probe": robot}, dict(states)), ruleset, index_for(room), seed=0, turn=1,
                          sequences={"probe": (_PROBE_CARD,)}), 1, _MOVE_ONLY)
    return robot.at if robot.mode != Mode.DESTROYED else None


class _Graph(NamedTuple):
    """The flood's graph over node ids (4 x the square's reading-order index + the facing), shared by every
    goal in one room state: plain integers keep the flood cheap (squares hash in Python)."""
    nodes: list[Node]       # id -> node
    back: list[list[int]]   # id -> the ids of the nodes one move card (FWD1-3, RVS1) takes to it
    cols: int


def _graph(room: Room, elements: Mapping[str, str], ruleset: Ruleset, stops: frozenset[Square]) -> _Graph:
    key = (id(room), tuple(sorted(elements.items())), ruleset.name, stops)
    found = _recall(_graph_cache, key)
    if found is not None:
        return found
    step, cols = steps(room, elements, ruleset), room.size.cols
    nodes = list(step)  # reading order, then facing: the ids' order
    ahead = [-1 if there is None else _id(there, facing, cols) for (_, facing), there in step.items()]
    stop_ids = {_id(square, Dir.N, cols) >> 2 for square in stops}
    back: list[list[int]] = [[] for _ in nodes]
    for node in range(len(nodes)):
        here = node
        for _ in range(3):  # FWD1-3: a card ends when a step fails or enters a stop
            there = ahead[here]
            if there < 0 or there == here:
                break
            back[there].append(node)
            if there >> 2 in stop_ids:
                break
            here = there
        behind = ahead[node ^ 2]  # RVS1: the step of the opposite facing (N<->S, E<->W), facing kept
        if behind >= 0 and behind != node ^ 2:
            back[behind ^ 2].append(node)
    return _remember(_graph_cache, key, room, _Graph(nodes, back, cols))


def _id(square: Square, facing: Dir, cols: int) -> int:
    return ((square.row - 1) * cols + square.col - 1) * 4 + facing


def distances(room: Room, elements: Mapping[str, str], ruleset: Ruleset, goals: Iterable[Node],
              stops: Iterable[Square] = ()) -> dict[Node, int]:
    """Fewest basic cards from each node to any goal node (a goal node counts 0); absent nodes cannot
    reach one. A card's movement ends on entering a `stops` square."""
    goal_nodes, stop_squares = frozenset(goals), frozenset(stops)
    key = (id(room), tuple(sorted(elements.items())), ruleset.name, goal_nodes, stop_squares)
    found = _recall(_field_cache, key)
    if found is not None:
        return found
    graph = _graph(room, elements, ruleset, stop_squares)
    dist = [-1] * len(graph.nodes)
    frontier = sorted(_id(square, facing, graph.cols) for square, facing in goal_nodes)
    for node in frontier:
        dist[node] = 0
    cards = 0
    while frontier:
        cards += 1
        reached = []
        for node in frontier:
            square = node & ~3
            for prev in [square, square | 1, square | 2, square | 3] + graph.back[node]:  # a turn, or a move
                if dist[prev] < 0:
                    dist[prev] = cards
                    reached.append(prev)
        frontier = reached
    return _remember(_field_cache, key, room, {graph.nodes[n]: d for n, d in enumerate(dist) if d >= 0})


def square_goals(targets: Iterable[Square]) -> frozenset[Node]:
    """Goal nodes for reaching a square whatever the facing."""
    return frozenset((square, facing) for square in targets for facing in Dir)
