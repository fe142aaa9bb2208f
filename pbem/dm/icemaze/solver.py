"""The exact ice-maze solver: breadth-first search over whole positions (RULES D2.4).

Breadth first, level by level, so the first solved position found is reached
by a shortest string of orders; a search that exhausts every level up to the
limit proves there is none. To make a 20x20 maze with 8 snoms take well under
two seconds the search runs compiled (numba) on small integer arrays:

- a position is a sorted row of snom codes (cell, or cell + LOCKED when the snom
  is locked), so interchangeable snoms share one key;
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

from collections import deque
from dataclasses import dataclass

import numpy as np
from numba import njit

from .maze import DELTAS, MAX_ORDERS, ORDERS, Maze

LOCKED = 512  # code offset of a locked snom; larger than any cell of a 20x20 maze
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


def solve(maze: Maze, limit: int = MAX_ORDERS) -> Solution:
    """A shortest solution of at most `limit` orders, or proof that there is none."""
    start = maze.start()
    if start.solved:
        return Solution("", limit, 1)
    if maze.rows * maze.cols > LOCKED:
        raise ValueError(f"the solver handles at most {LOCKED} cells")
    walls = set(maze.rocks) | set(start.locked)
    goals = maze.goals - start.locked
    stops = _stop_table(maze, walls, goals)
    is_goal = np.zeros(maze.rows * maze.cols, dtype=np.bool_)
    is_goal[sorted(goals)] = True
    runs = _runs_to_goal(maze, walls, goals)
    found, path, positions = _search(stops, is_goal, runs, np.array(start.free, dtype=np.int16), maze.cols, limit)
    orders = "".join(ORDERS[d] for d in path) if found else None
    return Solution(orders, limit, int(positions))


def _stop_table(maze: Maze, walls: set[int], goals: frozenset[int]) -> np.ndarray:
    """stops[d, cell]: where a lone snom from `cell` ends after order d (first goal or before a wall)."""
    stops = np.zeros((4, maze.rows * maze.cols), dtype=np.int16)
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
            stops[d, cell] = end
    return stops


def _runs_to_goal(maze: Maze, walls: set[int], goals: frozenset[int]) -> np.ndarray:
    """runs[cell]: fewest straight runs through non-walls from `cell` to any goal, stopping anywhere."""
    runs = np.full(maze.rows * maze.cols, UNREACHABLE, dtype=np.int16)
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


@njit(cache=True)
def _move(codes, d, stops, is_goal, cols, out):
    """Apply order d to the position `codes` into `out` (unsorted); front snoms first."""
    k = codes.size
    for i in range(k):
        out[i] = codes[i]
    horizontal = d < 2
    sign = -1 if d == 0 or d == 2 else 1
    # order the free snoms front first (insertion sort on the coordinate along d)
    order = np.empty(k, dtype=np.int64)
    front = np.empty(k, dtype=np.int64)
    n = 0
    for i in range(k):
        if out[i] < LOCKED:
            cell = out[i]
            key = sign * (cell % cols if horizontal else cell // cols)
            j = n
            while j > 0 and front[j - 1] < key:
                front[j] = front[j - 1]
                order[j] = order[j - 1]
                j -= 1
            front[j] = key
            order[j] = i
            n += 1
    step = sign if horizontal else sign * cols
    for t in range(n):
        i = order[t]
        cell = out[i]
        line = cell // cols if horizontal else cell % cols
        here = cell % cols if horizontal else cell // cols
        end = stops[d, cell]
        there = end % cols if horizontal else end // cols
        reach = (there - here) * sign
        for j in range(k):
            if j == i:
                continue
            other = out[j] % LOCKED
            if (other // cols if horizontal else other % cols) != line:
                continue
            gap = ((other % cols if horizontal else other // cols) - here) * sign
            if 0 < gap <= reach:
                reach = gap - 1
        cell = cell + step * reach
        out[i] = cell + LOCKED if is_goal[cell] else cell


@njit(cache=True)
def _sort_codes(row):
    for i in range(1, row.size):
        value = row[i]
        j = i
        while j > 0 and row[j - 1] > value:
            row[j] = row[j - 1]
            j -= 1
        row[j] = value


@njit(cache=True)
def _hash(row):
    h = np.uint64(14695981039346656037)
    for v in row:
        h = (h ^ np.uint64(v)) * np.uint64(1099511628211)
    return h


@njit(cache=True)
def _search(stops, is_goal, runs, start, cols, limit):
    """Breadth-first search; returns (found, orders as direction indices, positions stored)."""
    k = start.size
    capacity = 1 << 14
    states = np.empty((capacity, k), dtype=np.int16)
    parent = np.empty(capacity, dtype=np.int32)
    last = np.empty(capacity, dtype=np.int8)
    slots = 1 << 16
    table = np.full(slots, -1, dtype=np.int32)
    states[0] = start
    _sort_codes(states[0])
    parent[0] = -1
    last[0] = -1
    table[_hash(states[0]) & np.uint64(slots - 1)] = 0
    count = 1
    child = np.empty(k, dtype=np.int16)
    begin, end = 0, 1
    need = 0
    for i in range(k):
        need = max(need, runs[start[i]])
    if need > limit:
        return False, np.empty(0, dtype=np.int8), count
    for depth in range(1, limit + 1):
        for s in range(begin, end):
            for d in range(4):
                if d == last[s]:
                    continue
                _move(states[s], d, stops, is_goal, cols, child)
                _sort_codes(child)
                need = 0
                free = 0
                for i in range(k):
                    if child[i] < LOCKED:
                        free += 1
                        need = max(need, runs[child[i]])
                if free == 0:
                    path = np.empty(depth, dtype=np.int8)
                    path[depth - 1] = d
                    at = s
                    for p in range(depth - 2, -1, -1):
                        path[p] = last[at]
                        at = parent[at]
                    return True, path, count
                if depth + need > limit:
                    continue
                mask = np.uint64(slots - 1)
                slot = _hash(child) & mask
                fresh = True
                while table[slot] >= 0:
                    other = states[table[slot]]
                    same = True
                    for i in range(k):
                        if other[i] != child[i]:
                            same = False
                            break
                    if same:
                        fresh = False
                        break
                    slot = (slot + np.uint64(1)) & mask
                if not fresh:
                    continue
                if count == capacity:
                    capacity *= 2
                    states = _grow2(states, capacity)
                    parent = _grow1(parent, capacity)
                    last = _grow1(last, capacity)
                states[count] = child
                parent[count] = s
                last[count] = d
                table[slot] = count
                count += 1
                if count * 2 > slots:
                    slots *= 4
                    table = _rehash(states, count, slots)
        begin, end = end, count
        if begin == end:
            break
    return False, np.empty(0, dtype=np.int8), count


@njit(cache=True)
def _grow1(array, capacity):
    bigger = np.empty(capacity, dtype=array.dtype)
    bigger[: array.size] = array
    return bigger


@njit(cache=True)
def _grow2(array, capacity):
    bigger = np.empty((capacity, array.shape[1]), dtype=array.dtype)
    bigger[: array.shape[0]] = array
    return bigger


@njit(cache=True)
def _rehash(states, count, slots):
    table = np.full(slots, -1, dtype=np.int32)
    mask = np.uint64(slots - 1)
    for s in range(count):
        slot = _hash(states[s]) & mask
        while table[slot] >= 0:
            slot = (slot + np.uint64(1)) & mask
        table[slot] = s
    return table
