"""The Ice maze's bank of proven mazes (issue #34): the default kind, so `dm new` with the default options loads no
solver; each round its own maze, by seed (B13)."""
from __future__ import annotations

import pytest

from pbem.dm.base import Config, get_game
from pbem.dm.icemaze import bank
from pbem.dm.icemaze.game import OPTIONS, maze_at
from pbem.dm.icemaze.maze import Maze, solves
from pbem.dm.icemaze.solver import solve
from pbem.dm.puzzlebank import EDITION, SYMMETRIES, records
from tests.cli_process import imported_by

SIZE, SNOMS, MOVES = OPTIONS["size"].default, OPTIONS["snoms"].default, OPTIONS["moves"].default
KIND = (SIZE.rows, SIZE.cols, SNOMS, MOVES)
EVERY = [(record["optimal"], record["map"]) for record in records("pbem.dm.icemaze", bank.FILE)]


def test_the_bank_holds_the_default_kind_and_no_maze_twice():
    """Every record is of the default kind, none an image of another (`bank.family`)."""
    assert len(bank.banked(*KIND)) == len(EVERY) >= 200
    assert len({bank.family(Maze.from_rows(rows)) for _, rows in EVERY}) == len(EVERY)


def test_an_image_keeps_the_minimum_and_family_names_every_image():
    maze = Maze.from_rows(bank.banked(*KIND)[0])
    other = Maze.from_rows(bank.banked(*KIND)[1])
    images = [bank.image(maze, symmetry) for symmetry in range(SYMMETRIES)]
    assert len(set(images)) == SYMMETRIES and bank.image(maze, 0) == maze
    assert {solve(image).moves for image in images} == {MOVES}
    assert {bank.family(image) for image in images} == {bank.family(maze)} != {bank.family(other)}


@pytest.mark.parametrize("rounds", [10, 25])
def test_every_round_of_a_default_match_is_its_own_maze(rounds):
    """#34: a match's mazes are distinct (not images of one another) for every round it can play, another sequence
    for another seed, the same for the same seed (B13)."""
    mazes = {seed: [bank.for_round(*KIND, seed, n) for n in range(1, rounds + 1)] for seed in (4, 11)}
    assert all(len({bank.family(maze) for maze in seq if maze}) == rounds for seq in mazes.values())
    assert mazes[4] != mazes[11]
    assert mazes[4] == [bank.for_round(*KIND, 4, n) for n in range(1, rounds + 1)]


def test_a_default_match_deals_banked_mazes_and_other_kinds_are_generated():
    """A match of the current edition (`dm new` records it; tests/test_bank_editions.py: a match without it)."""
    state = get_game("ice").new_state(Config("ice", ("ann", "bob"), options={"bank": EDITION}, seed=4))
    families = {bank.family(Maze.from_rows(rows)) for _, rows in EVERY}
    assert bank.family(maze_at(state, 0)) in families and bank.family(maze_at(state, 1)) in families
    deep = get_game("ice").new_state(Config("ice", ("ann", "bob"), options={"moves": 15, "bank": EDITION}, seed=4))
    assert bank.for_round(SIZE.rows, SIZE.cols, SNOMS, 15, 4, 1) is None
    assert solve(maze_at(deep, 0)).moves == 15 and maze_at(deep, 0) != maze_at(deep, 1)


def test_dm_new_with_the_default_options_loads_no_solver(tmp_path):
    modules = imported_by("--db", f"sqlite:///{tmp_path}/m.db", "dm", "new", "m", "--game", "ice", "--player", "ann",
                          "--player", "bob", "--seed", "3", cwd=tmp_path, whole_names=True)
    assert "pbem.dm.icemaze.game" in modules
    assert not {"numpy", "pbem.dm.icemaze._search", "pbem.dm.icemaze.generate"} & modules


@pytest.mark.slow  # proves every maze of the bank again
def test_each_banked_minimum_is_proven_by_the_solver():
    for moves, rows in EVERY:
        maze = Maze.from_rows(rows)
        solution = solve(maze)
        assert solution.moves == moves and solves(maze, solution.orders or "")
