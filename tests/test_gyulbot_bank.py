"""The bank of proven deep puzzles (issue #27): the generator draws the lengths it holds from it, by seed."""
from __future__ import annotations

import random

import pytest

from pbem.dm.base import Config, get_game
from pbem.dm.gyulbot import bank
from pbem.dm.gyulbot.board import solved_after
from pbem.dm.gyulbot.generator import COLOURS, generate
from pbem.dm.gyulbot.images import SYMMETRIES, every_renaming, image
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
    """`dm new` with a deep `moves` option: its seeded puzzles come from the bank (as images), no hour-long climb."""
    config = Config("gyulbot", ("ann", "bob"), options={"moves": BANKED[-1]}, seed=11)
    state = get_game("gyulbot").new_state(config)
    assert state.puzzle in images_of(bank.bank()[BANKED[-1]])
    assert state.puzzle == get_game("gyulbot").new_state(config).puzzle


def images_of(puzzles) -> set:
    return {image(p, symmetry, renaming) for p in puzzles for symmetry in range(SYMMETRIES)
            for renaming in every_renaming(len(p.colours))}


@pytest.mark.parametrize("moves", range(16, 22))
def test_every_round_of_a_deep_match_is_its_own_puzzle(moves):
    """#34: a 10-round match at moves 16-21 meets 10 distinct puzzles, another set for another seed, the same for the
    same seed (B13); each is an image of a banked puzzle of that minimum."""
    rounds = {seed: [bank.for_round(moves, seed, number) for number in range(1, 11)] for seed in (4, 11)}
    assert all(len(set(puzzles)) == 10 for puzzles in rounds.values())
    assert rounds[4] != rounds[11] and rounds[4][0] != rounds[11][0]
    assert rounds[4] == [bank.for_round(moves, 4, number) for number in range(1, 11)]
    assert set(rounds[4]) <= images_of(bank.bank()[moves])


def test_a_match_takes_its_rounds_from_the_draw():
    config = Config("gyulbot", ("ann", "bob"), options={"moves": 20, "rounds": 10}, seed=4)
    assert get_game("gyulbot").new_state(config).puzzle == bank.for_round(20, 4, 1)


def test_an_image_keeps_the_minimum_under_every_symmetry_and_renaming():
    """D1.2-D1.3 name no direction and no colour but the goal's: every image of a puzzle has its minimum."""
    puzzle = generate(6, random.Random(3))
    lengths = {len(solve(image(puzzle, symmetry, renaming))) for symmetry in range(SYMMETRIES)
               for renaming in every_renaming(4)[::5]}
    assert lengths == {6}
    assert image(puzzle, 0, (0, 1, 2, 3)) == puzzle and len(images_of([puzzle])) == SYMMETRIES * 24


@pytest.mark.slow  # a few deep solves: a minute of CPU
@pytest.mark.parametrize("moves", [16, 21])
def test_a_drawn_image_of_a_deep_puzzle_is_proven_by_the_solver(moves):
    for number in (1, 2):
        puzzle = bank.for_round(moves, 11, number)
        assert len(solve(puzzle)) == moves


@pytest.mark.slow  # proves every puzzle of the bank again: a few minutes of CPU
@pytest.mark.parametrize("length, puzzle", EVERY, ids=[f"{length}-{i}" for i, (length, _) in enumerate(EVERY)])
def test_each_banked_minimum_is_proven_by_the_solver(length, puzzle):
    moves = solve(puzzle)
    assert len(moves) == length and solved_after(puzzle, moves) == length
