"""Squares and directions: `r{row}c{col}` with r1 north and c1 west (DESIGN.md)."""
from __future__ import annotations

import re
from dataclasses import dataclass
from enum import IntEnum

_SQUARE = re.compile(r"^r(\d{1,18})c(\d{1,18})$", re.IGNORECASE)
_SIZE = re.compile(r"^(\d{1,18})x(\d{1,18})$", re.IGNORECASE)


class Dir(IntEnum):
    """A compass direction; the value counts clockwise quarter turns from north."""

    N = 0
    E = 1
    S = 2
    W = 3

    @classmethod
    def parse(cls, text: "str | Dir") -> "Dir":
        if isinstance(text, Dir):
            return text
        try:
            return cls[str(text).strip().upper()]
        except KeyError:
            raise ValueError(f"not a direction (N, E, S or W): {text!r}") from None

    def turned(self, quarter_turns: int) -> "Dir":
        """Clockwise by `quarter_turns` (negative turns counter-clockwise)."""
        return _DIRS[(self + quarter_turns) % 4]  # a table, not Dir(...): the enum call is slow in hot loops

    @property
    def opposite(self) -> "Dir":
        return _DIRS[(self + 2) % 4]

    @property
    def delta(self) -> tuple[int, int]:
        return _DELTAS[self]


_DIRS = tuple(Dir)
_DELTAS = ((-1, 0), (0, 1), (1, 0), (0, -1))  # by Dir


@dataclass(frozen=True, order=True, slots=True)
class Square:
    row: int
    col: int

    @classmethod
    def parse(cls, text: "str | Square") -> "Square":
        if isinstance(text, Square):
            return text
        match = _SQUARE.match(str(text).strip())
        if not match:
            raise ValueError(f"not a square (r#c#): {text!r}")
        return cls(int(match[1]), int(match[2]))

    # Hot in the resolver: cheaper than the generated tuple-based methods.
    def __hash__(self) -> int:
        return self.row * 4099 + self.col

    def __eq__(self, other: object) -> bool:
        if other.__class__ is Square:
            return self.row == other.row and self.col == other.col
        return NotImplemented

    def step(self, direction: Dir, distance: int = 1) -> "Square":
        if distance == 1:  # the resolver's every move: the neighbour is made once and kept
            key = (self.row, self.col, direction)
            found = _NEIGHBOURS.get(key)
            if found is None:
                if len(_NEIGHBOURS) >= _NEIGHBOURS_MAX:
                    _NEIGHBOURS.clear()
                d_row, d_col = _DELTAS[direction]
                found = _NEIGHBOURS[key] = Square(self.row + d_row, self.col + d_col)
            return found
        d_row, d_col = _DELTAS[direction]
        return Square(self.row + d_row * distance, self.col + d_col * distance)

    def __str__(self) -> str:
        return f"r{self.row}c{self.col}"


_NEIGHBOURS: dict[tuple[int, int, int], Square] = {}  # (row, col, direction) -> the square one step away
_NEIGHBOURS_MAX = 1 << 17  # four directions of a 180x180 room; beyond that it starts again


@dataclass(frozen=True, slots=True)
class Size:
    rows: int
    cols: int

    @classmethod
    def parse(cls, text: str | int) -> "Size":
        if isinstance(text, int):
            return cls(text, text)
        match = _SIZE.match(str(text).strip())
        if not match:
            raise ValueError(f"not a size (ROWSxCOLS): {text!r}")
        return cls(int(match[1]), int(match[2]))

    def contains(self, square: Square) -> bool:
        return 1 <= square.row <= self.rows and 1 <= square.col <= self.cols

    def squares(self) -> list[Square]:
        """Every square, row by row from the north-west corner."""
        return [Square(r, c) for r in range(1, self.rows + 1) for c in range(1, self.cols + 1)]

    def __str__(self) -> str:
        return f"{self.rows}x{self.cols}"
