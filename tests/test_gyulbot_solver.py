"""The exact solver against a plain breadth-first search and against the shared data (D1.5)."""
from __future__ import annotations

import json
import random
from pathlib import Path

import pytest

from pbem.dm.gyulbot.bfs import bfs_solve
from pbem.dm.gyulbot.board import Puzzle, solved_after
from pbem.dm.gyulbot.solver import solve
from pbem.engine.geometry import Dir, Square
from pbem.formats.gyulbot import parse_puzzle

SAMPLE = Path(__file__).parent / "data" / "gyulbot-sample.jsonl"


def random_small_puzzle(rng: random.Random) -> Puzzle:
    """Small boards mixing lone robots, rigid bodies of two, coloured and any-colour goals."""
    size = rng.randint(4, 7)
    cells = [Square(r, c) for r in range(1, size + 1) for c in range(1, size + 1)]
    walls = [(rng.choice(cells), rng.choice(list(Dir))) for _ in range(rng.randint(0, size * 2))]
    colours = ["red", "green", "blue"][: rng.randint(1, 3)]
    spots = rng.sample(cells, len(colours) * 2 + 1)
    robots = {}
    for colour in colours:
        robots[colour] = [spots.pop()] + ([spots.pop()] if rng.random() < 0.3 else [])
    goal_colour = rng.choice(colours) if rng.random() < 0.6 else None
    return Puzzle.build(size, size, walls, robots, spots.pop(), goal_colour)


@pytest.mark.slow  # a soak: random puzzles, each also solved by the plain BFS
def test_solver_agrees_with_bfs_on_random_puzzles():
    """Minimum lengths equal (or both find none within 8) on 300 random puzzles; every
    solver answer really solves the puzzle in that many moves."""
    rng = random.Random(2026)
    lengths = []
    for _ in range(300):
        p = random_small_puzzle(rng)
        expected = bfs_solve(p, 8)
        found = solve(p, 8)
        assert (found is None) == (expected is None), p
        if found is not None:
            assert len(found) == len(expected), p
            assert solved_after(p, found) == len(found)
            lengths.append(len(found))
    assert max(lengths) >= 6  # the sample reaches real depth, not only trivial puzzles


def test_solver_proves_no_solution_within_the_limit():
    # the goal is boxed in: no robot can ever stop there
    p = Puzzle.build(3, 3, [(Square(2, 2), d) for d in Dir], {"red": [Square(1, 1)]}, Square(2, 2), None)
    assert solve(p, 10) is None and bfs_solve(p, 10) is None


@pytest.mark.skipif(not SAMPLE.exists(), reason="sample of the shared data missing")
def test_solver_matches_shared_data_sample():
    """Every 16th puzzle of /work/shared/data/gyulbot-puzzles.jsonl, proven optimum by an independent solver."""
    records = [json.loads(line) for line in SAMPLE.read_text().splitlines()]
    assert len(records) >= 50
    for record in records:
        p = parse_puzzle(record["puzzle"], "sample")
        found = solve(p)
        assert len(found) == record["optimal"]
        assert solved_after(p, found) == len(found)


@pytest.mark.skipif(not SAMPLE.exists(), reason="sample of the shared data missing")
def test_a_search_that_outgrows_its_table_stays_exact_and_a_node_budget_ends_one_unproven():
    """The deepest sample fills the first table past half (the search doubles it and goes on): its optimum is the
    recorded one however often it is solved; a budget of 10 positions raises NoProof after exactly 10."""
    from pbem.dm.gyulbot import solver
    from pbem.dm.limits import NoProof, stop_flag

    record = max((json.loads(line) for line in SAMPLE.read_text().splitlines()), key=lambda r: r["optimal"])
    puzzle = deepest_sample()
    for _ in range(2):
        found = solve(puzzle, stop=stop_flag())
        assert len(found) == record["optimal"] == solved_after(puzzle, found)
    assert solver.STATS["nodes"] > 2048  # more positions than half the first table's 4096 slots
    with pytest.raises(NoProof) as raised:
        solve(puzzle, max_nodes=10)
    assert (raised.value.nodes, raised.value.stopped) == (10, False)


def deepest_sample() -> Puzzle:
    """The sample's longest puzzle: its search outgrows the first transposition table."""
    record = max((json.loads(line) for line in SAMPLE.read_text().splitlines()), key=lambda r: r["optimal"])
    return parse_puzzle(record["puzzle"], "sample")


@pytest.mark.skipif(not SAMPLE.exists(), reason="sample of the shared data missing")
def test_solves_side_by_side_in_threads_agree_with_one_by_one():
    """Each thread has its own reused arrays: solves running at once (the search releases the GIL) give
    the answers of solves run one after another, and a solve that outgrew its table leaves the next exact."""
    from concurrent.futures import ThreadPoolExecutor

    records = [json.loads(line) for line in SAMPLE.read_text().splitlines()][:24]
    puzzles = [parse_puzzle(record["puzzle"], "sample") for record in records] + [deepest_sample()] * 2
    alone = [solve(p) for p in puzzles]
    with ThreadPoolExecutor(4) as pool:
        together = list(pool.map(solve, puzzles))
    assert together == alone
    assert [len(moves) for moves in alone[:24]] == [record["optimal"] for record in records]
