"""Card-count distances over a room: the planner's heuristic (issue #16).

The flood fill never re-implements a rule: where each square's four single
steps end comes from the real engine (`probes.steps`), so walls, fences, closed
gates, raised bridges, pits, trap doors and teleporters all count exactly as the
engine has them. A node is a square and a facing; an edge is one basic card
(FWD1-3, RVS1, LF90, RT90, UTRN). The distance from a node is the fewest cards
to reach a goal square. Results are cached per room and element states, since
a turn explores many positions of the same room.
"""
from __future__ import annotations

from typing import Iterable, Mapping, NamedTuple

from .geometry import Dir, Square
from .probes import Node, steps
from .room import Room
from .roomcache import RoomCache
from .ruleset import Ruleset

UNREACHABLE = 99  # a finite stand-in so that positions without a path still compare
_fields: RoomCache[dict[Node, int]] = RoomCache()
_graphs: RoomCache[_Graph] = RoomCache()


class _Graph(NamedTuple):
    """The flood's graph over node ids (4 x the square's reading-order index + the facing), shared by every
    goal in one room state: plain integers keep the flood cheap (squares hash in Python)."""
    nodes: list[Node]       # id -> node
    back: list[list[int]]   # id -> the ids of the nodes one move card (FWD1-3, RVS1) takes to it
    cols: int


def _graph(room: Room, elements: Mapping[str, str], ruleset: Ruleset, stops: frozenset[Square]) -> _Graph:
    key = (id(room), tuple(sorted(elements.items())), ruleset.name, stops)
    found = _graphs.recall(key)
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
    return _graphs.remember(key, room, _Graph(nodes, back, cols))


def _id(square: Square, facing: Dir, cols: int) -> int:
    return ((square.row - 1) * cols + square.col - 1) * 4 + facing


def distances(room: Room, elements: Mapping[str, str], ruleset: Ruleset, goals: Iterable[Node],
              stops: Iterable[Square] = ()) -> dict[Node, int]:
    """Fewest basic cards from each node to any goal node (a goal node counts 0); absent nodes cannot
    reach one. A card's movement ends on entering a `stops` square."""
    goal_nodes, stop_squares = frozenset(goals), frozenset(stops)
    key = (id(room), tuple(sorted(elements.items())), ruleset.name, goal_nodes, stop_squares)
    found = _fields.recall(key)
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
    return _fields.remember(key, room, {graph.nodes[n]: d for n, d in enumerate(dist) if d >= 0})


def square_goals(targets: Iterable[Square]) -> frozenset[Node]:
    """Goal nodes for reaching a square whatever the facing."""
    return frozenset((square, facing) for square in targets for facing in Dir)
