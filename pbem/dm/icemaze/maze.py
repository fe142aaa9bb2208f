"""The ice maze and its one rule, the simultaneous slide (RULES D2.1, D2.2).

This is the reference implementation: plain, slow and obviously right. The
solver has its own compiled copy of the slide and is checked against this one.
Cells are numbered row by row, `row * cols + col`, from 0 at the north-west.
"""
from __future__ import annotations

from dataclasses import dataclass

ORDERS = "LRUD"
DELTAS = {"L": (0, -1), "R": (0, 1), "U": (-1, 0), "D": (1, 0)}
MAX_ORDERS = 15
MIN_SIDE, MAX_SIDE = 5, 20

ROCK, ICE, GOAL, SNOM, SNOM_ON_GOAL = "#", ".", "G", "S", "*"


@dataclass(frozen=True)
class Maze:
    """A maze as given: rocks, goals and the snoms' start cells."""

    rows: int
    cols: int
    rocks: frozenset[int]
    goals: frozenset[int]
    snoms: tuple[int, ...]

    @classmethod
    def from_rows(cls, rows: list[str] | tuple[str, ...]) -> "Maze":
        """A maze from already validated rows of `# . G S *`."""
        cols = len(rows[0])
        cells = [(r * cols + c, ch) for r, row in enumerate(rows) for c, ch in enumerate(row)]
        return cls(
            rows=len(rows),
            cols=cols,
            rocks=frozenset(cell for cell, ch in cells if ch == ROCK),
            goals=frozenset(cell for cell, ch in cells if ch in (GOAL, SNOM_ON_GOAL)),
            snoms=tuple(sorted(cell for cell, ch in cells if ch in (SNOM, SNOM_ON_GOAL))),
        )

    def start(self) -> "Position":
        """Snoms that start on a goal are locked from the first moment (D2.2)."""
        locked = frozenset(cell for cell in self.snoms if cell in self.goals)
        free = tuple(cell for cell in self.snoms if cell not in locked)
        return Position(free, locked)

    def to_rows(self, position: "Position | None" = None) -> list[str]:
        """The map rows, with the snoms where `position` has them."""
        position = position or self.start()
        snoms = set(position.free) | position.locked
        rows = []
        for r in range(self.rows):
            row = []
            for cell in range(r * self.cols, (r + 1) * self.cols):
                if cell in self.rocks:
                    row.append(ROCK)
                elif cell in snoms:
                    row.append(SNOM_ON_GOAL if cell in self.goals else SNOM)
                else:
                    row.append(GOAL if cell in self.goals else ICE)
            rows.append("".join(row))
        return rows


@dataclass(frozen=True)
class Position:
    """Where the snoms are: free ones (sorted cells) and locked ones (each on a goal)."""

    free: tuple[int, ...]
    locked: frozenset[int]

    @property
    def solved(self) -> bool:
        return not self.free


def slide(maze: Maze, position: Position, order: str) -> Position:
    """One order: every free snom slides, front first, until something stops it (D2.2)."""
    d_row, d_col = DELTAS[order]
    locked = set(position.locked)
    occupied = set(position.free)
    moved: list[int] = []
    front_first = sorted(position.free, key=lambda cell: -(cell // maze.cols * d_row + cell % maze.cols * d_col))
    for cell in front_first:
        occupied.discard(cell)
        row, col = divmod(cell, maze.cols)
        while True:
            row, col = row + d_row, col + d_col
            ahead = row * maze.cols + col
            if not (0 <= row < maze.rows and 0 <= col < maze.cols) or ahead in maze.rocks or ahead in locked or ahead in occupied:
                break
            cell = ahead
            if cell in maze.goals:  # a free goal: any goal holding a snom is in `locked`
                break
        if cell in maze.goals:
            locked.add(cell)
        else:
            occupied.add(cell)
            moved.append(cell)
    return Position(tuple(sorted(moved)), frozenset(locked))


def play(maze: Maze, orders: str) -> Position:
    """The position after a string of orders."""
    position = maze.start()
    for order in orders:
        position = slide(maze, position, order)
    return position


def solves(maze: Maze, orders: str) -> bool:
    """Whether `orders` (L R U D only) leave every snom locked."""
    return play(maze, orders).solved
