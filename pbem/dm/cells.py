"""Cell names of the lettered DM boards: row letter then column number (`A1`…`G7`)."""
from __future__ import annotations

import re

_CELL = re.compile(r"^\s*([A-Za-z])\s*(\d{1,18})\s*$")


def cell_name(index: int, cols: int) -> str:
    row, col = divmod(index, cols)
    return f"{chr(ord('A') + row)}{col + 1}"


def parse_cell(text: object, rows: int, cols: int) -> int:
    """The index (row * cols + col) of a cell name; ValueError with the reason otherwise."""
    match = _CELL.match(str(text))
    if not match:
        raise ValueError(f"{text!r} is not a cell name like A1")
    row = ord(match.group(1).upper()) - ord("A")
    col = int(match.group(2)) - 1
    if not (0 <= row < rows and 0 <= col < cols):
        last = f"{chr(ord('A') + rows - 1)}{cols}"
        raise ValueError(f"{text!r} is off the board (A1…{last})")
    return row * cols + col


def neighbours(index: int, rows: int, cols: int) -> list[int]:
    """The orthogonally adjacent cells, in index order."""
    row, col = divmod(index, cols)
    found = []
    for r, c in ((row - 1, col), (row, col - 1), (row, col + 1), (row + 1, col)):
        if 0 <= r < rows and 0 <= c < cols:
            found.append(r * cols + c)
    return found
