"""A plain breadth-first search over positions: slow, simple, and the yardstick for the solver."""
from __future__ import annotations

from ...engine.geometry import Dir
from ..limits import UNLIMITED, NoProof
from .board import Position, Puzzle, is_solved, move


def bfs_solve(puzzle: Puzzle, max_moves: int, max_nodes: int | None = None,
              stop: bytearray | None = None) -> list[tuple[int, Dir]] | None:
    """A shortest solution of at most `max_moves` moves, or None when there is none (NoProof: as `solver.solve`)."""
    if is_solved(puzzle, puzzle.start):
        return []
    parents: dict[Position, tuple[Position, tuple[int, Dir]] | None] = {puzzle.start: None}
    frontier = [puzzle.start]
    for _ in range(max_moves):
        next_frontier = []
        for position in frontier:
            if len(parents) >= (max_nodes or UNLIMITED) or (stop is not None and stop[0]):
                raise NoProof(stop is not None and bool(stop[0]), len(parents))
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


def _path(parents: dict[Position, tuple[Position, tuple[int, Dir]] | None],
          position: Position) -> list[tuple[int, Dir]]:
    moves = []
    while (parent := parents[position]) is not None:
        position, step = parent
        moves.append(step)
    return moves[::-1]
