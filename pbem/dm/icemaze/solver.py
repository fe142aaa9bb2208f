"""The exact ice-maze solver: breadth-first search over whole positions (RULES D2.4).

Breadth first, level by level, so the first solved position found is reached
by a shortest string of orders; a search that exhausts every level up to the
limit proves there is none. To make a 20x20 maze with 8 snoms take well under
two seconds the search runs compiled (`_search.c`, built by `pip install`) on
small integer arrays:

- a position is a sorted row of snom codes (cell, or cell + the number of cells
  when the snom is locked), so interchangeable snoms share one key;
- snoms locked from the start are folded into the rocks, and each cell's slide
  in each direction up to the first rock or goal is a precomputed table; only
  the other snoms on the same line are checked during a move;
- repeating the last order never changes anything (every snom is already
  stopped in that direction), so it is not tried;
- a position is dropped when some free snom needs more straight runs to reach
  any goal (rocks only, stopping anywhere) than the orders left: that count is
  a lower bound for every snom, so no solution within the limit is lost.
"""
from __future__ import annotations

import errno
from array import array
from collections import deque
from collections.abc import Callable
from dataclasses import dataclass
from itertools import chain
from pathlib import Path

from ..limits import CHECK_EVERY, UNLIMITED, NoProof
from .maze import DELTAS, MAX_ORDERS, ORDERS, Maze

MAX_CELLS = 512  # mazes are at most 20x20; the search's 16-bit codes hold a locked snom as cell + cells
UNREACHABLE = 127


@dataclass(frozen=True)
class Solution:
    """The outcome of a search: the shortest orders, or None when none within `limit`."""

    orders: str | None
    limit: int
    positions: int  # distinct positions stored, a measure of the work done

    @property
    def moves(self) -> int | None:
        return None if self.orders is None else len(self.orders)


def solve(maze: Maze, limit: int = MAX_ORDERS, max_nodes: int | None = None,
          stop: bytearray | None = None) -> Solution:
    """A shortest solution of at most `limit` orders, or proof that there is none; NoProof when `max_nodes`
    positions are stored, or `stop` (limits.stop_flag) is set, first."""
    start = maze.start()
    if start.solved:
        return Solution("", limit, 1)
    if maze.rows * maze.cols > MAX_CELLS:
        raise ValueError(f"the solver handles at most {MAX_CELLS} cells")
    search = _compiled_search()
    walls = set(maze.rocks) | set(start.locked)
    goals = maze.goals - start.locked
    stops = array("h", chain.from_iterable(_stop_table(maze, walls, goals)))
    is_goal = bytes(cell in goals for cell in range(maze.rows * maze.cols))
    runs = bytes(_runs_to_goal(maze, walls, goals))
    path, positions, limited = search(stops, is_goal, runs, array("h", start.free), maze.cols, limit,
                                      max_nodes or UNLIMITED, stop, CHECK_EVERY)
    if limited:
        raise NoProof(stop is not None and bool(stop[0]), positions)
    orders = None if path is None else "".join(ORDERS[d] for d in path)
    return Solution(orders, limit, positions)


def _compiled_search() -> Callable[..., tuple[bytes | None, int, bool]]:
    """The C search, loaded only when a maze is solved; a checkout that was never installed has not built it."""
    try:
        from ._search import search
    except ImportError as error:  # a source checkout never installed: a missing file the command line reports plainly
        raise FileNotFoundError(errno.ENOENT, "the ice-maze solver's compiled search is not built: run `pip install "
                                "-e .` in the checkout (it needs a C compiler and Python's headers)",
                                str(Path(__file__).with_name("_search.c"))) from error
    return search


def warm_up() -> None:
    """Load the search now, so that timings measure only searching (it is compiled when pbem is installed)."""
    solve(Maze.from_rows(["S...G", ".....", ".....", ".....", "....."]))


def _stop_table(maze: Maze, walls: set[int], goals: frozenset[int]) -> list[list[int]]:
    """stops[d][cell]: where a lone snom from `cell` ends after order d (first goal or before a wall)."""
    stops = [[0] * (maze.rows * maze.cols) for _ in ORDERS]
    for d, order in enumerate(ORDERS):
        d_row, d_col = DELTAS[order]
        for cell in range(maze.rows * maze.cols):
            row, col = divmod(cell, maze.cols)
            end = cell
            while end not in goals or end == cell:
                row, col = row + d_row, col + d_col
                ahead = row * maze.cols + col
                if not (0 <= row < maze.rows and 0 <= col < maze.cols) or ahead in walls:
                    break
                end = ahead
            stops[d][cell] = end
    return stops


def _runs_to_goal(maze: Maze, walls: set[int], goals: frozenset[int]) -> list[int]:
    """runs[cell]: fewest straight runs through non-walls from `cell` to any goal, stopping anywhere."""
    runs = [UNREACHABLE] * (maze.rows * maze.cols)
    queue = deque(sorted(goals))
    for goal in goals:
        runs[goal] = 0
    while queue:
        cell = queue.popleft()
        for d_row, d_col in DELTAS.values():
            row, col = divmod(cell, maze.cols)
            while True:
                row, col = row + d_row, col + d_col
                ahead = row * maze.cols + col
                if not (0 <= row < maze.rows and 0 <= col < maze.cols) or ahead in walls:
                    break
                if runs[ahead] == UNREACHABLE:
                    runs[ahead] = runs[cell] + 1
                    queue.append(ahead)
    return runs
