"""The exact Gyulbot solver: IDA* in numba over packed integer positions.

Why it is exact:
- The bound is admissible. A robot's `reach` counts the moves it needs to
  the goal, per direction of its last move, if it could stop on ANY square
  along a slide (walls only). Other robots can only shorten a slide, never
  lengthen it, and a robot moving with its rigid body (D1.2) also stops
  somewhere along its own slide (perhaps at once), so no real sequence is
  shorter. A lone robot also needs other robots as stoppers where no wall
  stops it (`_stopper_marks`); each one missing costs another colour a move. The
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
deep as the iteration's limit (`_deepen`), and the search kernel allocates
nothing, so it runs without numba's reference counting; it returns to have
its table doubled and resumes.
Robots of one colour are interchangeable and kept sorted; a rigid body moves
by translation, which keeps them sorted, so packed positions are canonical.
"""
from __future__ import annotations

import numba
import numpy as np

from ...engine.geometry import Dir, Square
from ..limits import CHECK_EVERY, UNLIMITED, NoProof
from .board import Puzzle

UNREACHABLE = 1 << 20
MAX_MOVES = 40
_TT_START_LOG2 = 12
_TT_MAX_LOG2 = 25  # 32 Mi entries of 8 bytes, 256 MB; beyond it entries are replaced
_PROBES = 24
_TT_MIN_LEFT = 2
_GOLDEN = np.uint64(0x9E3779B97F4A7C15)
_SIX = np.uint64(6)
_LEFT = np.uint64(63)  # moves to go, in a table entry's low bits
_HEUR, _PURE, _NEXT, _GROUP, _DIR = range(5)  # per level of the search: rows of `level`
_LEVELS = 5
_SEEN, _DONE, _BITS, _FRONT, _WORK_ROWS = 0, 1, 3, 5, 7  # rows of the reach search's `work` (two each but SEEN)
_NODES, _LOG2 = 2, 4  # in the search's `state`: limit, depth, nodes, table entries, table log2
_GROW = -3
_NEVER = np.zeros(1, dtype=np.bool_)  # the stop flag when the caller gives none
_DIRS = tuple(Dir)
STATS = {"nodes": 0}  # positions expanded by the last solve (for the benchmark)


def solve(puzzle: Puzzle, max_moves: int = MAX_MOVES, max_nodes: int | None = None,
          stop: np.ndarray | None = None) -> list[tuple[int, Dir]] | None:
    """A proven-minimal solution as (colour index, direction) moves, or None when
    no solution of at most `max_moves` moves exists. Raises NoProof when the search
    expands `max_nodes` positions, or `stop` (limits.stop_flag) is set, first."""
    flat = puzzle.flat
    bits = (flat.rows * flat.cols - 1).bit_length() or 1
    if bits * flat.robots > 57 or max_moves > 63:
        from .bfs import bfs_solve  # too big to pack into a table entry: the slow way

        return bfs_solve(puzzle, max_moves, max_nodes, stop)
    stop = _NEVER if stop is None else stop
    length, nodes, moves = _search(flat.spec, flat.lines, flat.robots, flat.rows, flat.cols, flat.goal, bits,
                                   max_moves, max_nodes or UNLIMITED, stop)
    STATS["nodes"] = nodes
    if length == -2:
        raise NoProof(bool(stop[0]), nodes)
    if length < 0:
        return None
    return [(move >> 2, _DIRS[move & 3]) for move in moves.tolist()]


@numba.njit(cache=True, nogil=True)
def _search(spec, lines, n, rows, cols, goal, bits, max_moves, max_nodes, stop):
    """The board's tables, then the search (one compiled call: little per-solve Python work).
    `spec` and `lines`: as in `flat.Flat`, with `n` robots. Returns the solution's length (or
    `_ida`'s code), the positions expanded and the moves as colour * 4 + direction."""
    cells = rows * cols
    groups = (spec.shape[0] - cells - n) // 2
    sizes = spec[cells + n:cells + n + groups]
    finishing = spec[cells + n + groups:]
    run = _runs(spec, rows, cols)
    line, axis = lines[0], lines[1]
    bounds = np.zeros(groups + 1, dtype=np.int64)
    bounds[1:] = np.cumsum(sizes)
    group_of = np.empty(n, dtype=np.int64)
    finisher = np.empty(n, dtype=np.bool_)
    lone = np.empty(n, dtype=np.bool_)
    for g in range(groups):
        group_of[bounds[g]:bounds[g + 1]] = g
        finisher[bounds[g]:bounds[g + 1]] = finishing[g] != 0
        lone[bounds[g]:bounds[g + 1]] = sizes[g] == 1
    order = np.empty(groups, dtype=np.int64)  # colours that may finish first: the last iteration ends sooner
    k = 0
    for first in (True, False):
        for g in range(groups):
            if (finishing[g] != 0) == first:
                order[k] = g
                k += 1
    pooled = lone & ~finisher  # lone robots that may not finish: interchangeable blockers
    marks, needs = _stopper_marks(run, cols, goal, cells)
    reach, work, bfs = _reach_start(run, cols, goal, cells)
    pos = np.zeros((max_moves + 1) * n, dtype=np.int64)  # level k's robots at k * n (flat: no views)
    pos[:n] = spec[cells:cells + n]
    limit = 1  # the root's bound, exact once it is within the reach table's depth (then it equals limit)
    h, h_pure = _bound(pos, 0, n, group_of, finisher, lone, lone.all(), reach, goal, marks, needs)
    while h > limit and bfs[1] and limit <= max_moves:
        limit = h
        _deepen(run, cols, goal, reach, work, bfs, limit)
        h, h_pure = _bound(pos, 0, n, group_of, finisher, lone, lone.all(), reach, goal, marks, needs)
    level = np.zeros((_LEVELS, max_moves + 1), dtype=np.int64)
    if h == 0 or h > max_moves:
        return 0 if h == 0 else -1, 0, level[_GROUP, :0] * 4
    level[_HEUR, 0], level[_PURE, 0] = h, h_pure
    state = np.array([h, -1, 0, 0, _TT_START_LOG2], dtype=np.int64)
    table = np.zeros(1 << _TT_START_LOG2, dtype=np.uint64)
    scratch = np.zeros(n, dtype=np.int64)
    deltas = np.array([-cols, 1, cols, -1], dtype=np.int64)
    while True:
        length = _ida(run, line, axis, deltas, bounds, order, group_of, finisher, lone, lone.all(), pooled, reach, work,
                      bfs, goal, marks, needs, bits, max_moves, max_nodes, stop, pos, level, state, table, scratch)
        if length != _GROW:
            moves = level[_GROUP, :max(length, 0)] * 4 + level[_DIR, :max(length, 0)]
            return length, state[_NODES], moves
        table = _grow(table, state[_LOG2])
        state[_LOG2] += 1


@numba.njit(cache=True)
def _runs(spec, rows, cols):
    """Free steps from each cell in each direction (N E S W), walls and edges only:
    none past a blocked side (`spec`'s bits), else one more than the neighbour's."""
    table = np.zeros(rows * cols * 4, dtype=np.int64)
    for cell in range(rows * cols):  # N and W from the neighbours above and to the left
        if not spec[cell] & 1:
            table[cell * 4] = table[(cell - cols) * 4] + 1
        if not spec[cell] & 8:
            table[cell * 4 + 3] = table[(cell - 1) * 4 + 3] + 1
    for cell in range(rows * cols - 1, -1, -1):  # S and E from below and to the right
        if not spec[cell] & 4:
            table[cell * 4 + 2] = table[(cell + cols) * 4 + 2] + 1
        if not spec[cell] & 2:
            table[cell * 4 + 1] = table[(cell + 1) * 4 + 1] + 1
    return table


@numba.njit(cache=True)
def _reach_start(run, cols, goal, cells):
    """The reach table with its first round, and the state of its search for `_deepen`.

    reach[d, cell]: the moves a robot at `cell` needs to reach the goal with a last
    move in direction d, if it could stop on any square along a slide. A robot that
    may stop anywhere moves in one go between any two squares of a wall-free row or
    column segment, so each search (one per d, from the squares behind the goal)
    gives a cell's segments the next distance, each segment once. The four searches
    run together: a cell carries the bits of the directions that reached it."""
    deltas = (-cols, 1, cols, -1)
    reach = np.full((4, cells), 2, dtype=np.int64)  # the cap (see `_deepen`) until found
    work = np.zeros((_WORK_ROWS, cells), dtype=np.int64)
    size = 0
    for last in range(4):
        behind = (last + 2) % 4  # the last move comes from behind the goal
        for k in range(1, run[goal * 4 + behind] + 1):
            cell = goal + deltas[behind] * k
            reach[last, cell] = 1
            work[_SEEN, cell] |= 1 << last
            if work[_BITS + 1, cell] == 0:
                work[_FRONT + 1, size] = cell
                size += 1
            work[_BITS + 1, cell] |= 1 << last
    if size == 0:  # walled in: nothing reaches the goal
        reach[:] = UNREACHABLE
    return reach, work, np.array([1, size], dtype=np.int64)


@numba.njit(cache=True, inline="always")  # inlined: no reference counting per call (in `_ida`)
def _deepen(run, cols, goal, reach, work, bfs, upto):
    """Runs the reach table's search (`_reach_start`) on until it has found every cell
    that needs at most `upto` moves; the cells not yet found read as the cap, the least
    moves any of them needs (UNREACHABLE once the search is over). The solver deepens to
    its iteration's limit first: a bound above the limit prunes alike whether it is
    exact or capped, so shallow puzzles never pay for the far cells. `bfs`: the rounds
    done (the moves of the cells found last) and how many cells they found; rows of
    `work` by their parity: the found cells and their new direction bits."""
    deltas = (-cols, 1, cols, -1)
    moves, size = bfs[0], bfs[1]
    while size and moves < upto:
        here_row, next_row = moves & 1, 1 - (moves & 1)
        found = 0
        for f in range(size):
            cell = work[_FRONT + here_row, f]
            bits = work[_BITS + here_row, cell]
            work[_BITS + here_row, cell] = 0
            for vertical in range(2):  # the row (W to E), then the column (N to S)
                back, ahead = (3, 1) if vertical == 0 else (0, 2)
                first = cell + deltas[back] * run[cell * 4 + back]
                new = bits & ~work[_DONE + vertical, first]  # bit d: the segment starting here was spread
                if new == 0:
                    continue
                work[_DONE + vertical, first] |= new
                here = first
                for _ in range(run[first * 4 + ahead] + 1):
                    fresh = new & ~work[_SEEN, here]  # bit d: reach[d, here] is known
                    if fresh and here != goal:
                        work[_SEEN, here] |= fresh
                        if work[_BITS + next_row, here] == 0:
                            work[_FRONT + next_row, found] = here
                            found += 1
                        work[_BITS + next_row, here] |= fresh
                        for d in range(4):
                            if fresh >> d & 1:
                                reach[d, here] = moves + 1
                    here += deltas[ahead]
        size = found
        moves += 1
    if moves != bfs[0]:
        _cap_unknown(reach, work, moves + 1 if size else UNREACHABLE)
    bfs[0], bfs[1] = moves, size


@numba.njit(cache=True, inline="always")  # inlined: no reference counting per call (in `_ida`)
def _cap_unknown(reach, work, cap):
    """The cap into every entry of the reach table that its search has not found yet."""
    for cell in range(reach.shape[1]):
        unknown = ~work[_SEEN, cell] & 15
        if unknown:
            for d in range(4):
                if unknown >> d & 1:
                    reach[d, cell] = cap


def warm_up() -> None:
    """Load (or compile, once per install) the compiled search, so timings exclude it."""
    solve(Puzzle.build(2, 2, [], {"red": [Square(2, 1)]}, Square(1, 2), None))


@numba.njit(cache=True, inline="always")  # inlined: no reference counting per call
def _bound(pos, at, n, group_of, finisher, lone, all_lone, reach, goal, marks, needs):
    """The least moves to finish: per finishing robot and last direction d, its reach,
    plus, for a lone robot, a move of another colour for each stopper it still
    lacks (see `_stopper_marks`): past the goal, and beside the line behind it. Two
    missing stoppers are two moves when every robot is lone (a move places one
    robot), else one. A robot of a rigid body may be stopped by its own body,
    so it gets no extra moves. Also returns the least reach alone (no stoppers),
    which only a move of a finishing colour can change."""
    best = UNREACHABLE
    pure = UNREACHABLE
    for i in range(n):
        if not finisher[i]:
            continue
        p = pos[at + i]
        if p == goal:
            return 0, 0
        missing = 0
        if lone[i]:
            covered = 0
            for j in range(n):
                if group_of[j] != group_of[i]:
                    covered |= marks[pos[at + j]]
            missing = needs & ~covered
        for d in range(4):
            moves = reach[d, p]
            pure = min(pure, moves)
            if moves >= best:
                continue
            last = missing >> d & 1
            side = missing >> (4 + d) & 1 if moves >= 2 else 0
            moves += last + side if all_lone else max(last, side)
            if moves < best:
                best = moves
    return best, pure


@numba.njit(cache=True)
def _stopper_marks(run, cols, goal, cells):
    """Where other robots must stand for a lone robot to finish with a last move d, as bits:
    `needs` bit d when the last move d needs a robot past the goal, bit 4 + d when it needs
    one beside the line behind the goal; marks[cell] has the bits a robot on `cell` gives.

    Past the goal: unless a wall or the edge stops the robot there. Beside the line:
    before the last move the robot must stop on the line behind the goal, and the first
    time it does it comes in from the side (or through the goal, then the line's walled
    end stops it). A side entry stopped by a wall (or the line entered through the goal)
    needs no robot; otherwise a robot on the cell beyond each side entry stops it."""
    deltas = (-cols, 1, cols, -1)
    marks = np.zeros(cells, dtype=np.int64)
    needs = 0
    for last in range(4):
        behind = (last + 2) % 4
        free = run[goal * 4 + last] > 0  # through the goal: the line's end is walled
        if free:
            marks[goal + deltas[last]] |= 1 << last
            needs |= 1 << last
        for k in range(1, run[goal * 4 + behind] + 1):
            cell = goal + deltas[behind] * k
            for side in ((last + 1) % 4, (last + 3) % 4):
                if run[cell * 4 + (side + 2) % 4] > 0 and run[cell * 4 + side] == 0:
                    free = True  # a side entry stopped by a wall
        if free:
            continue
        needs |= 1 << (4 + last)
        for k in range(1, run[goal * 4 + behind] + 1):
            cell = goal + deltas[behind] * k
            for side in ((last + 1) % 4, (last + 3) % 4):
                if run[cell * 4 + (side + 2) % 4] > 0:  # something can come in moving `side`
                    marks[cell + deltas[side]] |= 1 << (4 + last)
    return marks, needs


@numba.njit(cache=True, inline="always")  # inlined: no reference counting per call
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


@numba.njit(cache=True, inline="always")  # inlined: no reference counting per call
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


@numba.njit(cache=True, inline="always")  # inlined: no reference counting per call
def _slot(key, log2):
    return np.int64((key * _GOLDEN) >> np.uint64(64 - log2))


@numba.njit(cache=True, inline="always")  # inlined: no reference counting per call
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


@numba.njit(cache=True, nogil=True, _nrt=False)  # type: ignore[call-overload]  # no GIL: a timer can raise `stop`; no NRT: no reference counts
def _ida(run, line, axis, deltas, bounds, order, group_of, finisher, lone, all_lone, pooled, reach, work, bfs, goal,
         marks, needs, bits, max_moves, max_nodes, stop, pos, level, state, table, scratch):
    """IDA* from where `state` (limit, depth, nodes, table entries, table log2) left off, the
    reach table deepened to each new iteration's limit (the caller did so for the first). Returns the solution's length, -1
    (none within max_moves), -2 (a limit) or _GROW when the table is half full: the caller
    doubles it (this kernel allocates nothing) and resumes."""
    n = pos.shape[0] // level.shape[1]
    groups = bounds.shape[0] - 1
    heur, pure, next_move, path_group, path_dir = level[_HEUR], level[_PURE], level[_NEXT], level[_GROUP], level[_DIR]
    limit, depth, nodes, used, log2 = state[0], state[1], state[2], state[3], state[4]
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
            if not finisher[lo] and pure[depth] > left:
                continue  # the finishers' reach alone already needs every move left
            at = depth * n
            dist = _slide(pos, at, n, lo, hi, d, run, line, axis)
            if dist == 0:
                continue
            below = at + n  # the child's robots
            for i in range(n):
                pos[below + i] = pos[at + i]
            moved_stopper = finisher[lo]
            for i in range(below + lo, below + hi):
                moved_stopper |= marks[pos[i]] != 0  # the bound only sees finishers and robots on stopper squares
                pos[i] += dist * deltas[d]
                moved_stopper |= marks[pos[i]] != 0
            path_group[depth] = g
            path_dir[depth] = d
            if left == 0:  # the last move: only whether it finishes counts
                for i in range(below + lo, below + hi):
                    if pos[i] == goal:
                        state[2] = nodes
                        return depth + 1
                continue
            if moved_stopper:
                h, h_pure = _bound(pos, below, n, group_of, finisher, lone, all_lone, reach, goal, marks, needs)
            else:
                h, h_pure = heur[depth], pure[depth]
            if h == 0:
                state[2] = nodes
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
                state[2] = nodes
                return -2  # the limit, before a proof
            depth += 1
            next_move[depth] = 0
            if fresh:
                used += 1
                if used * 2 > table.shape[0] and log2 < _TT_MAX_LOG2:
                    state[0], state[1], state[2], state[3] = limit, depth, nodes, used
                    return _GROW
        limit += 1
        depth = -1
        _deepen(run, deltas[2], goal, reach, work, bfs, limit)
    state[2] = nodes
    return -1
