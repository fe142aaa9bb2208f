"""The exact Gyulbot solver: IDA* in numba over packed integer positions.

Why it is exact:
- The bound is admissible. A robot's `reach` counts the moves it needs to
  the goal, per direction of its last move, if it could stop on ANY square
  along a slide (walls only). Other robots can only shorten a slide, never
  lengthen it, and a robot moving with its rigid body (D1.2) also stops
  somewhere along its own slide (perhaps at once), so no real sequence is
  shorter. A lone robot also needs other robots as stoppers where no wall
  stops it (`stoppers`); each one missing costs another colour a move. The
  bound is the least over the robots allowed to finish (any colour: all).
- Moving the same colour straight back is never needed: the body retraces
  free squares to where it was and then slides on exactly as a direct move
  would, so the result is the earlier position or one move from it.
- The transposition table remembers, per position, the most moves left with
  which it was searched in vain; a path to a minimal solution can never be
  cut by it (a shorter detour would contradict the earlier bound failing).
Robots of one colour are interchangeable and kept sorted; a rigid body moves
by translation, which keeps them sorted, so packed positions are canonical.
"""
from __future__ import annotations

import numba
import numpy as np

from ...engine.geometry import Dir, Square
from ..limits import CHECK_EVERY, UNLIMITED, NoProof, stop_flag
from .board import Puzzle

UNREACHABLE = 1 << 20
MAX_MOVES = 40
_TT_START_LOG2 = 16
_TT_MAX_LOG2 = 25  # 32 Mi entries of 8 bytes, 256 MB; beyond it entries are replaced
_PROBES = 24
_TT_MIN_LEFT = 2
_GOLDEN = np.uint64(0x9E3779B97F4A7C15)
_SIX = np.uint64(6)
_LEFT = np.uint64(63)  # moves to go, in a table entry's low bits
STATS = {"nodes": 0}  # positions expanded by the last solve (for the benchmark)


def cell_of(puzzle: Puzzle, square) -> int:
    return (square.row - 1) * puzzle.cols + (square.col - 1)


def runs(puzzle: Puzzle) -> np.ndarray:
    """Free steps from each cell in each direction (N E S W), walls and edges only."""
    walled = np.zeros(puzzle.rows * puzzle.cols * 4, dtype=np.bool_)
    for square, side in puzzle.walls:
        if puzzle.on_board(square):
            walled[cell_of(puzzle, square) * 4 + side] = True
    return _runs(walled, puzzle.rows, puzzle.cols)


@numba.njit(cache=True)
def _runs(walled, rows, cols):
    table = np.zeros(rows * cols * 4, dtype=np.int64)
    steps = (-cols, 1, cols, -1)
    for r in range(rows):
        for c in range(cols):
            room = (r, cols - 1 - c, rows - 1 - r, c)  # squares to the edge
            for d in range(4):
                here = r * cols + c
                n = 0
                while n < room[d] and not walled[here * 4 + d]:
                    here += steps[d]
                    n += 1
                table[(r * cols + c) * 4 + d] = n
    return table


def reach(puzzle: Puzzle, run: np.ndarray) -> np.ndarray:
    """reach[d, cell]: the moves a robot at `cell` needs to reach the goal with a last
    move in direction d, if it could stop on any square along a slide."""
    cols, cells = puzzle.cols, puzzle.rows * puzzle.cols
    deltas = (-cols, 1, cols, -1)
    goal = cell_of(puzzle, puzzle.goal)
    table = np.full((4, cells), UNREACHABLE, dtype=np.int64)
    for last in range(4):
        distance = table[last]
        behind = (last + 2) % 4  # the last move comes from behind the goal
        frontier = [goal + deltas[behind] * k for k in range(1, run[goal * 4 + behind] + 1)]
        distance[frontier] = 1
        while frontier:
            following = []
            for cell in frontier:
                # a robot that passes `cell` comes from behind it: walk away from it in each direction
                for direction in range(4):
                    here = cell
                    for _ in range(run[cell * 4 + direction]):
                        here += deltas[direction]
                        if distance[here] == UNREACHABLE and here != goal:
                            distance[here] = distance[cell] + 1
                            following.append(here)
            frontier = following
    return table


def stoppers(puzzle: Puzzle, run: np.ndarray) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """Where other robots must stand for a lone robot to finish with a last move in direction d.

    beyond[d]: the square past the goal that must hold a robot to stop it on the goal,
    -1 where a wall or the edge stops it anyway. Before the last move it must stop on
    the line behind the goal, and the first time it does it comes in from the side
    (or through the goal, then the line's walled end stops it). free[d]: some side
    entry is stopped by a wall (or the line is entered through the goal), so no
    robot is needed. flank[d, cell]: otherwise a robot on `cell` stops a side entry.
    """
    goal = cell_of(puzzle, puzzle.goal)
    cells = puzzle.rows * puzzle.cols
    deltas = (-puzzle.cols, 1, puzzle.cols, -1)
    beyond = np.array([-1 if run[goal * 4 + d] == 0 else goal + deltas[d] for d in range(4)], dtype=np.int64)
    free = np.zeros(4, dtype=np.bool_)
    flank = np.zeros((4, cells), dtype=np.bool_)
    for last in range(4):
        behind = (last + 2) % 4
        free[last] = run[goal * 4 + last] > 0  # through the goal: the line's end is walled
        for k in range(1, run[goal * 4 + behind] + 1):
            cell = goal + deltas[behind] * k
            for side in ((last + 1) % 4, (last + 3) % 4):
                if run[cell * 4 + (side + 2) % 4] == 0:
                    continue  # nothing can come in moving `side`
                if run[cell * 4 + side] == 0:
                    free[last] = True
                else:
                    flank[last, cell + deltas[side]] = True
    return beyond, free, flank


def solve(puzzle: Puzzle, max_moves: int = MAX_MOVES, max_nodes: int | None = None,
          stop: np.ndarray | None = None) -> list[tuple[int, Dir]] | None:
    """A proven-minimal solution as (colour index, direction) moves, or None when
    no solution of at most `max_moves` moves exists. Raises NoProof when the search
    expands `max_nodes` positions, or `stop` (limits.stop_flag) is set, first."""
    cells = puzzle.rows * puzzle.cols
    bits = max(1, (cells - 1).bit_length())
    robots = sum(len(squares) for squares in puzzle.start)
    if bits * robots > 57 or max_moves > 63:
        from .bfs import bfs_solve  # too big to pack into a table entry: the slow way

        return bfs_solve(puzzle, max_moves, max_nodes, stop)
    run = runs(puzzle)
    rows_of = np.repeat(np.arange(puzzle.rows, dtype=np.int64), puzzle.cols)
    cols_of = np.tile(np.arange(puzzle.cols, dtype=np.int64), puzzle.rows)
    line = np.stack([cols_of, rows_of, cols_of, rows_of])  # per direction N E S W
    axis = np.stack([-rows_of, cols_of, rows_of, -cols_of])
    positions = np.array([cell_of(puzzle, s) for squares in puzzle.start for s in squares], dtype=np.int64)
    bounds = np.cumsum([0] + [len(squares) for squares in puzzle.start]).astype(np.int64)
    finishers = set(puzzle.finishers())
    finisher = np.array([i in finishers for i, sq in enumerate(puzzle.start) for _ in sq], dtype=np.bool_)
    lone = np.array([len(sq) == 1 for sq in puzzle.start for _ in sq], dtype=np.bool_)
    pooled = lone & ~finisher
    group_of = np.repeat(np.arange(len(puzzle.start), dtype=np.int64), np.diff(bounds))
    stop = stop_flag() if stop is None else stop
    length, groups, directions, nodes = _ida(run, line, axis, puzzle.cols, positions, bounds, group_of,
                                             finisher, lone, bool(lone.all()), pooled, reach(puzzle, run),
                                             cell_of(puzzle, puzzle.goal), *stoppers(puzzle, run), bits, max_moves,
                                             max_nodes or UNLIMITED, stop)
    STATS["nodes"] = int(nodes)
    if length == -2:
        raise NoProof(bool(stop[0]), int(nodes))
    if length < 0:
        return None
    return [(int(groups[i]), Dir(int(directions[i]))) for i in range(length)]


def warm_up() -> None:
    """Load (or compile, once per install) the compiled search, so timings exclude it."""
    solve(Puzzle.build(2, 2, [], {"red": [Square(2, 1)]}, Square(1, 2), None))


@numba.njit(cache=True)
def _bound(pos, at, n, group_of, finisher, lone, all_lone, reach, goal, beyond, free, flank):
    """The least moves to finish: per finishing robot and last direction d, its reach,
    plus, for a lone robot, a move of another colour for each stopper it still
    lacks (see `stoppers`): past the goal, and beside the line behind it. Two
    missing stoppers are two moves when every robot is lone (a move places one
    robot), else one. A robot of a rigid body may be stopped by its own body,
    so it gets no extra moves."""
    best = UNREACHABLE
    for i in range(n):
        if not finisher[i]:
            continue
        p = pos[at + i]
        if p == goal:
            return 0
        for d in range(4):
            moves = reach[d, p]
            if moves >= best:
                continue
            if lone[i]:
                last = 0
                if beyond[d] >= 0:
                    last = 1
                    for j in range(n):
                        if pos[at + j] == beyond[d] and group_of[j] != group_of[i]:
                            last = 0
                side = 0
                if moves >= 2 and not free[d]:
                    side = 1
                    for j in range(n):
                        if flank[d, pos[at + j]] and group_of[j] != group_of[i]:
                            side = 0
                moves += last + side if all_lone else max(last, side)
            if moves < best:
                best = moves
    return best


@numba.njit(cache=True)
def _slide(pos, at, n, lo, hi, direction, run, line, axis):
    """How far the body pos[at + lo:at + hi] slides: the least free run of its robots,
    each cut short by the nearest robot of another colour ahead of it. `line` names
    a cell's row or column across the direction, `axis` its place along it."""
    dist = UNREACHABLE
    for i in range(lo, hi):
        p = pos[at + i]
        steps = run[p * 4 + direction]
        if steps == 0:
            return 0
        here_line = line[direction, p]
        here_axis = axis[direction, p]
        for j in range(n):
            if lo <= j < hi:
                continue
            q = pos[at + j]
            ahead = axis[direction, q] - here_axis
            if line[direction, q] == here_line and 0 < ahead <= steps:
                steps = ahead - 1
        if steps < dist:
            dist = steps
            if dist == 0:
                return 0
    return dist


@numba.njit(cache=True)
def _pack(pos, at, n, bits, pooled, scratch):
    """The position's key: robots in order, except that the `pooled` ones (lone
    robots that may not finish, interchangeable as mere blockers) come sorted."""
    key = np.uint64(0)
    k = 0
    for i in range(n):
        if pooled[i]:
            j = k
            while j > 0 and scratch[j - 1] > pos[at + i]:
                scratch[j] = scratch[j - 1]
                j -= 1
            scratch[j] = pos[at + i]
            k += 1
        else:
            key = (key << np.uint64(bits)) | np.uint64(pos[at + i])
    for j in range(k):
        key = (key << np.uint64(bits)) | np.uint64(scratch[j])
    return key + np.uint64(1)  # 0 marks an empty slot


@numba.njit(cache=True)
def _slot(key, log2):
    return np.int64((key * _GOLDEN) >> np.uint64(64 - log2))


@numba.njit(cache=True)
def _visit(table, log2, key, left):
    """Record `key` as searched with `left` moves to go; one word per entry: key << 6 | left.
    Returns (explore it?, took a new slot?): no when it was searched with as many already."""
    mask = (1 << log2) - 1
    start = _slot(key, log2)
    entry = (key << _SIX) | np.uint64(left)
    weakest = start
    weakest_left = np.uint64(64)
    for probe in range(_PROBES):
        s = (start + probe) & mask
        held = table[s]
        if held == 0:
            table[s] = entry
            return True, True
        if (held >> _SIX) == key:
            if (held & _LEFT) >= np.uint64(left):
                return False, False
            table[s] = entry
            return True, False
        if (held & _LEFT) < weakest_left:
            weakest = s
            weakest_left = held & _LEFT
    table[weakest] = entry  # the window is full: forget the least useful entry
    return True, False


@numba.njit(cache=True)
def _grow(table, log2):
    bigger = np.zeros(table.shape[0] * 2, dtype=np.uint64)
    for s in range(table.shape[0]):
        if table[s] != 0:
            _visit(bigger, log2 + 1, table[s] >> _SIX, np.int64(table[s] & _LEFT))
    return bigger


@numba.njit(cache=True, nogil=True)  # without the GIL, so that a timer can raise `stop` meanwhile
def _ida(run, line, axis, cols, start, bounds, group_of, finisher, lone, all_lone, pooled, reach, goal, beyond,
         free, flank, bits, max_moves, max_nodes, stop):
    n = start.shape[0]
    groups = bounds.shape[0] - 1
    stopping = np.zeros(run.shape[0] // 4, dtype=np.bool_)  # squares where a robot counts in the bound
    for d in range(4):
        if beyond[d] >= 0:
            stopping[beyond[d]] = True
        stopping |= flank[d]
    scratch = np.zeros(n, dtype=np.int64)
    nodes = 0
    deltas = np.array([-cols, 1, cols, -1], dtype=np.int64)
    path_group = np.zeros(max_moves + 1, dtype=np.int64)
    path_dir = np.zeros(max_moves + 1, dtype=np.int64)
    h0 = _bound(start, 0, n, group_of, finisher, lone, all_lone, reach, goal, beyond, free, flank)
    if h0 == 0:
        return 0, path_group, path_dir, nodes
    if h0 > max_moves:
        return -1, path_group, path_dir, nodes
    pos = np.zeros((max_moves + 1) * n, dtype=np.int64)  # level k's robots at k * n (flat: no views)
    heur = np.zeros(max_moves + 1, dtype=np.int64)
    next_move = np.zeros(max_moves + 1, dtype=np.int64)
    pos[:n] = start
    heur[0] = h0
    log2 = _TT_START_LOG2
    table = np.zeros(1 << log2, dtype=np.uint64)
    used = 0
    for limit in range(h0, max_moves + 1):
        _visit(table, log2, _pack(start, 0, n, bits, pooled, scratch), limit)
        depth = 0
        next_move[0] = 0
        while depth >= 0:
            m = next_move[depth]
            if m >= groups * 4:
                depth -= 1
                continue
            next_move[depth] = m + 1
            g = m >> 2
            d = m & 3
            left = limit - depth - 1
            if depth > 0 and g == path_group[depth - 1] and d == (path_dir[depth - 1] ^ 2):
                continue  # straight back: never needed
            lo = bounds[g]
            hi = bounds[g + 1]
            if not finisher[lo] and (left == 0 or heur[depth] > left + 1):
                continue  # another colour never finishes, and lowers the bound by one at most (as a stopper)
            at = depth * n
            dist = _slide(pos, at, n, lo, hi, d, run, line, axis)
            if dist == 0:
                continue
            below = at + n  # the child's robots
            for i in range(n):
                pos[below + i] = pos[at + i]
            moved_stopper = finisher[lo]
            for i in range(below + lo, below + hi):
                moved_stopper |= stopping[pos[i]]
                pos[i] += dist * deltas[d]
                moved_stopper |= stopping[pos[i]]
            if moved_stopper:
                h = _bound(pos, below, n, group_of, finisher, lone, all_lone, reach, goal, beyond, free, flank)
            else:
                h = heur[depth]  # the bound only sees finishers and robots on stopper squares
            path_group[depth] = g
            path_dir[depth] = d
            if h == 0:
                return depth + 1, path_group, path_dir, nodes
            if h > left:
                continue
            fresh = False
            if left >= _TT_MIN_LEFT:  # near the leaves a table probe costs more than it saves
                explore, fresh = _visit(table, log2, _pack(pos, below, n, bits, pooled, scratch), left)
                if not explore:
                    continue
            if fresh:
                used += 1
                if used * 2 > table.shape[0] and log2 < _TT_MAX_LOG2:
                    table = _grow(table, log2)
                    log2 += 1
            heur[depth + 1] = h
            nodes += 1
            if nodes >= max_nodes or ((nodes & CHECK_EVERY) == 0 and stop[0]):
                return -2, path_group, path_dir, nodes  # the limit, before a proof
            depth += 1
            next_move[depth] = 0
    return -1, path_group, path_dir, nodes
