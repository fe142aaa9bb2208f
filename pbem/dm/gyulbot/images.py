"""A puzzle's images under the square board's eight symmetries and a relabelling of its robots' colours.

D1.2-D1.3 name no direction, and no colour but the goal's: turning or mirroring the board (walls, robots and goal
with it) and renaming the colours consistently (the goal's too) gives a puzzle with the same proven minimum, each
solution turned and renamed alike. So a match can draw distinct rounds from a bank that holds few puzzles of a deep
length (issue #34) without an hour of search for each, and the bank holds no two puzzles one an image of the other.
"""
from __future__ import annotations

from itertools import permutations

from ...engine.geometry import Dir, Square
from ..puzzlebank import SYMMETRIES, symmetric
from .board import Puzzle


def image(puzzle: Puzzle, symmetry: int, renamed: tuple[int, ...]) -> Puzzle:
    """The puzzle mirrored left-right when `symmetry` >= 4, then turned clockwise `symmetry % 4` quarter turns; the
    robot of colour i (in `puzzle.colours`) becomes colour `renamed[i]`, the goal's colour with it."""
    if puzzle.rows != puzzle.cols:
        raise ValueError("only a square board has eight symmetries")
    size, turns, mirror = puzzle.rows, symmetry % 4, symmetry >= 4

    def square(at: Square) -> Square:
        return Square(*symmetric(at.row, at.col, size, symmetry))

    def side(direction: Dir) -> Dir:
        return (direction.opposite if mirror and direction in (Dir.E, Dir.W) else direction).turned(turns)

    colours = puzzle.colours
    robots = {colour: [square(s) for s in puzzle.start[renamed.index(j)]] for j, colour in enumerate(colours)}
    goal_colour = colours[renamed[colours.index(puzzle.goal_colour)]] if puzzle.goal_colour else None
    walls = [(square(at), side(direction)) for at, direction in puzzle.walls if puzzle.on_board(at)]
    return Puzzle.build(size, size, walls, robots, square(puzzle.goal), goal_colour)


def every_renaming(colours: int) -> list[tuple[int, ...]]:
    """Every relabelling of `colours` colours, the identity first."""
    return list(permutations(range(colours)))


def family(puzzle: Puzzle) -> tuple[object, ...]:
    """One key for all of a puzzle's images: two puzzles share it exactly when one is an image of the other.
    Colours are left out of the key (a renaming may give any colour any robots), the goal's robots apart from the
    others; the key is the least over the eight symmetries."""
    identity = tuple(range(len(puzzle.colours)))
    return min(_unnamed(image(puzzle, symmetry, identity)) for symmetry in range(SYMMETRIES))


def _unnamed(puzzle: Puzzle) -> tuple[object, ...]:
    goal_robots = puzzle.start[puzzle.colours.index(puzzle.goal_colour)] if puzzle.goal_colour else ()
    others = sorted(squares for colour, squares in zip(puzzle.colours, puzzle.start) if colour != puzzle.goal_colour)
    return (puzzle.goal, goal_robots, tuple(others), tuple(sorted(puzzle.walls)))
