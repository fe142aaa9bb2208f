"""The exact Gyulbot solver: IDA* in numba over packed integer positions.

Why it is exact:
- The bound is admissible. A robot's `reach` counts the moves it needs to
  the goal, per direction of its last move, if it could stop on ANY square
  along a slide (walls only). Other robots can only shorten a slide, never
  lengthen it, and a robot moving with its rigid body (D1.2) also stops
  somewhere along its own slide (perhaps at once), so no real sequence is
  shorter. A lone robot also needs other robots as stoppers where no wall
  stops it (`tables.fill_stopper_marks`); each one missing costs another colour a move. The
  bound is the least over the robots allowed to finish (any colour: all).
- A colour that may not finish is not moved when the finishers' reach alone
  (without stoppers) already needs every move left: its move leaves that reach
  as it was. The same holds for the last move, which must finish.
- Moving the same colour straight back is never needed: the body retraces
  free squares to where it was and then slides on exactly as a direct move
  would, so the result is the earlier position or one move from it.
- The transposition table remembers, per position, the most moves left with
  which it was searched in vain; a path to a minimal solution can never be
  cut by it (a shorter detour would contradict the earlier bound failing).
Speed, not exactness: colours that may finish are tried first (the last
iteration ends at its first solution), the reach table is searched only as
deep as the iteration's limit (`tables.deepen`), and the compiled code
allocates nothing, so it runs without numba's reference counting: a solve's
arrays are made once per thread and board shape and reused (`_Work`), and the
search returns to have its table doubled, then resumes. One compiled entry
(`_search`), called once per solve, each kernel with one signature: the first
compile is short.
Robots of one colour are interchangeable and kept sorted; a rigid body moves
by translation, which keeps them sorted, so packed positions are canonical.
"""
from __future__ import annotations

import threading

import numpy as np

from ...engine.geometry import Dir, Square
from ..limits import CHECK_EVERY, UNLIMITED, NoProof
from .board import Puzzle
from .tables import UNREACHABLE, WORK_ROWS, deepen, fill_runs, fill_stopper_marks, inlined, kernel, start_reach

MAX_MOVES = 40
_LIMIT = 63  # the most moves a search may be asked for: a table entry keeps the moves left in 6 bits
_TT_START_LOG2 = 12
_TT_MAX_LOG2 = 25  # 32 Mi entries of 8 bytes, 256 MB; beyond it entries are replaced
_PROBES = 24
_TT_MIN_LEFT = 2
_GOLDEN = np.uint64(0x9E3779B97F4A7C15)
_SIX = np.uint64(6)
_LEFT = np.uint64(63)  # moves to go, in a table entry's low bits
_HEUR, _PURE, _NEXT, _GROUP, _DIR = range(5)  # per level of the search: rows of `level`
_LEVELS = 5
_GROUP_OF, _FINISHER, _LONE, _POOLED, _SCRATCH, _BOUNDS, _ORDER = range(7)  # rows of `robot` (per robot or colour)
_ROBOT_ROWS = 7
_LIMIT_AT, _DEPTH, _NODES, _USED, _LOG2, _NEEDS, _ALL_LONE = range(7)  # in `state`
_STATE = 7
_GROW = -3
_NEVER = np.zeros(1, dtype=np.bool_)  # the stop flag when the caller gives none
_FRESH = np.zeros(0, dtype=np.uint64)  # no table to carry over: a new solve
_DIRS = tuple(Dir)
STATS = {"nodes": 0}  # positions expanded by the last solve (for the benchmark)


class _Work:
    """A solve's arrays for one board shape and number of robots, reused by every solve of that
    shape in a thread (a solve allocates nothing in the common case): the board's tables, the
    robots' groups, the path's positions and bounds, the search's state and its first table."""

    def __init__(self, rows: int, cols: int, n: int):
        cells = rows * cols
        self.run = np.zeros(cells * 4, dtype=np.int64)
        self.marks = np.zeros(cells, dtype=np.int64)
        self.reach = np.zeros((4, cells), dtype=np.int64)
        self.work = np.zeros((WORK_ROWS, cells), dtype=np.int64)
        self.bfs = np.zeros(2, dtype=np.int64)
        self.robot = np.zeros((_ROBOT_ROWS, n + 1), dtype=np.int64)
        self.pos = np.zeros((_LIMIT + 1) * n, dtype=np.int64)  # level k's robots at k * n (flat: no views)
        self.level = np.zeros((_LEVELS, _LIMIT + 1), dtype=np.int64)
        self.state = np.zeros(_STATE, dtype=np.int64)
        self.table = np.zeros(1 << _TT_START_LOG2, dtype=np.uint64)


_local = threading.local()  # each thread its own arrays: solves may run side by side


def _work_for(rows: int, cols: int, n: int) -> _Work:
    shapes = getattr(_local, "shapes", None)
    if shapes is None:
        shapes = _local.shapes = {}
    work = shapes.get((rows, cols, n))
    if work is None:
        if len(shapes) >= 8:
            shapes.clear()
        work = shapes[rows, cols, n] = _Work(rows, cols, n)
    return work


def solve(puzzle: Puzzle, max_moves: int = MAX_MOVES, max_nodes: int | None = None,
          stop: np.ndarray | None = None) -> list[tuple[int, Dir]] | None:
    """A proven-minimal solution as (colour index, direction) moves, or None when
    no solution of at most `max_moves` moves exists. Raises NoProof when the search
    expands `max_nodes` positions, or `stop` (limits.stop_flag) is set, first."""
    flat = puzzle.flat
    bits = (flat.rows * flat.cols - 1).bit_length() or 1
    if bits * flat.robots > 57 or max_moves > _LIMIT:
        from .bfs import bfs_solve  # too big to pack into a table entry: the slow way

        return bfs_solve(puzzle, max_moves, max_nodes, stop)
    stop = _NEVER if stop is None else stop
    work = _work_for(flat.rows, flat.cols, flat.robots)
    table, old = work.table, _FRESH
    while True:
        length = _search(flat.spec, flat.lines, flat.robots, flat.rows, flat.cols, flat.goal, bits, max_moves,
                         max_nodes or UNLIMITED, stop, work.run, work.marks, work.reach, work.work, work.bfs,
                         work.robot, work.pos, work.level, work.state, table, old)
        if length != _GROW:
            break
        table, old = np.zeros(table.shape[0] * 2, dtype=np.uint64), table  # the search moves the old one's entries
    STATS["nodes"] = int(work.state[_NODES])
    if length == -2:
        raise NoProof(bool(stop[0]), STATS["nodes"])
    if length < 0:
        return None
    return [(group, _DIRS[d]) for group, d in zip(work.level[_GROUP, :length].tolist(),
                                                  work.level[_DIR, :length].tolist())]


def warm_up() -> None:
    """Load (or compile, once per install) the compiled search, so timings exclude it."""
    solve(Puzzle.build(2, 2, [], {"red": [Square(2, 1)]}, Square(1, 2), None))


@kernel
def _search(spec, lines, n, rows, cols, goal, bits, max_moves, max_nodes, stop, run, marks, reach, work, bfs, robot,
            pos, level, state, table, old):
    """One solve, in one compiled call: the board's tables, the robots' groups, then the search. With
    `old` (the table the search outgrew) it moves its entries into `table` and resumes instead.
    `spec` and `lines`: as in `flat.Flat`, with `n` robots; the other arrays: `_Work`'s. Returns the
    solution's length (its moves in level[_GROUP] and level[_DIR]), -1 (none within max_moves),
    -2 (a limit) or _GROW: the caller doubles the table and calls again."""
    cells = rows * cols
    groups = (spec.shape[0] - cells - n) // 2
    if old.shape[0]:
        for s in range(old.shape[0]):
            if old[s] != 0:
                _visit(table, state[_LOG2] + 1, old[s] >> _SIX, np.int64(old[s] & _LEFT))
        state[_LOG2] += 1
    else:
        h = _prepare(spec, n, cells, cols, goal, max_moves, groups, run, marks, reach, work, bfs, robot, pos, level,
                     state)
        if h == 0 or h > max_moves:
            state[_NODES] = 0
            return 0 if h == 0 else -1
        for s in range(table.shape[0]):
            table[s] = 0
    return _ida(run, lines[0], lines[1], cols, groups, robot, reach, work, bfs, goal, marks, bits, max_moves,
                max_nodes, stop, n, pos, level, state, table)


@kernel
def _prepare(spec, n, cells, cols, goal, max_moves, groups, run, marks, reach, work, bfs, robot, pos, level, state):
    """The board's tables and the robots' groups for a new solve, the root's bound (returned) and the
    search's state: the first limit is that bound, the reach table deepened to it."""
    fill_runs(spec, cells // cols, cols, run)
    state[_NEEDS] = fill_stopper_marks(run, cols, goal, marks)
    start_reach(run, cols, goal, reach, work, bfs)
    sizes = cells + n
    finishing = sizes + groups
    group_of, finisher, lone, pooled, bounds, order = (robot[_GROUP_OF], robot[_FINISHER], robot[_LONE],
                                                       robot[_POOLED], robot[_BOUNDS], robot[_ORDER])
    bounds[0] = 0
    for g in range(groups):
        bounds[g + 1] = bounds[g] + spec[sizes + g]
        for i in range(bounds[g], bounds[g + 1]):
            group_of[i] = g
            finisher[i] = spec[finishing + g] != 0
            lone[i] = spec[sizes + g] == 1
            pooled[i] = lone[i] != 0 and finisher[i] == 0  # lone robots that may not finish: interchangeable blockers
    state[_ALL_LONE] = bounds[groups] == groups
    k = 0
    for first in range(1, -1, -1):  # colours that may finish first: the last iteration ends sooner
        for g in range(groups):
            if spec[finishing + g] == first:
                order[k] = g
                k += 1
    for i in range(n):
        pos[i] = spec[cells + i]
    limit = 1  # the root's bound, exact once it is within the reach table's depth (then it equals limit)
    while True:
        h, h_pure = _bound(pos, 0, n, robot, reach, goal, marks, state[_NEEDS], state[_ALL_LONE], UNREACHABLE)
        if h <= limit or not bfs[1] or limit > max_moves:
            break
        limit = h
        deepen(run, cols, goal, reach, work, bfs, limit)
    level[_HEUR, 0], level[_PURE, 0] = h, h_pure
    state[_LIMIT_AT], state[_DEPTH], state[_NODES], state[_USED], state[_LOG2] = h, -1, 0, 0, _TT_START_LOG2
    return h


@kernel
def _ida(run, line, axis, cols, groups, robot, reach, work, bfs, goal, marks, bits, max_moves, max_nodes, stop, n,
         pos, level, state, table):
    """IDA* from where `state` (limit, depth, nodes, table entries, table log2) left off, the reach table
    deepened to each new iteration's limit (`_prepare` did so for the first). Returns the solution's
    length, -1 (none within max_moves), -2 (a limit) or _GROW when the table is half full: the caller
    doubles it (this kernel allocates nothing) and resumes."""
    bounds, order, finisher, pooled, scratch = (robot[_BOUNDS], robot[_ORDER], robot[_FINISHER], robot[_POOLED],
                                                robot[_SCRATCH])
    needs, all_lone = state[_NEEDS], state[_ALL_LONE]
    heur, pure, next_move, path_group, path_dir = level[_HEUR], level[_PURE], level[_NEXT], level[_GROUP], level[_DIR]
    deltas = (-cols, 1, cols, -1)
    limit, depth, nodes, used, log2 = state[_LIMIT_AT], state[_DEPTH], state[_NODES], state[_USED], state[_LOG2]
    while limit <= max_moves:
        if depth < 0:  # a new iteration
            _visit(table, log2, _pack(pos, 0, n, bits, pooled, scratch), limit)
            depth = 0
            next_move[0] = 0
        while depth >= 0:
            m = next_move[depth]
            if m >= groups * 4:
                depth -= 1
                continue
            next_move[depth] = m + 1
            g = order[m >> 2]
            d = m & 3
            left = limit - depth - 1
            if depth > 0 and g == path_group[depth - 1] and d == (path_dir[depth - 1] ^ 2):
                continue  # straight back: never needed
            lo = bounds[g]
            hi = bounds[g + 1]
            if not finisher[lo] and pure[depth] > left:  # the finishers' reach alone needs every move left:
                next_move[depth] = groups * 4  # no other colour's move helps, and they all come after the finishers'
                continue
            at = depth * n
            dist = _slide(pos, at, n, lo, hi, d, run, line, axis)
            if dist == 0:
                continue
            below = at + n  # the child's robots
            for i in range(n):
                pos[below + i] = pos[at + i]
            moved_stopper = finisher[lo] != 0
            step = dist * deltas[d]
            for i in range(below + lo, below + hi):
                moved_stopper |= marks[pos[i]] != 0  # the bound only sees finishers and robots on stopper squares
                pos[i] += step
                moved_stopper |= marks[pos[i]] != 0
            path_group[depth] = g
            path_dir[depth] = d
            if left == 0:  # the last move: only whether it finishes counts
                for i in range(below + lo, below + hi):
                    if pos[i] == goal:
                        state[_NODES] = nodes
                        return depth + 1
                continue
            if moved_stopper:
                h, h_pure = _bound(pos, below, n, robot, reach, goal, marks, needs, all_lone, left)
            else:
                h, h_pure = heur[depth], pure[depth]
            if h == 0:
                state[_NODES] = nodes
                return depth + 1
            if h > left:
                continue
            fresh = False
            if left >= _TT_MIN_LEFT:  # near the leaves a table probe costs more than it saves
                explore, fresh = _visit(table, log2, _pack(pos, below, n, bits, pooled, scratch), left)
                if not explore:
                    continue
            heur[depth + 1] = h
            pure[depth + 1] = h_pure
            nodes += 1
            if nodes >= max_nodes or ((nodes & CHECK_EVERY) == 0 and stop[0]):
                state[_NODES] = nodes
                return -2  # the limit, before a proof
            depth += 1
            next_move[depth] = 0
            if fresh:
                used += 1
                if used * 2 > table.shape[0] and log2 < _TT_MAX_LOG2:
                    state[_LIMIT_AT], state[_DEPTH], state[_NODES], state[_USED] = limit, depth, nodes, used
                    return _GROW
        limit += 1
        depth = -1
        deepen(run, cols, goal, reach, work, bfs, limit)
    state[_NODES] = nodes
    return -1


@inlined
def _bound(pos, at, n, robot, reach, goal, marks, needs, all_lone, left):
    """The least moves to finish: per finishing robot and last direction d, its reach,
    plus, for a lone robot, a move of another colour for each stopper it still
    lacks (`tables.fill_stopper_marks`): past the goal, and beside the line behind it. Two
    missing stoppers are two moves when every robot is lone (a move places one
    robot), else one. A robot of a rigid body may be stopped by its own body,
    so it gets no extra moves. Also returns the least reach alone (no stoppers),
    which only a move of a finishing colour can change. Only a bound of at most `left`
    is exact: a robot whose reach alone is more is not looked at further (the search
    drops the position either way)."""
    best = UNREACHABLE
    pure = UNREACHABLE
    for i in range(n):
        if not robot[_FINISHER, i]:
            continue
        p = pos[at + i]
        if p == goal:
            return 0, 0
        least = reach[0, p]
        for d in range(1, 4):
            if reach[d, p] < least:
                least = reach[d, p]
        if least < pure:
            pure = least
        if least > left or least >= best:
            continue
        missing = 0
        if robot[_LONE, i]:
            covered = 0
            for j in range(n):
                if robot[_GROUP_OF, j] != robot[_GROUP_OF, i]:
                    covered |= marks[pos[at + j]]
            missing = needs & ~covered
        for d in range(4):
            moves = reach[d, p]
            if moves >= best:
                continue
            last = missing >> d & 1
            side = missing >> (4 + d) & 1 if moves >= 2 else 0
            moves += last + side if all_lone else last | side
            if moves < best:
                best = moves
    return best, pure


@inlined
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


@inlined
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


@inlined
def _visit(table, log2, key, left):
    """Record `key` as searched with `left` moves to go; one word per entry: key << 6 | left.
    Returns (explore it?, took a new slot?): no when it was searched with as many already."""
    mask = (1 << log2) - 1
    start = np.int64((key * _GOLDEN) >> np.uint64(64 - log2))
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
