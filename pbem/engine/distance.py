"""Card-count distances over a room: the planner's heuristic (issue #16).

The flood fill never re-implements a rule: each square's four single steps are
probed with the real engine (`stage.run_stage` with only the robots-move phase),
so walls, fences, closed gates, raised bridges, pits, trap doors and
teleporters all count exactly as the engine has them. A node is a square and a
facing; an edge is one basic card (FWD1-3, RVS1, LF90, RT90, UTRN). The
distance from a node is the fewest cards to reach a goal square. Results are
cached per room and element states, since a turn explores many positions of
the same room.
"""
from __future__ import annotations

from collections import OrderedDict
from typing import Iterable, Mapping

from .cards import Card
from .context import TurnContext
from .geometry import Dir, Square
from .index import index_for
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
    result: dict[Node, Square | None] = {}
    for square in squares(room):
        for facing in Dir:
            probe = Robot("probe", "probe", square, facing, ruleset.max_hp)
            run_stage(TurnContext(Board(room, {"probe": probe}, dict(states)), ruleset, index, seed=0, turn=1,
                                  sequences={"probe": (_PROBE_CARD,)}), 1, _MOVE_ONLY)
            result[(square, facing)] = probe.at if probe.mode != Mode.DESTROYED else None
    return _remember(_steps_cache, key, room, result)


_TURNS = {facing: tuple(facing.turned(t) for t in (-1, 1, 2)) for facing in Dir}


def _moves(node: Node, step: Mapping[Node, Square | None], stops: frozenset[Square]) -> Iterable[Node]:
    """The nodes one basic card reaches from `node` (a card ends in a `stops` square: an open gate)."""
    square, facing = node
    turns = _TURNS[facing]
    for other in turns:
        yield square, other
    here = square
    for _ in range(3):
        there = step[(here, facing)]
        if there is None or there == here:
            break
        yield there, facing
        if there in stops:
            break
        here = there
    back = step[(square, turns[2])]
    if back is not None and back != square:
        yield back, facing


def _predecessors(room: Room, elements: Mapping[str, str], ruleset: Ruleset,
                  stops: frozenset[Square]) -> dict[Node, list[Node]]:
    """node -> the nodes one basic card takes to it: the flood's graph, shared by every goal in the room."""
    key = (id(room), tuple(sorted(elements.items())), ruleset.name, stops)
    found = _recall(_graph_cache, key)
    if found is not None:
        return found
    step = steps(room, elements, ruleset)
    back: dict[Node, list[Node]] = {}
    for node in step:
        for nxt in _moves(node, step, stops):
            if nxt in back:
                back[nxt].append(node)
            else:
                back[nxt] = [node]
    return _remember(_graph_cache, key, room, back)


def distances(room: Room, elements: Mapping[str, str], ruleset: Ruleset, goals: Iterable[Node],
              stops: Iterable[Square] = ()) -> dict[Node, int]:
    """Fewest basic cards from each node to any goal node (a goal node counts 0); absent nodes cannot
    reach one. A card's movement ends on entering a `stops` square."""
    goal_nodes, stop_squares = frozenset(goals), frozenset(stops)
    key = (id(room), tuple(sorted(elements.items())), ruleset.name, goal_nodes, stop_squares)
    found = _recall(_field_cache, key)
    if found is not None:
        return found
    back = _predecessors(room, elements, ruleset, stop_squares)
    dist = {node: 0 for node in sorted(goal_nodes)}
    frontier, cards = sorted(goal_nodes), 0
    while frontier:
        cards += 1
        reached = []
        for node in frontier:
            for prev in back.get(node, ()):
                if prev not in dist:
                    dist[prev] = cards
                    reached.append(prev)
        frontier = reached
    return _remember(_field_cache, key, room, dist)


def square_goals(targets: Iterable[Square]) -> frozenset[Node]:
    """Goal nodes for reaching a square whatever the facing."""
    return frozenset((square, facing) for square in targets for facing in Dir)
