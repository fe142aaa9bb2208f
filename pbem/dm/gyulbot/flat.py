"""A puzzle in the integers the compiled solver reads, made once per Puzzle (`Puzzle.flat`).

A solve then converts no Python objects: it passes the puzzle's array and a few numbers.
A cell is (row - 1) * cols + (col - 1); a side's bit is 1 << Dir (N 1, E 2, S 4, W 8).
"""
from __future__ import annotations

from dataclasses import dataclass
from functools import lru_cache
from typing import TYPE_CHECKING

import numpy as np

if TYPE_CHECKING:
    from .board import Puzzle


@dataclass(frozen=True)
class Flat:
    """`spec` (int64, read-only): per cell the bits of its blocked sides (walls and the
    board's edge), then the robots' cells colour by colour, then each colour's number
    of robots, then 1 per colour that may finish (D1.3), else 0."""

    rows: int
    cols: int
    robots: int
    goal: int  # its cell
    spec: np.ndarray


def flatten(puzzle: Puzzle) -> Flat:
    rows, cols = puzzle.rows, puzzle.cols
    width = cols + 2  # a frame of cells around the board takes the walls' outer sides
    framed = list(_edges(rows, cols))
    for square, side in puzzle.walls:  # on the board or beside it: both sides of each wall are listed
        framed[square.row * width + square.col] |= _BIT[side]
    sides = np.array(framed, dtype=np.int64).reshape(rows + 2, width)[1:-1, 1:-1].ravel()
    robots = [(s.row - 1) * cols + s.col - 1 for squares in puzzle.start for s in squares]
    finishers = puzzle.finishers()
    colours = range(len(puzzle.start))
    spec = np.concatenate((sides, np.array(robots + [len(squares) for squares in puzzle.start]
                                           + [int(i in finishers) for i in colours], dtype=np.int64)))
    spec.flags.writeable = False  # shared by every solve of the puzzle
    goal = (puzzle.goal.row - 1) * cols + puzzle.goal.col - 1
    return Flat(rows, cols, len(robots), goal, spec)


_BIT = (1, 2, 4, 8)  # by Dir


@lru_cache(maxsize=8)
def _edges(rows: int, cols: int) -> tuple[int, ...]:
    """The framed board's bits of the edge alone: each board cell's sides along the edge."""
    width = cols + 2
    framed = [0] * ((rows + 2) * width)
    for col in range(1, cols + 1):
        framed[width + col] |= 1
        framed[rows * width + col] |= 4
    for row in range(1, rows + 1):
        framed[row * width + 1] |= 8
        framed[row * width + cols] |= 2
    return tuple(framed)
