"""Gyulbot's bank of proven puzzles (`puzzles.jsonl`, read by `puzzlebank.py`): 16x16 boards, four single robots, a
coloured goal, the standard setup; every length a match may ask (`moves` `SHORTEST` to `LONGEST`), so that `dm new`
loads no solver: the deep lengths 16-21, which the generator's hill climb needs minutes to hours of CPU for (BENCHMARKS.md,
issue #27), grown from one another by `benchmarks/grow_bank.py`, the others from its generator. No two are images of
one another (`images.family`), and no puzzle's shortest solution solves another.
A match's rounds with a banked length come from here (`for_round`); `generator.generate` draws the deep lengths
from here too. The file holds one JSON object a line, `{"optimal": N, "puzzle": {...}}` in the DESIGN.md puzzle
format, as written by `formats.gyulbot.puzzle_data`.
"""
from __future__ import annotations

import random
from functools import lru_cache
from typing import Any

from ...engine.geometry import Dir, Square
from .. import puzzlebank
from ..puzzlebank import EDITION, SYMMETRIES
from .board import Puzzle
from .images import every_renaming, image

FILE = "puzzles.jsonl"
DEEP = 16  # from this length on the generator draws from the bank: its climb would take minutes
LONGEST = 21  # the longest minimum the bank holds, and so a match's `moves` at most
# the shortest: a puzzle of one or two moves is solved by the first moves of a banked puzzle's solution, so no bank
# of them keeps its promise that no round's solution solves another
SHORTEST = 3
# what each past edition of the bank held (the file only grows): the first so many puzzles of each length; the current
# edition (`puzzlebank.EDITION`) holds them all
PAST_EDITIONS = {1: {16: 8, 17: 7, 18: 3, 19: 2, 20: 1, 21: 1},  # 1: deep-puzzles.jsonl, before #34 session 10
                 2: {8: 150, **{length: 12 for length in range(DEEP, LONGEST + 1)}}}  # 2: until #34 session 11
BOUNDED = 3  # the first edition to hold every length from SHORTEST to LONGEST, and so to bound `moves` to them


def allows(moves: int, edition: int) -> bool:
    """Whether a match drawing from the bank's `edition` may ask puzzles of minimum `moves` (a whole number): from
    edition `BOUNDED` on only a length the bank holds (a longer one would take the generator hours; a shorter one no
    bank can hold); an earlier edition generated a length it lacked from the match's seed, so its matches may hold
    any."""
    return edition < BOUNDED or SHORTEST <= moves <= LONGEST


def bank() -> dict[int, tuple[Puzzle, ...]]:
    """The bank's puzzles by proven minimum, in file order."""
    return {length: tuple(_puzzle(length, i) for i in range(len(_records(length)))) for length in lengths()}


def lengths() -> list[int]:
    return sorted({record["optimal"] for record in puzzlebank.records(__package__, FILE)})


def draw(moves: int, rng: random.Random) -> Puzzle | None:
    """A bank puzzle whose minimum is exactly `moves`, chosen by `rng`; None when it holds none."""
    count = len(_records(moves))
    return _puzzle(moves, rng.randrange(count)) if count else None


def for_round(moves: int, seed: int, number: int, edition: int = EDITION) -> Puzzle | None:
    """Round `number`'s puzzle of a match with `seed` whose puzzles have minimum `moves`, from the bank's `edition`
    (`puzzlebank.pick`: each round its own puzzle, as an image: board turned or mirrored, colours renamed); None when
    that edition holds none."""
    count = held(moves, edition)
    if not count:
        return None
    renamings = every_renaming(4)
    index, kind = puzzlebank.pick(seed, number, count, SYMMETRIES * len(renamings), "gyulbot")
    symmetry, renaming = divmod(kind, len(renamings))
    return image(_puzzle(moves, index), symmetry, renamings[renaming])


def held(moves: int, edition: int) -> int:
    """How many puzzles of minimum `moves` the bank's `edition` holds: the first ones of that length in the file."""
    past = PAST_EDITIONS.get(edition)
    return len(_records(moves)) if past is None else past.get(moves, 0)


@lru_cache(maxsize=None)
def _records(moves: int) -> tuple[dict[str, Any], ...]:
    return tuple(record["puzzle"] for record in puzzlebank.records(__package__, FILE) if record["optimal"] == moves)


@lru_cache(maxsize=None)
def _puzzle(moves: int, index: int) -> Puzzle:
    """The bank's puzzle `index` of minimum `moves` (pbem's own file, checked by its tests: no user input)."""
    data = _records(moves)[index]
    walls = [(Square.parse(square), Dir.parse(side)) for square, side in (wall.split() for wall in data["walls"])]
    robots = {colour: [Square.parse(square) for square in squares] for colour, squares in data["robots"].items()}
    goal = data["goal"]
    return Puzzle.build(data["size"], data["size"], walls, robots, Square.parse(goal["at"]), goal["colour"])
