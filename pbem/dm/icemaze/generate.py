"""Mazes with a proven minimum (RULES D2.4), by seeded hill climbing.

Start from a random maze and keep changing one square at a time (a rock
added or removed, a goal or a snom moved), keeping a change when the exact
minimum does not go down and does not pass the target. Every candidate is
solved exactly, so the maze returned has exactly the minimum asked for.
"""
from __future__ import annotations

from random import Random

from ...engine.rng import derive_rng
from .maze import MAX_ORDERS, MAX_SIDE, MIN_SIDE, Maze
from .solver import Solution, solve

ROCK_SHARE = 0.18
STEPS_PER_START = 400
STARTS = 25


def generate(rows: int, cols: int, moves: int, snoms: int = 1, seed: int | str = 0) -> tuple[Maze, Solution]:
    """A maze of `rows` x `cols` whose shortest solution has exactly `moves` orders."""
    if not (MIN_SIDE <= rows <= MAX_SIDE and MIN_SIDE <= cols <= MAX_SIDE):
        raise ValueError(f"size {rows}x{cols}: a maze is {MIN_SIDE}x{MIN_SIDE} to {MAX_SIDE}x{MAX_SIDE}")
    if not 1 <= moves <= MAX_ORDERS:
        raise ValueError(f"moves {moves}: a minimum is 1 to {MAX_ORDERS} orders")
    if not 1 <= snoms <= rows * cols // 4:
        raise ValueError(f"snoms {snoms}: 1 to {rows * cols // 4} fit a {rows}x{cols} maze")
    for start in range(STARTS):
        rng = derive_rng(seed, 0, start, "ice-generate", f"{rows}x{cols}/{moves}/{snoms}")
        maze = random_maze(rng, rows, cols, snoms)
        best = _minimum(maze)
        for _ in range(STEPS_PER_START):
            if best.moves == moves:
                return maze, best
            candidate = mutate(rng, maze)
            solution = _minimum(candidate)
            if solution.moves is not None and solution.moves <= moves and (best.moves is None or solution.moves >= best.moves):
                maze, best = candidate, solution
    raise ValueError(f"no {rows}x{cols} maze with {snoms} snoms and a minimum of {moves} found; try another seed or size")


def _minimum(maze: Maze) -> Solution:
    return solve(maze, MAX_ORDERS)


def random_maze(rng: Random, rows: int, cols: int, snoms: int, goals: int | None = None) -> Maze:
    """Snoms, goals (as many as snoms unless told) and about ROCK_SHARE rocks, placed at random."""
    cells = list(range(rows * cols))
    rng.shuffle(cells)
    ends = snoms + (goals or snoms)
    starts, goal_cells, rest = cells[:snoms], cells[snoms:ends], cells[ends:]
    rocks = frozenset(cell for cell in rest if rng.random() < ROCK_SHARE)
    return Maze(rows, cols, rocks, frozenset(goal_cells), tuple(sorted(starts)))


def mutate(rng: Random, maze: Maze) -> Maze:
    """The maze with one square changed: a rock toggled, or a goal or snom moved to an empty square."""
    used = set(maze.goals) | set(maze.snoms)
    empty = [cell for cell in range(maze.rows * maze.cols) if cell not in used]
    target = rng.choice(empty)
    kind = rng.randrange(3)
    if kind == 0:
        return Maze(maze.rows, maze.cols, maze.rocks ^ {target}, maze.goals, maze.snoms)
    rocks = maze.rocks - {target}
    if kind == 1:
        old = rng.choice(sorted(maze.goals))
        return Maze(maze.rows, maze.cols, rocks, (maze.goals - {old}) | {target}, maze.snoms)
    old = rng.choice(maze.snoms)
    return Maze(maze.rows, maze.cols, rocks, maze.goals, tuple(sorted((set(maze.snoms) - {old}) | {target})))
