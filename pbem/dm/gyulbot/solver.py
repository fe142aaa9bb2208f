"""The exact Gyulbot solver: IDA* over packed integer positions, compiled at install (`_search.c`).

Why it is exact:
- The bound is admissible. A robot's `reach` counts the moves it needs to
  the goal, per direction of its last move, if it could stop on ANY square
  along a slide (walls only). Other robots can only shorten a slide, never
  lengthen it, and a robot moving with its rigid body (D1.2) also stops
  somewhere along its own slide (perhaps at once), so no real sequence is
  shorter. A lone robot also needs other robots as stoppers where no wall
  stops it (`fill_stopper_marks` in `_search.c`); each one missing costs another colour a move. The
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
iteration ends at its first solution), and the reach table is searched only as
deep as the iteration's limit. The search is C (`_search.c`), compiled by
`pip install`: nothing to compile on first use; one call per solve, without the
GIL (a timer thread can set the stop flag; solves may run side by side).
Robots of one colour are interchangeable and kept sorted; a rigid body moves
by translation, which keeps them sorted, so packed positions are canonical.
"""
from __future__ import annotations

import errno
from pathlib import Path

from ...engine.geometry import Dir, Square
from ..limits import CHECK_EVERY, UNLIMITED, NoProof
from .board import Puzzle

try:
    from . import _search  # the C extension, built by `pip install`
except ImportError as error:  # a source checkout never installed: a missing file the command line reports plainly
    raise FileNotFoundError(errno.ENOENT, "the Gyulbot solver's compiled search is not built: run `pip install -e .` "
                            "in the checkout (it needs a C compiler and Python's headers)",
                            str(Path(__file__).with_name("_search.c"))) from error

MAX_MOVES = 40
_LIMIT = 63  # the most moves a search may be asked for: a table entry keeps the moves left in 6 bits
_DIRS = tuple(Dir)
STATS = {"nodes": 0}  # positions expanded by the last solve (for the benchmark)


def solve(puzzle: Puzzle, max_moves: int = MAX_MOVES, max_nodes: int | None = None,
          stop: bytearray | None = None) -> list[tuple[int, Dir]] | None:
    """A proven-minimal solution as (colour index, direction) moves, or None when
    no solution of at most `max_moves` moves exists. Raises NoProof when the search
    expands `max_nodes` positions, or `stop` (limits.stop_flag) is set, first."""
    flat = puzzle.flat
    bits = (flat.rows * flat.cols - 1).bit_length() or 1
    if bits * flat.robots > 57 or max_moves > _LIMIT:
        from .bfs import bfs_solve  # too big to pack into a table entry: the slow way

        return bfs_solve(puzzle, max_moves, max_nodes, stop)
    length, STATS["nodes"], moves = _search.search(flat.spec, flat.robots, flat.rows, flat.cols, flat.goal, bits,
                                                   max_moves, max_nodes or UNLIMITED, stop, CHECK_EVERY)
    if length == -2:
        raise NoProof(stop is not None and bool(stop[0]), STATS["nodes"])
    if length < 0:
        return None
    return [(group, _DIRS[d]) for group, d in moves]


def warm_up() -> None:
    """Load the compiled search and solve once, so timings exclude loading it."""
    solve(Puzzle.build(2, 2, [], {"red": [Square(2, 1)]}, Square(1, 2), None))


