"""The bank of proven puzzles (issues #27, #34): every length a match may ask (`moves` 3-21), the deep lengths 16-21
twelve or more distinct puzzles each, the others thirty or more; a match's rounds come from it, each its own puzzle, and
the generator draws the deep lengths from it."""
from __future__ import annotations

import random

import pytest

from pbem.dm.base import Config, SetupError, get_game
from pbem.dm.gyulbot import bank
from pbem.dm.gyulbot.board import solved_after
from pbem.dm.gyulbot.game import OPTIONS
from pbem.dm.gyulbot.generator import COLOURS, generate
from pbem.dm.gyulbot.images import every_renaming, family, image
from pbem.dm.gyulbot.solver import solve
from pbem.dm.puzzlebank import EDITION, SYMMETRIES
from pbem.formats.gyulbot import parse_puzzle, puzzle_data
from tests.cli_process import imported_by

BANKED = sorted(bank.bank())
DEEP = range(bank.DEEP, bank.LONGEST + 1)
SHORT = range(bank.SHORTEST, bank.DEEP)
EVERY = [(length, puzzle) for length, puzzles in bank.bank().items() for puzzle in puzzles]


def test_the_bank_holds_distinct_puzzles_of_every_length_a_match_may_ask():
    """#34: at least 12 puzzles of each length 16-21 and 30 of each length 3-15, none an image of another
    (`images.family`), each in the standard setup; `moves` takes no length the bank does not hold."""
    assert BANKED == list(range(bank.SHORTEST, bank.LONGEST + 1))
    for moves in (bank.SHORTEST - 1, bank.LONGEST + 1):  # a match of the current edition (a new one's)
        with pytest.raises(SetupError, match=f"options.moves: must be a whole number from 3 to 21, not {moves}"):
            get_game("gyulbot").new_state(Config("gyulbot", ("ann", "bob"), options={"moves": moves, "bank": EDITION}))
    assert all(len(bank.bank()[length]) >= 12 for length in DEEP)
    assert all(len(bank.bank()[length]) >= 30 for length in SHORT)
    assert len(bank.bank()[OPTIONS["moves"].default]) >= 100
    for _, puzzle in EVERY:
        assert (puzzle.rows, puzzle.cols, puzzle.colours) == (16, 16, COLOURS) and puzzle.goal_colour in COLOURS
        assert all(len(squares) == 1 for squares in puzzle.start)
        assert parse_puzzle(puzzle_data(puzzle)) == puzzle  # the bank's reader reads the file format alike
    assert len({family(puzzle) for _, puzzle in EVERY}) == len(EVERY)


def test_family_names_a_puzzle_with_all_its_images_and_no_other():
    first, second = bank.bank()[16][:2]
    assert {family(image(first, symmetry, renaming)) for symmetry in range(SYMMETRIES)
            for renaming in every_renaming(4)} == {family(first)}
    assert family(second) != family(first)


def test_a_banked_deep_length_is_drawn_from_the_bank_by_seed():
    """B13: same seed, same puzzle; the draw is the bank's puzzle of exactly that length."""
    for length in DEEP:
        drawn = [generate(length, random.Random(seed)) for seed in range(6)]
        assert drawn == [generate(length, random.Random(seed)) for seed in range(6)]
        assert all(puzzle in bank.bank()[length] for puzzle in drawn)
    assert len({generate(16, random.Random(seed)) for seed in range(12)}) > 1


def test_other_lengths_and_setups_are_still_generated():
    """The generator climbs to the lengths below the deep ones, the default's included (`pbem gyulbot generate`)."""
    for moves in (3, OPTIONS["moves"].default):
        puzzle = generate(moves, random.Random(5))
        assert len(solve(puzzle)) == moves and puzzle not in {p for _, p in EVERY}


def test_d1_5_a_match_of_deep_puzzles_starts_at_once():
    """`dm new` with a deep `moves` option: its seeded puzzles come from the bank (as images), no hour-long climb."""
    config = Config("gyulbot", ("ann", "bob"), options={"moves": BANKED[-1]}, seed=11)
    state = get_game("gyulbot").new_state(config)
    assert state.puzzle in images_of(bank.bank()[BANKED[-1]])
    assert state.puzzle == get_game("gyulbot").new_state(config).puzzle


def images_of(puzzles) -> set:
    return {image(p, symmetry, renaming) for p in puzzles for symmetry in range(SYMMETRIES)
            for renaming in every_renaming(len(p.colours))}


@pytest.mark.parametrize("moves", BANKED)
def test_every_round_of_a_banked_match_is_its_own_puzzle(moves):
    """#34: a 10-round match at any `moves` (3-21) meets 10 distinct puzzles, not images of one another,
    another sequence for another seed, the same for the same seed (B13); each an image of a banked puzzle of that
    minimum."""
    rounds = {seed: [bank.for_round(moves, seed, number) for number in range(1, 11)] for seed in (4, 11)}
    assert all(len({family(puzzle) for puzzle in puzzles}) == 10 for puzzles in rounds.values())
    assert [family(p) for p in rounds[4]] != [family(p) for p in rounds[11]] and rounds[4][0] != rounds[11][0]
    assert rounds[4] == [bank.for_round(moves, 4, number) for number in range(1, 11)]
    assert set(rounds[4]) <= images_of(bank.bank()[moves])


def test_a_match_takes_its_rounds_from_the_draw():
    """A match of the current edition (`dm new` records it; tests/test_bank_editions.py: a match without it)."""
    config = Config("gyulbot", ("ann", "bob"), options={"moves": 20, "rounds": 10, "bank": EDITION}, seed=4)
    assert get_game("gyulbot").new_state(config).puzzle == bank.for_round(20, 4, 1)
    default = Config("gyulbot", ("ann", "bob"), options={"bank": EDITION}, seed=4)
    assert get_game("gyulbot").new_state(default).puzzle == bank.for_round(OPTIONS["moves"].default, 4, 1)


@pytest.mark.parametrize("options", [[], ["--option", "moves=20"], ["--option", "moves=10"], ["--option", "moves=3"]])
def test_dm_new_with_a_banked_length_loads_no_solver(tmp_path, options):
    """#34: the bank's puzzles are proven already: `dm new` imports neither NumPy nor the solver."""
    modules = imported_by("--db", f"sqlite:///{tmp_path}/m.db", "dm", "new", "m", "--game", "gyulbot", "--player",
                          "ann", "--player", "bob", "--seed", "3", *options, cwd=tmp_path, whole_names=True)
    assert "pbem.dm.gyulbot.game" in modules
    assert not {"numpy", "pbem.dm.gyulbot.solver", "pbem.dm.gyulbot.generator"} & modules


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


@pytest.mark.slow  # proves every puzzle of the bank again: 2-3 min of CPU (BENCHMARKS.md, #34 session 10)
@pytest.mark.parametrize("length, puzzle", EVERY, ids=[f"{length}-{i}" for i, (length, _) in enumerate(EVERY)])
def test_each_banked_minimum_is_proven_by_the_solver(length, puzzle):
    moves = solve(puzzle)
    assert len(moves) == length and solved_after(puzzle, moves) == length


def test_a_ten_round_moves_20_match_run_by_cron_meets_ten_distinct_puzzles(tmp_path):
    """#34 "Done when", end to end: `dm new --option moves=20 --option rounds=10`, then the scheduled run every 10
    minutes, nobody claiming (D1.4: each round scores nobody and the next opens): the puzzle of each of the 10
    rounds, read from the stored match, is its own (no two images of one puzzle), each of proven minimum 20."""
    from dm_desk import Desk
    from sqlmodel import Session, create_engine

    from pbem.gm.moves import position
    from pbem.store.matches import find_match

    desk = Desk(tmp_path)
    made = desk.pbem("dm", "new", "m", "--game", "gyulbot", "--player", "ann", "--player", "bob", "--seed", "4",
                     "--option", "moves=20", "--option", "rounds=10", "--option", "start=2026-12-01T20:00:00Z",
                     "--out", tmp_path, now="19:00:00")
    assert made.exit_code == 0, made.output
    puzzles = {}
    for hour, minute in ((20 + m // 60, m % 60) for m in range(0, 101, 10)):
        desk.run(f"{hour:02d}:{minute:02d}:01")
        with Session(create_engine(desk.url)) as session:
            state = position(session, find_match(session, "m"))[1]
        puzzles.setdefault(state.round, state.puzzle)
    rounds = [puzzles[number] for number in range(1, 11)]
    assert len({family(puzzle) for puzzle in rounds}) == 10
    assert set(rounds) <= images_of(bank.bank()[20])

@pytest.mark.slow  # proves every puzzle of the bank again (as the test above), then plays each solution on each puzzle
def test_no_shortest_solution_solves_a_puzzle_of_another_round():
    """A player who saw one round (its shortest solution) learns nothing that solves another round's puzzle: checked
    for every pair with a puzzle of a length edition 3 added (3-7, 9-15). Edition 2's own are not all so: three deep
    puzzles' shortest solutions (18 and 20 moves) solve an 8-move puzzle too, harmless, as a match's rounds are all
    of one length."""
    added = set(SHORT) - set(bank.PAST_EDITIONS[2])
    solutions = [(length, puzzle, solve(puzzle)) for length, puzzle in EVERY]
    solved = [(i, j) for i, (first, _, moves) in enumerate(solutions) for j, (second, other, _) in enumerate(solutions)
              if i != j and (first in added or second in added) and solved_after(other, moves) is not None]
    assert solved == []
