"""A puzzle in the integers the compiled solver reads, made once per Puzzle (`Puzzle.flat`).

A solve then converts no Python objects: it passes the puzzle's buffer and a few numbers.
A cell is (row - 1) * cols + (col - 1); a side's bit is 1 << Dir (N 1, E 2, S 4, W 8).
"""
from __future__ import annotations

from array import array
from dataclasses import dataclass
from functools import lru_cache
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from .board import Puzzle


@dataclass(frozen=True)
class Flat:
    """`spec` (a read-only view of 64-bit integers, what `_search.c` reads): per cell the bits of its blocked
    sides (walls and the board's edge), then the robots' cells colour by colour, then each colour's number of
    robots, then 1 per colour that may finish (D1.3), else 0."""

    rows: int
    cols: int
    robots: int
    goal: int  # its cell
    spec: memoryview


def flatten(puzzle: Puzzle) -> Flat:
    rows, cols = puzzle.rows, puzzle.cols
    width = cols + 2  # a frame of cells around the board takes the walls' outer sides
    framed = _edges(rows, cols)[:]  # a copy: the cached edges stay as they are
    for square, side in puzzle.walls:  # on the board or beside it: both sides of each wall are listed
        framed[square.row * width + square.col] |= _BIT[side]
    spec = array("q")
    for row in range(1, rows + 1):  # the board's cells, row by row, without the frame
        spec += framed[row * width + 1:(row + 1) * width - 1]
    robots = [(s.row - 1) * cols + s.col - 1 for squares in puzzle.start for s in squares]
    finishers = puzzle.finishers()
    spec.fromlist(robots + [len(squares) for squares in puzzle.start]
                  + [int(i in finishers) for i in range(len(puzzle.start))])
    goal = (puzzle.goal.row - 1) * cols + puzzle.goal.col - 1
    return Flat(rows, cols, len(robots), goal, memoryview(spec).toreadonly())  # shared by every solve of the puzzle


_BIT = (1, 2, 4, 8)  # by Dir


@lru_cache(maxsize=8)
def _edges(rows: int, cols: int) -> array[int]:
    """The framed board's bits of the edge alone: each board cell's sides along the edge."""
    width = cols + 2
    framed = [0] * ((rows + 2) * width)
    for col in range(1, cols + 1):
        framed[width + col] |= 1
        framed[rows * width + col] |= 4
    for row in range(1, rows + 1):
        framed[row * width + 1] |= 8
        framed[row * width + cols] |= 2
    return array("q", framed)

