"""RULES D2.4: the solver's minimum is exact (checked against a plain BFS) and 'none within 15' is true."""
import sys
from array import array
from random import Random

import pytest
from cli_process import imported_by

from pbem.dm.icemaze import ORDERS, Maze, slide, solve, solves
from pbem.dm.icemaze.generate import generate
from pbem.dm.icemaze.generate import random_maze as random_big_maze
from pbem.engine.rng import derive_rng

# a single snom needing 18 orders (the plain search below confirms it)
EIGHTEEN = ["###..##", "......#", "..#...G", "#...#.#", "S####..", "..##...", "#....##"]


def plain_bfs(maze: Maze, limit: int) -> int | None:
    """The textbook search: every order from every new position, no pruning."""
    start = maze.start()
    if start.solved:
        return 0
    seen, frontier = {start}, [start]
    for depth in range(1, limit + 1):
        following = []
        for position in frontier:
            for order in ORDERS:
                after = slide(maze, position, order)
                if after.solved:
                    return depth
                if after not in seen:
                    seen.add(after)
                    following.append(after)
        frontier = following
    return None


def random_maze(rng: Random) -> Maze:
    rows, cols, snoms = rng.randint(5, 7), rng.randint(5, 7), rng.randint(1, 3)
    cells = rng.sample(range(rows * cols), 2 * snoms + rng.randint(0, 2))
    starts, goals = cells[:snoms], cells[snoms:]
    # now and then a snom starts on a goal
    if rng.random() < 0.2:
        starts[0] = goals[0]
    rocks = frozenset(c for c in range(rows * cols) if c not in cells and rng.random() < rng.choice((0.1, 0.2, 0.3)))
    return Maze(rows, cols, rocks, frozenset(goals), tuple(sorted(starts)))


def test_d2_4_hand_worked_minimum():
    maze = Maze.from_rows(["S....", ".....", "..#..", ".....", "....G"])
    solution = solve(maze)
    assert solution.moves == 2 and solution.orders in ("RD", "DR")


def test_d2_4_already_solved_maze_needs_no_orders():
    assert solve(Maze.from_rows(["*....", ".....", ".....", ".....", "....G"])).orders == ""


def test_d2_4_solver_agrees_with_plain_bfs_on_random_mazes():
    rng = Random(20261122)
    solvable = 0
    for _ in range(300):
        maze = random_maze(rng)
        expected = plain_bfs(maze, 15)
        solution = solve(maze)
        assert solution.moves == expected, maze.to_rows()
        if expected is not None:
            solvable += 1
            assert solves(maze, solution.orders)
    assert 50 < solvable < 300  # both kinds were exercised


def test_d2_4_a_search_that_outgrows_its_first_arrays_still_finds_the_minimum():
    """Over 16,384 positions: the arrays of positions grow, copied row by row."""
    maze = random_big_maze(derive_rng(2026, 8, 23, "test"), 20, 20, 8)
    solution = solve(maze)
    assert solution.positions > 16_384
    assert solution.moves == plain_bfs(maze, 15) == 13 and solves(maze, solution.orders)


def test_a_solve_runs_the_search_built_at_install_and_loads_no_numpy(tmp_path):
    """Issue #36: no compile on first use: `pbem ice solve` runs the C extension `pip install` built."""
    (tmp_path / "m.yaml").write_text("map: [S...., ....., ..#.., ....., ....G]\n")
    modules = imported_by("ice", "solve", "m.yaml", cwd=tmp_path, whole_names=True)
    assert "pbem.dm.icemaze._search" in modules and "numpy" not in modules


def test_a_checkout_without_the_built_search_says_how_to_build_it(monkeypatch):
    monkeypatch.setitem(sys.modules, "pbem.dm.icemaze._search", None)  # what `import` finds when it was never built
    with pytest.raises(FileNotFoundError, match=r"ice-maze solver's compiled search is not built: run `pip install -e \.`"):
        solve(Maze.from_rows(["S...G"]))


def test_the_compiled_search_refuses_tables_that_disagree():
    """Tables of another size than the maze's would read outside them: refused before the search starts."""
    from pbem.dm.icemaze._search import search

    stops, start = array("h", [0, 1, 1, 0, 0, 1, 1, 0]), array("h", [0])  # two cells in a row
    assert search(stops, b"\0\1", b"\1\0", start, 2, 15, 100, None, 1023) == (b"\1", 1, False)  # R
    for bad in ((stops[:6], b"\0\1", b"\1\0", start), (array("h", [0, 1, 9, 0, 0, 1, 1, 0]), b"\0\1", b"\1\0", start),
                (stops, b"\0\1", b"\1", start), (stops, b"\0\1", b"\1\0", array("h", [2]))):
        with pytest.raises(ValueError, match="the tables do not agree"):
            search(*bad, 2, 15, 100, None, 1023)


def test_d2_4_eighteen_orders_is_no_solution_within_15():
    maze = Maze.from_rows(EIGHTEEN)
    assert plain_bfs(maze, 17) is None and plain_bfs(maze, 18) == 18
    assert solve(maze).moves is None
    longer = solve(maze, limit=20)
    assert longer.moves == 18 and solves(maze, longer.orders)


def test_d2_4_walled_in_goal_is_unsolvable():
    maze = Maze.from_rows(["S....", ".....", "...#.", "..#G#", "...#."])
    assert solve(maze).moves is None


def test_d2_4_hand_worked_two_snoms():
    # R locks the front snom on r1c5 and leaves the other on r1c4; D, L take it to r5c1 (RDL).
    # D first locks the left one on r5c1; R, U take the other to r1c5 (DRU). No 2-order string works:
    # after R the free snom is on r1c4 (D: r5c4, L: r1c1, U: stays); after D it is on r5c2
    # (R: r5c5, U: r1c2, L: stopped by the locked snom); L and U move nothing at the start.
    maze = Maze.from_rows(["SS..G", ".....", ".....", ".....", "G...."])
    solution = solve(maze)
    assert solution.moves == 3 and solves(maze, solution.orders)
    assert solves(maze, "RDL") and solves(maze, "DRU")


@pytest.mark.parametrize("moves,snoms,seed", [(5, 1, 1), (8, 2, 2), (11, 3, 3)])
def test_d2_4_generator_makes_the_minimum_asked_for(moves, snoms, seed):
    maze, solution = generate(8, 9, moves, snoms, seed)
    assert (maze.rows, maze.cols) == (8, 9)
    assert len(maze.snoms) == snoms and len(maze.goals) >= snoms
    assert plain_bfs(maze, moves) == moves
    assert solves(maze, solution.orders) and len(solution.orders) == moves


def test_generator_is_deterministic():
    assert generate(6, 6, 6, 1, 7) == generate(6, 6, 6, 1, 7)
    assert generate(6, 6, 6, 1, 7)[0] != generate(6, 6, 6, 1, 8)[0]
