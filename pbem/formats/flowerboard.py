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
from .yamlfile import FormatError, Problem, line_of, read_yaml_file

SIZE = 7


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
    problems = [Problem(source, line_of(document, key), str(key), "unknown field (known: variant, board, name, notes)")
                for key in document if key not in ("variant", "board", "name", "notes")]
    try:
        chosen = variant(document.get("variant"))
    except ValueError as err:
        problems.append(Problem(source, line_of(document, "variant"), "variant", str(err)))
        chosen = None
    rows = document.get("board")
    lines: list[int | None]
    if isinstance(rows, str):
        first = line_of(document, "board")
        rows = rows.strip("\n").split("\n")
        lines = [None if first is None else first + 1 + i for i in range(len(rows))]
    elif isinstance(rows, list):
        lines = [line_of(rows, i) for i in range(len(rows))]
    else:
        problems.append(Problem(source, line_of(document, "board"), "board", "required: seven rows A–G"))
        raise FormatError(problems)
    if len(rows) != SIZE:
        problems.append(Problem(source, line_of(document, "board"), "board", f"needs {SIZE} rows, has {len(rows)}"))
    cells = []
    for index, (row, line) in enumerate(zip(rows, lines)):
        field = f"board row {chr(ord('A') + index)}"
        text = str(row).replace(" ", "")
        if len(text) != SIZE:
            problems.append(Problem(source, line, field, f"needs {SIZE} cells, has {len(text)}: {row!r}"))
            continue
        letters = {k.letter for k in chosen.kinds} if chosen else set()
        for col, char in enumerate(text):
            if chosen and char != EMPTY and char.upper() not in letters:
                problems.append(Problem(source, line, field, f"cell {col + 1}: {char!r} is not '.' or one of "
                                                             f"{', '.join(sorted(letters))}"))
        cells.append(text.upper())
    if problems or chosen is None:
        raise FormatError(problems)
    return FlowerBoard(source, chosen, "".join(cells))
