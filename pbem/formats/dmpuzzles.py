"""The puzzles of death-match transcripts, per game: raw file data ↔ the game's own puzzle objects.

The games (below this layer) take only their domain objects in `Config.puzzles`;
everything that builds a Config from a file or the store converts through here. Which games take puzzles, and
which files are a game's rather than a room, the registry says (`pbem.games`: `Entry.puzzles`, `.puzzle_file`).
"""
from __future__ import annotations

from typing import Any, Callable, NamedTuple

from ..games import entries, find, part
from .yamlfile import FormatError, Problem


class PuzzleFormat(NamedTuple):
    read: Callable[[Any, str], Any]  # raw data, source → puzzle; FormatError listing every problem
    write: Callable[[Any], Any]  # puzzle → raw data that `read` reads back


def puzzle_format(game: str) -> PuzzleFormat | None:
    """How `game`'s puzzles are read and written (None: it takes none)."""
    found = find(game)
    return part(found.puzzles) if found is not None and found.puzzles else None


def read_puzzles(game: str, raw: list[Any]) -> tuple[tuple[Any, ...], list[Problem]]:
    """The puzzles `raw` holds for `game` (sources `puzzles[I]`), and every problem with them."""
    form = puzzle_format(game)
    if form is None:
        return (), [Problem("puzzles", None, "puzzles", f"{game} takes no puzzles")] if raw else []
    puzzles, problems = [], []
    for index, data in enumerate(raw):
        try:
            puzzles.append(form.read(data, f"puzzles[{index}]"))
        except FormatError as err:
            problems.extend(err.problems)
    return tuple(puzzles), problems


def puzzle_documents(game: str, puzzles: tuple[Any, ...]) -> list[Any]:
    """The raw form of a Config's puzzles, for transcripts and the store."""
    form = puzzle_format(game)
    return [form.write(puzzle) for puzzle in puzzles] if form is not None else []


def puzzle_kind(data: Any) -> str | None:
    """The death-match game whose puzzle file `data` looks like (None: it may be a room); the game asking for the
    most fields first (a Flower Field board has a `board` and a `variant`)."""
    if not isinstance(data, dict) or "elements" in data or "starts" in data or _room_map(data.get("map")):
        return None
    files = sorted(((game.name, game.puzzle_file.fields) for game in entries() if game.puzzle_file is not None),
                   key=lambda item: -len(item[1]))
    return next((game for game, fields in files if all(field in data for field in fields)), None)


def _room_map(value: Any) -> bool:
    """A room's `map:` (cells with spaces between them), not an ice maze's rows of `# . G S *`."""
    rows = value.splitlines() if isinstance(value, str) else value if isinstance(value, list) else []
    return any(isinstance(row, str) and " " in row.strip() for row in rows)
