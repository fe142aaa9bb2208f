"""The puzzles of death-match transcripts, per game: raw file data ↔ the game's own puzzle objects.

The games (below this layer) take only their domain objects in `Config.puzzles`;
everything that builds a Config from a file or the store converts through here.
"""
from __future__ import annotations

from typing import Any, Callable, NamedTuple

from .gyulbot import parse_puzzle, puzzle_data
from .icemaze import parse_maze
from .yamlfile import FormatError, Problem


class PuzzleFormat(NamedTuple):
    read: Callable[[Any, str], Any]  # raw data, source → puzzle; FormatError listing every problem
    write: Callable[[Any], Any]  # puzzle → raw data that `read` reads back


FORMATS: dict[str, PuzzleFormat] = {
    "gyulbot": PuzzleFormat(parse_puzzle, puzzle_data),
    "ice": PuzzleFormat(parse_maze, lambda maze: {"map": maze.to_rows()}),
}


def read_puzzles(game: str, raw: list[Any]) -> tuple[tuple[Any, ...], list[Problem]]:
    """The puzzles `raw` holds for `game` (sources `puzzles[I]`), and every problem with them."""
    if raw and game not in FORMATS:
        return (), [Problem("puzzles", None, "puzzles", f"{game} takes no puzzles")]
    puzzles, problems = [], []
    for index, data in enumerate(raw):
        try:
            puzzles.append(FORMATS[game].read(data, f"puzzles[{index}]"))
        except FormatError as err:
            problems.extend(err.problems)
    return tuple(puzzles), problems


def puzzle_documents(game: str, puzzles: tuple[Any, ...]) -> list[Any]:
    """The raw form of a Config's puzzles, for transcripts and the store."""
    return [FORMATS[game].write(puzzle) for puzzle in puzzles]


PUZZLE_KINDS = {  # the field that tells a death-match puzzle file from a room (which has `size` or `map`, and `elements`)
    "ice": ("map", "Ice maze"),
    "gyulbot": ("goal", "Gyulbot puzzle"),
}


def puzzle_kind(data: Any) -> str | None:
    """The death-match game whose puzzle file `data` looks like (None: it may be a room)."""
    if not isinstance(data, dict) or "elements" in data or "starts" in data or _room_map(data.get("map")):
        return None
    if "board" in data and "variant" in data:
        return "flowerfield"
    return next((game for game, (field, _) in PUZZLE_KINDS.items() if field in data), None)


def _room_map(value: Any) -> bool:
    """A room's `map:` (cells with spaces between them), not an ice maze's rows of `# . G S *`."""
    rows = value.splitlines() if isinstance(value, str) else value if isinstance(value, list) else []
    return any(isinstance(row, str) and " " in row.strip() for row in rows)
