"""The compiled breadth-first search behind `solver.solve` (numba).

A position is a row of snom codes, sorted: a free snom's cell, or cell +
LOCKED for a locked one. Positions live in one growing array, level after
level, with a parent index and the order that led to each; an open-addressing
hash table of indices into that array finds repeats.

Written for a short first compile (about 4 s of CPU, was 11): `_search` is the
one compiled, cached entry with one signature, and the helpers are inlined
into it rather than compiled and cached as functions of their own; copies and
fills are loops, because numba's slice assignment and `np.full` compile code
for broadcasting and error messages that made up half of the compile.
"""
from __future__ import annotations

import numpy as np
from numba import njit

from ..limits import CHECK_EVERY
from .solver import MAX_CELLS

LOCKED = MAX_CELLS


def search(stops, is_goal, runs, start, cols: int, limit: int, max_nodes: int,
           stop: np.ndarray) -> tuple[list[int] | None, int, bool]:
    """(orders as direction indices or None, positions stored, whether a limit ended the search first) for tables
    given as lists."""
    found, path, positions = _search(
        np.array(stops, dtype=np.int16), np.array(is_goal, dtype=np.bool_), np.array(runs, dtype=np.int16),
        np.array(start, dtype=np.int16), cols, limit, max_nodes, stop,
    )
    return ([int(d) for d in path] if found else None), abs(int(positions)), positions < 0


@njit(inline="always")
def _move(codes, d, stops, is_goal, cols, out, order, front):
    """Apply order d to the position `codes` into `out` (unsorted); front snoms first.

    `order` and `front` are scratch space of the position's length."""
    k = codes.size
    for i in range(k):
        out[i] = codes[i]
    horizontal = d < 2
    sign = -1 if d == 0 or d == 2 else 1
    # order the free snoms front first (insertion sort on the coordinate along d)
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


@njit(inline="always")
def _sort_codes(row):
    for i in range(1, row.size):
        value = row[i]
        j = i
        while j > 0 and row[j - 1] > value:
            row[j] = row[j - 1]
            j -= 1
        row[j] = value


@njit(inline="always")
def _hash(row):
    h = np.uint64(14695981039346656037)
    for v in row:
        h = (h ^ np.uint64(v)) * np.uint64(1099511628211)
    return h


@njit(cache=True, nogil=True)  # without the GIL, so that a timer can raise `stop` meanwhile
def _search(stops, is_goal, runs, start, cols, limit, max_nodes, stop):
    """Breadth-first search; returns (found, orders as direction indices, positions stored), the count negated
    when `max_nodes` positions were stored or `stop` was set before a proof."""
    k = start.size
    capacity = 1 << 14
    states = np.empty((capacity, k), dtype=np.int16)
    parent = np.empty(capacity, dtype=np.int32)
    last = np.empty(capacity, dtype=np.int8)
    slots = 1 << 16
    table = _empty_table(slots)
    _copy(start, states[0])
    _sort_codes(states[0])
    parent[0] = -1
    last[0] = -1
    table[_hash(states[0]) & np.uint64(slots - 1)] = 0
    count = 1
    child = np.empty(k, dtype=np.int16)
    order = np.empty(k, dtype=np.int64)
    front = np.empty(k, dtype=np.int64)
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
                _move(states[s], d, stops, is_goal, cols, child, order, front)
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
                _copy(child, states[count])
                parent[count] = s
                last[count] = d
                table[slot] = count
                count += 1
                if count >= max_nodes or ((count & CHECK_EVERY) == 0 and stop[0]):
                    return False, np.empty(0, dtype=np.int8), -count
                if count * 2 > slots:
                    slots *= 4
                    table = _rehash(states, count, slots)
        begin, end = end, count
        if begin == end:
            break
    return False, np.empty(0, dtype=np.int8), count


@njit(inline="always")
def _copy(source, target):
    for i in range(source.size):
        target[i] = source[i]


@njit(inline="always")
def _empty_table(slots):
    table = np.empty(slots, dtype=np.int32)
    for i in range(slots):
        table[i] = -1
    return table


@njit(inline="always")
def _grow1(array, capacity):
    bigger = np.empty(capacity, dtype=array.dtype)
    _copy(array, bigger)
    return bigger


@njit(inline="always")
def _grow2(array, capacity):
    bigger = np.empty((capacity, array.shape[1]), dtype=array.dtype)
    for row in range(array.shape[0]):
        _copy(array[row], bigger[row])
    return bigger


@njit(inline="always")
def _rehash(states, count, slots):
    table = _empty_table(slots)
    mask = np.uint64(slots - 1)
    for s in range(count):
        slot = _hash(states[s]) & mask
        while table[slot] >= 0:
            slot = (slot + np.uint64(1)) & mask
        table[slot] = s
    return table
