"""Banks of proven puzzles shipped with pbem (Gyulbot's and Ice's): one JSON object a line, each with the minimum the
exact solver proved (the tests prove them all again), so a match whose puzzles the bank holds starts without a search
and `dm new` loads no solver (issue #34).

A match's rounds take the bank's puzzles of the match's kind in an order drawn by its seed, each as an image drawn by
the seed too (the board turned or mirrored, colours renamed: the same minimum), so no round repeats another before the
bank's puzzles of that kind are used up, and then only as other images (B13: same seed, same rounds).

A bank that grows would deal a stored match other rounds than it was played with, so each match draws from one
edition of the banks, its option `bank`: a match stored without it (by pbem before the banks grew) has edition 1,
each game's bank module says what an edition holds, and a new match records the current edition (`OPTION.new`).
"""
from __future__ import annotations

import json
from functools import lru_cache
from importlib import resources
from typing import Any

from ..engine.rng import derive_rng
from .base import Option

EDITION = 3  # the banks' current edition, recorded by every new match; 1 is what pbem dealt before #34 session 10
OPTION = Option(1, choices=tuple(range(1, EDITION + 1)), new=EDITION,
                shown_default=f"{EDITION} for a new match, 1 for one stored without it",
                about="the edition of pbem's puzzle bank the match draws from")

SYMMETRIES = 8  # four quarter turns, each with and without a mirror


@lru_cache(maxsize=None)
def records(package: str, name: str) -> tuple[dict[str, Any], ...]:
    """Every record of a bank file, in file order (pbem's own file, checked by its tests: no user input)."""
    text = resources.files(package).joinpath(name).read_text(encoding="utf-8")
    return tuple(json.loads(line) for line in text.splitlines())


def pick(seed: int | str, number: int, count: int, images: int, game: str) -> tuple[int, int]:
    """Round `number`'s puzzle among `count` banked ones, each with `images` images: (its index, its image's)."""
    order = derive_rng(seed, 0, 0, f"{game} bank order").sample(range(count), count)
    lap, place = divmod(number - 1, count)
    kinds = derive_rng(seed, order[place], 0, f"{game} bank image").sample(range(images), images)
    return order[place], kinds[lap % images]


def symmetric(row: int, col: int, size: int, symmetry: int) -> tuple[int, int]:
    """Square (row, col), counted from 1 on a board of side `size`, mirrored left-right when `symmetry` >= 4, then
    turned clockwise `symmetry % 4` quarter turns."""
    if symmetry >= 4:
        col = size + 1 - col
    for _ in range(symmetry % 4):
        row, col = col, size + 1 - row
    return row, col
