"""Deep puzzles shipped with pbem (`deep-puzzles.jsonl`): 16x16 boards, four single robots, a coloured
goal, each with its minimum proven by the exact solver (tests/test_gyulbot_bank.py proves them again).

The generator's hill climb needs minutes to hours of CPU for the deepest lengths (BENCHMARKS.md, issue
#27), so `generator.generate` draws a puzzle of a length the bank holds from it, by the caller's seeded RNG,
and a match's rounds (`for_round`) take the bank's puzzles in a seeded order as seeded images (`images.py`), so
no round repeats another.
The file holds one JSON object a line, `{"optimal": N, "puzzle": {...}}` in the DESIGN.md puzzle format,
as written by `formats.gyulbot.puzzle_data`.
"""
from __future__ import annotations

import json
import random
from functools import lru_cache
from importlib import resources
from typing import Any

from ...engine.geometry import Dir, Square
from ...engine.rng import derive_rng
from .board import Puzzle
from .images import SYMMETRIES, every_renaming, image

FILE = "deep-puzzles.jsonl"


@lru_cache(maxsize=1)
def bank() -> dict[int, tuple[Puzzle, ...]]:
    """The bank's puzzles by proven minimum, in file order."""
    by_length: dict[int, list[Puzzle]] = {}
    for line in resources.files(__package__).joinpath(FILE).read_text(encoding="utf-8").splitlines():
        record = json.loads(line)
        by_length.setdefault(record["optimal"], []).append(_puzzle(record["puzzle"]))
    return {length: tuple(puzzles) for length, puzzles in sorted(by_length.items())}


def draw(moves: int, rng: random.Random) -> Puzzle | None:
    """A bank puzzle whose minimum is exactly `moves`, chosen by `rng`; None when it holds none."""
    puzzles = bank().get(moves)
    return rng.choice(puzzles) if puzzles else None


def for_round(moves: int, seed: int, number: int) -> Puzzle | None:
    """Round `number`'s puzzle of a match with `seed` whose puzzles have minimum `moves`; None when the bank holds
    none. A match never meets one twice: it takes the bank's puzzles of that length in an order drawn by its seed,
    each as an image (`images.py`: board turned or mirrored, colours renamed) drawn by the seed too, and after the
    last of them, the same puzzles again as other images (B13: same seed, same rounds)."""
    puzzles = bank().get(moves)
    if not puzzles:
        return None
    order = derive_rng(seed, 0, 0, "gyulbot bank order").sample(range(len(puzzles)), len(puzzles))
    lap, place = divmod(number - 1, len(puzzles))
    base = puzzles[order[place]]
    renamings = every_renaming(len(base.colours))
    kinds = derive_rng(seed, order[place], 0, "gyulbot bank image").sample(range(SYMMETRIES * len(renamings)),
                                                                        SYMMETRIES * len(renamings))
    symmetry, renaming = divmod(kinds[lap % len(kinds)], len(renamings))
    return image(base, symmetry, renamings[renaming])


def _puzzle(data: dict[str, Any]) -> Puzzle:
    """A puzzle of the bank (the file format, written by pbem and checked by its tests: no user input)."""
    walls = [(Square.parse(square), Dir.parse(side)) for square, side in (wall.split() for wall in data["walls"])]
    robots = {colour: [Square.parse(square) for square in squares] for colour, squares in data["robots"].items()}
    goal = data["goal"]
    return Puzzle.build(data["size"], data["size"], walls, robots, Square.parse(goal["at"]), goal["colour"])
