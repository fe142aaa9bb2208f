"""The bank of proven deep puzzles (issue #27): the generator draws the lengths it holds from it, by seed."""
from __future__ import annotations

import random

import pytest

from pbem.dm.base import Config, get_game
from pbem.dm.gyulbot import bank
from pbem.dm.gyulbot.board import solved_after
from pbem.dm.gyulbot.generator import COLOURS, generate
from pbem.dm.gyulbot.solver import solve
from pbem.formats.gyulbot import parse_puzzle, puzzle_data

BANKED = sorted(bank.bank())
EVERY = [(length, puzzle) for length, puzzles in bank.bank().items() for puzzle in puzzles]


def test_the_bank_holds_every_deep_length_in_the_standard_setup():
    assert BANKED == list(range(BANKED[0], BANKED[-1] + 1)) and BANKED[0] <= 16 and BANKED[-1] >= 20
    for _, puzzle in EVERY:
        assert (puzzle.rows, puzzle.cols, puzzle.colours) == (16, 16, COLOURS) and puzzle.goal_colour in COLOURS
        assert all(len(squares) == 1 for squares in puzzle.start)
        assert parse_puzzle(puzzle_data(puzzle)) == puzzle  # the bank's reader reads the file format alike
    assert len({puzzle for _, puzzle in EVERY}) == len(EVERY)


def test_a_banked_length_is_drawn_from_the_bank_by_seed():
    """B13: same seed, same puzzle; the draw is the bank's puzzle of exactly that length."""
    for length in BANKED:
        drawn = [generate(length, random.Random(seed)) for seed in range(6)]
        assert drawn == [generate(length, random.Random(seed)) for seed in range(6)]
        assert all(puzzle in bank.bank()[length] for puzzle in drawn)
    if len(bank.bank()[BANKED[0]]) > 1:
        assert len({generate(BANKED[0], random.Random(seed)) for seed in range(12)}) > 1


def test_other_lengths_and_setups_are_still_generated():
    assert bank.draw(BANKED[0] - 1, random.Random(1)) is None
    puzzle = generate(3, random.Random(5))
    assert len(solve(puzzle)) == 3 and puzzle not in {p for _, p in EVERY}


def test_d1_5_a_match_of_deep_puzzles_starts_at_once():
    """`dm new` with a deep `moves` option: its seeded puzzles come from the bank, no hour-long climb."""
    config = Config("gyulbot", ("ann", "bob"), options={"moves": BANKED[-1]}, seed=11)
    state = get_game("gyulbot").new_state(config)
    assert state.puzzle in bank.bank()[BANKED[-1]] and state.puzzle == get_game("gyulbot").new_state(config).puzzle


@pytest.mark.slow  # proves every puzzle of the bank again: a few minutes of CPU
@pytest.mark.parametrize("length, puzzle", EVERY, ids=[f"{length}-{i}" for i, (length, _) in enumerate(EVERY)])
def test_each_banked_minimum_is_proven_by_the_solver(length, puzzle):
    moves = solve(puzzle)
    assert len(moves) == length and solved_after(puzzle, moves) == length
