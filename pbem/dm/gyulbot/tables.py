"""The board's tables for the Gyulbot solver (`solver.py`), compiled with numba: how far a robot slides from
each cell, how many moves each cell needs to the goal if a robot could stop anywhere, and where stoppers must
stand. Each kernel fills arrays the caller gives it (no allocation, no reference counting: `kernel`), so a
solve's tables live in buffers reused from one solve to the next.

A cell is (row - 1) * cols + (col - 1); directions are N E S W (0-3); `spec`: `flat.Flat.spec`.
"""
from __future__ import annotations

import numba

UNREACHABLE = 1 << 20
kernel = numba.njit(cache=True, nogil=True, _nrt=False)  # type: ignore[call-overload]  # numba's private option
"""One compiled version per function (each is only ever called with the same argument types), cached on disk;
no reference counting (the kernels allocate nothing); no GIL (a timer thread can set the search's stop flag)."""
inlined = numba.njit(cache=True, nogil=True, _nrt=False, inline="always")  # type: ignore[call-overload]
"""A kernel that numba copies into its caller (a call costs ~1.5x in the search's inner loop); each copy is
compiled again, so only the search's hot helpers are, each called from as few places as possible."""
SEEN, DONE, BITS, FRONT, WORK_ROWS = 0, 1, 3, 5, 7  # rows of the reach search's `work` (two each but SEEN)


@kernel
def fill_runs(spec, rows, cols, run):
    """run[cell * 4 + d]: free steps from `cell` in direction d, walls and edges only: none past a
    blocked side (`spec`'s bits), else one more than the neighbour's."""
    for cell in range(rows * cols):  # N and W from the neighbours above and to the left
        run[cell * 4] = 0 if spec[cell] & 1 else run[(cell - cols) * 4] + 1
        run[cell * 4 + 3] = 0 if spec[cell] & 8 else run[(cell - 1) * 4 + 3] + 1
    for cell in range(rows * cols - 1, -1, -1):  # S and E from below and to the right
        run[cell * 4 + 2] = 0 if spec[cell] & 4 else run[(cell + cols) * 4 + 2] + 1
        run[cell * 4 + 1] = 0 if spec[cell] & 2 else run[(cell + 1) * 4 + 1] + 1


@kernel
def start_reach(run, cols, goal, reach, work, bfs):
    """The reach table with its first round, and the state of its search for `deepen`.

    reach[d, cell]: the moves a robot at `cell` needs to reach the goal with a last
    move in direction d, if it could stop on any square along a slide. A robot that
    may stop anywhere moves in one go between any two squares of a wall-free row or
    column segment, so each search (one per d, from the squares behind the goal)
    gives a cell's segments the next distance, each segment once. The four searches
    run together: a cell carries the bits of the directions that reached it."""
    deltas = (-cols, 1, cols, -1)
    cells = reach.shape[1]
    for cell in range(cells):
        for d in range(4):
            reach[d, cell] = 2  # the cap (see `deepen`) until found
        for row in range(WORK_ROWS):
            work[row, cell] = 0
    size = 0
    for last in range(4):
        behind = (last + 2) % 4  # the last move comes from behind the goal
        for k in range(1, run[goal * 4 + behind] + 1):
            cell = goal + deltas[behind] * k
            reach[last, cell] = 1
            work[SEEN, cell] |= 1 << last
            if work[BITS + 1, cell] == 0:
                work[FRONT + 1, size] = cell
                size += 1
            work[BITS + 1, cell] |= 1 << last
    if size == 0:  # walled in: nothing reaches the goal
        for cell in range(cells):
            for d in range(4):
                reach[d, cell] = UNREACHABLE
    bfs[0], bfs[1] = 1, size


@kernel
def deepen(run, cols, goal, reach, work, bfs, upto):
    """Runs the reach table's search (`start_reach`) on until it has found every cell
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
            cell = work[FRONT + here_row, f]
            bits = work[BITS + here_row, cell]
            work[BITS + here_row, cell] = 0
            for vertical in range(2):  # the row (W to E), then the column (N to S)
                back, ahead = (3, 1) if vertical == 0 else (0, 2)
                first = cell + deltas[back] * run[cell * 4 + back]
                new = bits & ~work[DONE + vertical, first]  # bit d: the segment starting here was spread
                if new == 0:
                    continue
                work[DONE + vertical, first] |= new
                here = first
                for _ in range(run[first * 4 + ahead] + 1):
                    fresh = new & ~work[SEEN, here]  # bit d: reach[d, here] is known
                    if fresh and here != goal:
                        work[SEEN, here] |= fresh
                        if work[BITS + next_row, here] == 0:
                            work[FRONT + next_row, found] = here
                            found += 1
                        work[BITS + next_row, here] |= fresh
                        for d in range(4):
                            if fresh >> d & 1:
                                reach[d, here] = moves + 1
                    here += deltas[ahead]
        size = found
        moves += 1
    if moves != bfs[0]:
        cap = moves + 1 if size else UNREACHABLE
        for cell in range(reach.shape[1]):  # the cap into every entry not found yet
            unknown = ~work[SEEN, cell] & 15
            for d in range(4):
                if unknown >> d & 1:
                    reach[d, cell] = cap
    bfs[0], bfs[1] = moves, size


@kernel
def fill_stopper_marks(run, cols, goal, marks):
    """Where other robots must stand for a lone robot to finish with a last move d, as bits:
    returns `needs`, with bit d when the last move d needs a robot past the goal, bit 4 + d when
    it needs one beside the line behind the goal; marks[cell]: the bits a robot on `cell` gives.

    Past the goal: unless a wall or the edge stops the robot there. Beside the line:
    before the last move the robot must stop on the line behind the goal, and the first
    time it does it comes in from the side (or through the goal, then the line's walled
    end stops it). A side entry stopped by a wall (or the line entered through the goal)
    needs no robot; otherwise a robot on the cell beyond each side entry stops it."""
    deltas = (-cols, 1, cols, -1)
    for cell in range(marks.shape[0]):
        marks[cell] = 0
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
    return needs

