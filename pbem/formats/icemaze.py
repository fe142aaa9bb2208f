"""Ice maze files (DESIGN.md "Ice maze"): a `map:` of `# . G S *`, as a block string or a list of rows.

Everything wrong is reported at once, each problem with its line and field:
the size (RULES D2.1: 5x5 to 20x20), ragged rows, unknown characters, no snom,
fewer goals than snoms.
"""
from __future__ import annotations

from pathlib import Path
from typing import Any

import yaml

from ..dm.icemaze.maze import GOAL, ICE, MAX_SIDE, MIN_SIDE, ROCK, SNOM, SNOM_ON_GOAL, Maze
from .dmpuzzles import PuzzleFormat
from .fields import Fields
from .yamlfile import FormatError, Problem, line_of, read_yaml_file

SYMBOLS = ROCK + ICE + GOAL + SNOM + SNOM_ON_GOAL
KEYS = ("map", "name", "notes")


def read_maze_file(path: str | Path) -> Maze:
    return parse_maze(read_yaml_file(path), str(path))


def parse_maze(data: Any, source: str = "<maze>") -> Maze:
    """A maze from loaded YAML: a mapping with `map:`, or the map itself (block string or list of rows)."""
    if isinstance(data, dict):
        fields = Fields(source)
        fields.unknown(data, KEYS, f"unknown field; expected one of {', '.join(KEYS)}")
        problems = fields.problems
        if "map" not in data:
            problems.append(Problem(source, getattr(data, "line", None), "map", "missing"))
            raise FormatError(problems)
        rows = _rows(data["map"], source, line_of(data, "map"), problems)
    else:
        problems = []
        rows = _rows(data, source, getattr(data, "line", None), problems)
    if rows is not None:
        _check_map(rows, source, problems)
    if problems or rows is None:
        raise FormatError(problems)
    return Maze.from_rows([text for text, _ in rows])


def _rows(value: Any, source: str, line: int | None, problems: list[Problem]) -> list[tuple[str, int | None]] | None:
    """(row text, line) pairs, or None after recording why the map is not rows of text."""
    if isinstance(value, str):
        lines = value.splitlines()
        if len(lines) < 2:
            problems.append(Problem(source, line, "map", f"one row per line (`map: |` and the rows below it), not {value!r}"))
            return None
        first = line + 1 if line is not None and len(lines) > 1 else line
        rows = [(text.strip(), None if first is None else first + i) for i, text in enumerate(lines)]
        return [(text, at) for text, at in rows if text]
    if isinstance(value, list):
        rows = []
        for i, text in enumerate(value):
            if not isinstance(text, str):
                problems.append(Problem(source, line_of(value, i) or line, f"map row {i + 1}", "must be a string of # . G S *"))
            else:
                rows.append((text.strip(), line_of(value, i) or line))
        return None if len(rows) < len(value) else rows
    problems.append(Problem(source, line, "map", "must be a block string or a list of row strings of # . G S *"))
    return None


def _check_map(rows: list[tuple[str, int | None]], source: str, problems: list[Problem]) -> None:
    first_line = rows[0][1] if rows else None
    if not MIN_SIDE <= len(rows) <= MAX_SIDE:
        problems.append(Problem(source, first_line, "map", f"{len(rows)} rows; a maze has {MIN_SIDE} to {MAX_SIDE}"))
    if not rows:
        return
    width = len(rows[0][0])
    if not MIN_SIDE <= width <= MAX_SIDE:
        problems.append(Problem(source, first_line, "map", f"{width} columns; a maze has {MIN_SIDE} to {MAX_SIDE}"))
    for i, (text, at) in enumerate(rows):
        field = f"map row {i + 1}"
        if len(text) != width:
            problems.append(Problem(source, at, field, f"{len(text)} columns, but row 1 has {width}"))
        for col, symbol in enumerate(text):
            if symbol not in SYMBOLS:
                problems.append(Problem(source, at, field, f"column {col + 1}: unknown symbol {symbol!r}; use # . G S *"))
    text = "".join(row for row, _ in rows)
    snoms = text.count(SNOM) + text.count(SNOM_ON_GOAL)
    goals = text.count(GOAL) + text.count(SNOM_ON_GOAL)
    if snoms == 0:
        problems.append(Problem(source, first_line, "map", "no snom (S, or * for a snom on a goal)"))
    if goals < snoms:
        problems.append(Problem(source, first_line, "map", f"{goals} goals for {snoms} snoms; there must be at least as many goals"))


def maze_yaml(maze: Maze, name: str | None = None, notes: str | None = None) -> str:
    """A maze file's text, the map as a block string."""
    header = {key: value for key, value in (("name", name), ("notes", notes)) if value}
    lines = [yaml.safe_dump(header, sort_keys=False, width=1000).rstrip()] if header else []
    lines.append("map: |")
    lines.extend(f"  {row}" for row in maze.to_rows())
    return "\n".join(lines) + "\n"


def maze_data(maze: Maze) -> dict[str, Any]:
    """A maze as the data `parse_maze` reads (a transcript's puzzle)."""
    return {"map": maze.to_rows()}


PUZZLES = PuzzleFormat(parse_maze, maze_data)  # named by the registry (pbem.games)
