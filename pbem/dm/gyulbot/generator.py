"""Puzzles of a requested minimum length (D1.5), proven by the exact solver.

A board in the Ricochet Robots style (a walled centre block, L-shaped wall
corners, stubs on the edges) gets random robots and a goal on a corner; then
a hill climb moves one robot, moves the goal to another corner or changes the
goal's colour, one at a time, and keeps a change when the proven minimum does
not drop, until it is exactly the requested length. All randomness comes from the caller's seeded RNG.
The deepest lengths take that climb minutes to hours: for the standard setup (16x16, the four colours,
a coloured goal) a deep length (`bank.DEEP` on) the bank of proven puzzles holds is drawn from it instead
(`bank.py`).
"""
from __future__ import annotations

import random

from ...engine.geometry import Dir, Square
from . import bank
from .board import Puzzle
from .solver import solve

COLOURS = ("red", "green", "blue", "yellow")


def random_board(rng: random.Random, rows: int = 16, cols: int = 16) -> tuple[list[tuple[Square, Dir]], list[Square], set[Square]]:
    """Walls, the corner squares (goal candidates) and the squares closed to robots."""
    closed = centre(rows, cols)
    walls = [(square, side) for square in sorted(closed) for side in Dir]
    taken = set(closed)
    corners: list[Square] = []
    inner = [Square(r, c) for r in range(2, rows) for c in range(2, cols)]
    rng.shuffle(inner)
    for square in inner:
        if len(corners) >= max(1, rows * cols // 16):
            break
        if any(Square(square.row + dr, square.col + dc) in taken for dr in (-1, 0, 1) for dc in (-1, 0, 1)):
            continue
        taken.add(square)
        corners.append(square)
        walls.append((square, rng.choice((Dir.N, Dir.S))))
        walls.append((square, rng.choice((Dir.E, Dir.W))))
    for side, length in ((Dir.N, cols), (Dir.S, cols), (Dir.W, rows), (Dir.E, rows)):
        for _ in range(max(1, length // 8)):
            k = rng.randrange(2, length)  # never at a board corner
            if side in (Dir.N, Dir.S):
                walls.append((Square(1 if side is Dir.N else rows, k), Dir.W))
            else:
                walls.append((Square(k, 1 if side is Dir.W else cols), Dir.N))
    return walls, sorted(corners), closed


def centre(rows: int, cols: int) -> set[Square]:
    """The walled 2x2 centre block of an even board of side 6 or more (closed to robots)."""
    if rows < 6 or cols < 6 or rows % 2 or cols % 2:
        return set()
    return {Square(rows // 2 + dr, cols // 2 + dc) for dr in (0, 1) for dc in (0, 1)}


def random_puzzle(rng: random.Random, rows: int = 16, cols: int = 16,
                  colours: tuple[str, ...] = COLOURS, coloured_goal: bool = True) -> Puzzle:
    walls, corners, closed = random_board(rng, rows, cols)
    free = [Square(r, c) for r in range(1, rows + 1) for c in range(1, cols + 1) if Square(r, c) not in closed]
    spots = rng.sample(free, len(colours) + (not corners))  # a small board's centre can leave no corner for the goal
    goal_colour = rng.choice(colours) if coloured_goal else None
    goal = rng.choice(corners) if corners else spots[-1]
    return Puzzle.build(rows, cols, walls, {c: [s] for c, s in zip(colours, spots)}, goal, goal_colour)


def minimum(puzzle: Puzzle, cap: int) -> int:
    """The proven minimum, or cap + 1 when it is above `cap` (or unsolvable)."""
    solution = solve(puzzle, cap)
    return cap + 1 if solution is None else len(solution)


def generate(moves: int, rng: random.Random, rows: int = 16, cols: int = 16,
             colours: tuple[str, ...] = COLOURS, coloured_goal: bool = True,
             attempts: int = 20000) -> Puzzle:
    """A puzzle whose proven minimum is exactly `moves` (single robot per colour)."""
    if moves < 1:
        raise ValueError("a puzzle needs at least 1 move")
    standard = (rows, cols, colours, coloured_goal) == (16, 16, COLOURS, True)
    if standard and moves >= bank.DEEP and (banked := bank.draw(moves, rng)):
        return banked
    puzzle = random_puzzle(rng, rows, cols, colours, coloured_goal)
    best = minimum(puzzle, moves)
    closed = centre(rows, cols)
    corners = _corners(puzzle, closed)
    for _ in range(attempts):
        if best == moves:
            return puzzle
        candidate = _mutate(puzzle, rng, closed, corners, coloured_goal)
        if candidate is None:
            continue
        length = minimum(candidate, moves)
        if best > moves or best <= length <= moves:
            puzzle, best = candidate, length
    raise ValueError(f"no {moves}-move puzzle found in {attempts} attempts")


def _corners(puzzle: Puzzle, closed: set[Square]) -> list[Square]:
    """Squares with a wall on a north or south side and one on an east or west side (goal spots)."""
    walled: dict[Square, set[bool]] = {}
    for square, side in puzzle.walls:
        if puzzle.on_board(square) and square not in closed:
            walled.setdefault(square, set()).add(side in (Dir.N, Dir.S))
    found = sorted(square for square, kinds in walled.items() if len(kinds) == 2)
    return found or [Square(r, c) for r in range(1, puzzle.rows + 1) for c in range(1, puzzle.cols + 1)
                     if Square(r, c) not in closed]


def _mutate(puzzle: Puzzle, rng: random.Random, closed: set[Square], corners: list[Square],
            coloured_goal: bool) -> Puzzle | None:
    """The puzzle with one robot, the goal or the goal colour changed; None if the change is void."""
    robots = {c: list(s) for c, s in zip(puzzle.colours, puzzle.start)}
    goal, goal_colour = puzzle.goal, puzzle.goal_colour
    held = {s for squares in puzzle.start for s in squares}
    kind = rng.randrange(3 if coloured_goal else 2)
    target = rng.choice(corners) if kind == 1 else Square(rng.randint(1, puzzle.rows), rng.randint(1, puzzle.cols))
    if target in closed or (kind < 2 and target in held) or (kind == 0 and target == goal):
        return None
    if kind == 0:
        robots[rng.choice(puzzle.colours)] = [target]
    elif kind == 1:
        goal = target
    else:
        goal_colour = rng.choice(puzzle.colours)
    walls = [(s, d) for s, d in puzzle.walls if puzzle.on_board(s)]
    return Puzzle.build(puzzle.rows, puzzle.cols, walls, robots, goal, goal_colour)
