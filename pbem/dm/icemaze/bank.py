"""The Ice maze's bank of proven mazes (`mazes.jsonl`, read by `puzzlebank.py`): the default kind (10x10, two snoms,
a minimum of 8 orders), so that `dm new` with the default options loads no solver (issue #34). Other kinds, and the
deep minimums up to 15 orders, are generated in a fraction of a second each (BENCHMARKS.md, issue #34 session 10).
The file holds one JSON object a line, `{"optimal": N, "map": [...]}`, the map's rows as in the DESIGN.md maze format;
no two mazes are images of one another (`family`), written by `benchmarks/grow_bank.py --ice`.
"""
from __future__ import annotations

from functools import lru_cache

from .. import puzzlebank
from ..puzzlebank import EDITION, SYMMETRIES, symmetric
from .maze import SNOM, SNOM_ON_GOAL, Maze

FILE = "mazes.jsonl"
# how many of the file's first records each past edition of the bank held (the file only grows); the current edition
# (`puzzlebank.EDITION`) holds them all
PAST_EDITIONS = {1: 0}  # 1: before #34 session 10 pbem generated every maze


def for_round(rows: int, cols: int, snoms: int, moves: int, seed: int | str, number: int,
              edition: int = EDITION) -> Maze | None:
    """Maze `number` of a match with `seed` whose mazes are `rows` x `cols` with `snoms` snoms and minimum `moves`,
    from the bank's `edition` (`puzzlebank.pick`: each its own maze, as an image: turned or mirrored); None when that
    edition holds none."""
    maps = banked(rows, cols, snoms, moves, edition)
    if not maps:
        return None
    index, symmetry = puzzlebank.pick(seed, number, len(maps), SYMMETRIES, "ice")
    return image(Maze.from_rows(maps[index]), symmetry)


@lru_cache(maxsize=None)
def banked(rows: int, cols: int, snoms: int, moves: int, edition: int = EDITION) -> tuple[tuple[str, ...], ...]:
    """The maps of the mazes of that kind the bank's `edition` holds, in file order (pbem's own file, checked by its
    tests)."""
    held = puzzlebank.records(__package__, FILE)[:PAST_EDITIONS.get(edition)]
    return tuple(tuple(record["map"]) for record in held
                 if record["optimal"] == moves and _kind(record["map"]) == (rows, cols, snoms))


def _kind(rows: list[str]) -> tuple[int, int, int]:
    return len(rows), len(rows[0]), sum(row.count(SNOM) + row.count(SNOM_ON_GOAL) for row in rows)


def image(maze: Maze, symmetry: int) -> Maze:
    """The maze mirrored left-right when `symmetry` >= 4, then turned clockwise `symmetry % 4` quarter turns: D2.2
    names no direction, so its minimum is the same (each solution turned alike)."""
    if maze.rows != maze.cols:
        raise ValueError("only a square maze has eight symmetries")

    def cell(at: int) -> int:
        row, col = symmetric(at // maze.cols + 1, at % maze.cols + 1, maze.rows, symmetry)
        return (row - 1) * maze.cols + col - 1

    return Maze(maze.rows, maze.cols, frozenset(map(cell, maze.rocks)), frozenset(map(cell, maze.goals)),
                tuple(sorted(map(cell, maze.snoms))))


def family(maze: Maze) -> tuple[str, ...]:
    """One key for all of a maze's images: two mazes share it exactly when one is an image of the other."""
    return min(tuple(image(maze, symmetry).to_rows()) for symmetry in range(SYMMETRIES))
