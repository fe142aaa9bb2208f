"""Flower Field board files (DESIGN.md "Flower Field board"): `variant:` and seven rows A–G of seven cells.

A row is a string of seven characters, `.` for empty, else a kind's letter
of the variant (spaces between cells are allowed); `board:` may also be one
block string of seven lines.
"""
from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path
from typing import Any

from ..dm.flowerfield.fields import EMPTY
from ..dm.flowerfield.variants import Variant, variant
from .fields import Fields
from .yamlfile import FormatError, Problem, line_of, read_yaml_file

SIZE = 7
KEYS = ("variant", "board", "name", "notes")


@dataclass(frozen=True)
class FlowerBoard:
    source: str
    variant: Variant
    board: str  # 49 characters, row A first


def read_flower_board(path: str | Path) -> FlowerBoard:
    return parse_flower_board(read_yaml_file(path), str(path))


def parse_flower_board(document: Any, source: str) -> FlowerBoard:
    if not isinstance(document, dict):
        raise FormatError([Problem(source, None, "", "a board file is a mapping with variant and board")])
    fields = Fields(source)
    fields.unknown(document, KEYS, f"unknown field (known: {', '.join(KEYS)})")
    try:
        chosen: Variant | None = variant(document.get("variant"))
    except ValueError as err:
        fields.add(document, "variant", "variant", str(err))
        chosen = None
    rows = _rows(document.get("board"), line_of(document, "board"))
    if rows is None:
        fields.add(document, "board", "board", "required: seven rows A–G")
        raise FormatError(fields.problems)
    if len(rows) != SIZE:
        fields.add(document, "board", "board", f"needs {SIZE} rows, has {len(rows)}")
    letters = None if chosen is None else {kind.letter for kind in chosen.kinds}
    cells = "".join(_cells(index, row, line, letters, fields) for index, (row, line) in enumerate(rows))
    if fields.problems or chosen is None:
        raise FormatError(fields.problems)
    return FlowerBoard(source, chosen, cells)


def _rows(board: Any, line: int | None) -> list[tuple[Any, int | None]] | None:
    """(row, line) for each row: of a list, or of a block string's lines (None when it is neither)."""
    if isinstance(board, str):
        rows = board.strip("\n").split("\n")
        return [(row, None if line is None else line + 1 + index) for index, row in enumerate(rows)]
    if isinstance(board, list):
        return [(row, line_of(board, index)) for index, row in enumerate(board)]
    return None


def _cells(index: int, row: Any, line: int | None, letters: set[str] | None, fields: Fields) -> str:
    """Row A, B … as its seven cells in capitals; every cell that is not '.' nor a letter of the variant is a
    problem (none is checked without a variant)."""
    field = f"board row {chr(ord('A') + index)}"
    text = str(row).replace(" ", "")
    if len(text) != SIZE:
        fields.at(line, field, f"needs {SIZE} cells, has {len(text)}: {row!r}")
        return ""
    for col, char in enumerate(text):
        if letters is not None and char != EMPTY and char.upper() not in letters:
            fields.at(line, field, f"cell {col + 1}: {char!r} is not '.' or one of {', '.join(sorted(letters))}")
    return text.upper()
