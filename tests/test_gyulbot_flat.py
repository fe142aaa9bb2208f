"""The solver's integer form of a puzzle and the tables its compiled search builds from it (`_search.tables`),
against plain computations on the rules model (`Puzzle.blocked`), on small square and oblong boards."""
from __future__ import annotations

import dataclasses
import random
from array import array

import pytest

from pbem.dm.gyulbot import _search
from pbem.dm.gyulbot.board import Puzzle
from pbem.dm.gyulbot.flat import flatten
from pbem.engine.geometry import Dir, Square


def random_board(rng: random.Random) -> Puzzle:
    """Oblong boards too (rows != cols), walls anywhere (the edge included), bodies of two."""
    rows, cols = rng.randint(3, 8), rng.randint(3, 8)
    squares = [Square(r, c) for r in range(1, rows + 1) for c in range(1, cols + 1)]
    walls = [(rng.choice(squares), rng.choice(list(Dir))) for _ in range(rng.randint(0, rows * cols // 2))]
    spots = rng.sample(squares, 6)
    robots = {"red": [spots[0]], "green": sorted(spots[1:3]), "blue": [spots[3]], "yellow": [spots[4]]}
    return Puzzle.build(rows, cols, walls, robots, spots[5], rng.choice(["red", "green", None]))


PUZZLES = [random_board(random.Random(seed)) for seed in range(60)]


def cell(puzzle: Puzzle, square: Square) -> int:
    return (square.row - 1) * puzzle.cols + square.col - 1


def squares(puzzle: Puzzle) -> list[Square]:
    return [Square(r, c) for r in range(1, puzzle.rows + 1) for c in range(1, puzzle.cols + 1)]


def decoded(puzzle: Puzzle) -> Puzzle:
    """A puzzle built from nothing but the flat form's numbers."""
    flat = puzzle.flat
    spec = flat.spec.tolist()
    at = lambda k: Square(k // flat.cols + 1, k % flat.cols + 1)
    walls = [(at(k), side) for k in range(flat.rows * flat.cols) for side in Dir if spec[k] >> side & 1]
    colours = len(puzzle.colours)
    sizes = spec[len(spec) - 2 * colours:len(spec) - colours]
    robot_cells = iter(spec[flat.rows * flat.cols:flat.rows * flat.cols + flat.robots])
    robots = {name: [at(next(robot_cells)) for _ in range(size)] for name, size in zip(puzzle.colours, sizes)}
    finishing = spec[len(spec) - colours:]
    goal_colour = None if all(finishing) else puzzle.colours[finishing.index(1)]
    return Puzzle.build(flat.rows, flat.cols, walls, robots, at(flat.goal), goal_colour)


@pytest.mark.parametrize("puzzle", PUZZLES[:20])
def test_the_flat_form_round_trips(puzzle):
    """Its numbers rebuild a puzzle that moves alike (every blocked side, robots, goal, finishers)
    and flattens to the same numbers."""
    again = decoded(puzzle)
    assert all(again.blocked(s, side) == puzzle.blocked(s, side) for s in squares(puzzle) for side in Dir)
    assert (again.start, again.goal, again.finishers()) == (puzzle.start, puzzle.goal, puzzle.finishers())
    assert again.flat.spec.tolist() == puzzle.flat.spec.tolist()


def test_the_flat_form_is_made_once_per_puzzle_and_read_only():
    puzzle = PUZZLES[0]
    assert puzzle.flat is puzzle.flat
    assert puzzle.flat.spec.readonly
    moved = dataclasses.replace(puzzle, goal=puzzle.start[0][0])  # another puzzle: its own numbers
    assert moved.flat.goal == cell(puzzle, puzzle.start[0][0]) != puzzle.flat.goal
    assert flatten(puzzle).spec.tolist() == puzzle.flat.spec.tolist()


def plain_run(puzzle: Puzzle, square: Square, side: Dir) -> int:
    steps = 0
    while not puzzle.blocked(square, side):
        square, steps = square.step(side), steps + 1
    return steps


def plain_reach(puzzle: Puzzle) -> dict[tuple[Dir, Square], int]:
    """Moves to the goal with the last one in direction d, stopping on any square of a slide
    (and never on the goal before the end): a breadth-first search per direction."""
    found = {}
    for last in Dir:
        line = [puzzle.goal.step(last.opposite, k) for k in range(1, plain_run(puzzle, puzzle.goal, last.opposite) + 1)]
        dist = dict.fromkeys(line, 1)
        frontier, moves = line, 1
        while frontier:
            moves += 1
            following = []
            for square in frontier:
                for side in Dir:
                    for k in range(1, plain_run(puzzle, square, side) + 1):
                        there = square.step(side, k)
                        if there != puzzle.goal and there not in dist:
                            dist[there] = moves
                            following.append(there)
            frontier = following
        found.update({(last, square): moves for square, moves in dist.items()})
    return found


def plain_stoppers(puzzle: Puzzle) -> tuple[dict[Square, int], int]:
    """`needs` and the non-zero `marks` of the compiled `fill_stopper_marks`, from its comment."""
    marks: dict[Square, int] = {}
    needs = 0
    for last in Dir:
        through = not puzzle.blocked(puzzle.goal, last)
        if through:
            marks[puzzle.goal.step(last)] = marks.get(puzzle.goal.step(last), 0) | 1 << last
            needs |= 1 << last
        line = [puzzle.goal.step(last.opposite, k) for k in range(1, plain_run(puzzle, puzzle.goal, last.opposite) + 1)]
        entries = [(s, side) for s in line for side in (last.turned(1), last.turned(-1))
                   if not puzzle.blocked(s, side.opposite)]  # a robot can come in moving `side`
        if through or any(puzzle.blocked(s, side) for s, side in entries):
            continue
        needs |= 1 << (4 + last)
        for s, side in entries:
            marks[s.step(side)] = marks.get(s.step(side), 0) | 1 << (4 + last)
    return marks, needs


UNREACHABLE = 1 << 20  # what the reach table holds for a cell no search reaches


def tables(puzzle: Puzzle, upto: int) -> tuple[list[int], tuple[list[int], ...], list[int], int]:
    """The compiled search's runs, reach table (searched to `upto` moves), stopper marks and needs."""
    flat = puzzle.flat
    return _search.tables(flat.spec, flat.robots, flat.rows, flat.cols, flat.goal, upto)


@pytest.mark.parametrize("puzzle", PUZZLES)
def test_the_compiled_tables_equal_plain_computations(puzzle):
    run, reach, marks, needs = tables(puzzle, UNREACHABLE)
    assert [run[cell(puzzle, s) * 4 + side] for s in squares(puzzle) for side in Dir] == \
        [plain_run(puzzle, s, side) for s in squares(puzzle) for side in Dir]
    expected = plain_reach(puzzle)
    assert {(d, s): reach[d][cell(puzzle, s)] for d in Dir for s in squares(puzzle)} == \
        {(d, s): expected.get((d, s), UNREACHABLE) for d in Dir for s in squares(puzzle)}
    assert ({s: marks[cell(puzzle, s)] for s in squares(puzzle) if marks[cell(puzzle, s)]}, needs) == \
        plain_stoppers(puzzle)


@pytest.mark.parametrize("puzzle", PUZZLES[:20])
def test_the_reach_table_deepens_level_by_level(puzzle):
    """Searched to `upto` moves, the table holds every cell that needs at most that many;
    the others read as upto + 1, or UNREACHABLE once a round of the search finds none."""
    expected = plain_reach(puzzle)
    deepest = max(expected.values(), default=0)
    for upto in range(1, deepest + 2):
        reach = tables(puzzle, upto)[1]
        cap = upto + 1 if upto <= deepest else UNREACHABLE
        assert {(d, s): reach[d][cell(puzzle, s)] for d in Dir for s in squares(puzzle) if s != puzzle.goal} == \
            {(d, s): min(expected.get((d, s), UNREACHABLE), cap) for d in Dir for s in squares(puzzle)
             if s != puzzle.goal}


@pytest.mark.parametrize("bad", [dict(rows=0), dict(goal=99), dict(robots=7), dict(spec_cut=1), dict(no_edge=1)])
def test_the_compiled_search_refuses_numbers_that_do_not_fit(bad):
    """A spec that does not match the board or robots given is a ValueError, never a read past an array."""
    flat = PUZZLES[0].flat
    spec = array("q", flat.spec[:-bad.get("spec_cut", 0) or None])
    spec[0] &= ~(bad.get("no_edge", 0))  # the top-left cell open to the north: a slide off the board
    with pytest.raises(ValueError):
        _search.search(spec, bad.get("robots", flat.robots), bad.get("rows", flat.rows), flat.cols,
                       bad.get("goal", flat.goal), 6, 10, 1000, None, 1023)


def test_the_random_boards_cover_the_cases():
    """The sample is not trivial: goals a robot cannot reach, lines that need stoppers, bodies."""
    reaches = [plain_reach(p) for p in PUZZLES]
    assert any(len(r) < 4 * p.rows * p.cols - 4 for p, r in zip(PUZZLES, reaches))
    assert any(plain_stoppers(p)[1] >> 4 for p in PUZZLES)
    assert any(p.rows != p.cols for p in PUZZLES)
    assert max(max(r.values(), default=0) for r in reaches[:20]) >= 4  # the reach table deepens several rounds
