"""A plain breadth-first search over positions: slow, simple, and the yardstick for the solver."""
from __future__ import annotations

from ...engine.geometry import Dir
from .board import Position, Puzzle, is_solved, move


def bfs_solve(puzzle: Puzzle, max_moves: int) -> list[tuple[int, Dir]] | None:
    """A shortest solution of at most `max_moves` moves, or None when there is none."""
    if is_solved(puzzle, puzzle.start):
        return []
    parents: dict[Position, tuple[Position, tuple[int, Dir]] | None] = {puzzle.start: None}
    frontier = [puzzle.start]
    for _ in range(max_moves):
        next_frontier = []
        for position in frontier:
            for colour in range(len(puzzle.colours)):
                for direction in Dir:
                    child = move(puzzle, position, colour, direction)
                    if child in parents:
                        continue
                    parents[child] = (position, (colour, direction))
                    if is_solved(puzzle, child):
                        return _path(parents, child)
                    next_frontier.append(child)
        frontier = next_frontier
    return None


def _path(parents, position) -> list[tuple[int, Dir]]:
    moves = []
    while parents[position] is not None:
        position, step = parents[position]
        moves.append(step)
    return moves[::-1]
