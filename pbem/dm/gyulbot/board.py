"""Gyulbot boards and moves (RULES D1.1–D1.3), simulated one step at a time.

This is the rules model: plain and obviously correct. The fast solver has its
own table-driven move code and is checked against this one.
"""
from __future__ import annotations

from dataclasses import dataclass
from functools import cached_property
from typing import TYPE_CHECKING, Iterable, Mapping

from ...engine.geometry import Dir, Square

if TYPE_CHECKING:
    from .flat import Flat

Position = tuple[tuple[Square, ...], ...]
"""Robot squares per colour (in `Puzzle.colours` order), each colour's squares sorted."""

LETTERS = {"U": Dir.N, "R": Dir.E, "D": Dir.S, "L": Dir.W}
LETTER_OF = {direction: letter for letter, direction in LETTERS.items()}


@dataclass(frozen=True)
class Puzzle:
    """A board with walls, robots grouped by colour and one goal (D1.1).

    `walls` holds every blocked edge from both sides: (square, side) and its
    neighbour's (square, opposite side), so a lookup needs one side only.
    """

    rows: int
    cols: int
    walls: frozenset[tuple[Square, Dir]]
    colours: tuple[str, ...]  # lower case, in the order the puzzle lists them
    start: Position
    goal: Square
    goal_colour: str | None = None

    @classmethod
    def build(
        cls,
        rows: int,
        cols: int,
        walls: Iterable[tuple[Square, Dir]],
        robots: Mapping[str, Iterable[Square]],
        goal: Square,
        goal_colour: str | None = None,
    ) -> "Puzzle":
        both_sides = set()
        for square, side in walls:
            both_sides.add((square, side))
            both_sides.add((square.step(side), side.opposite))
        colours = tuple(colour.lower() for colour in robots)
        start = tuple(tuple(sorted(squares)) for squares in robots.values())
        return cls(rows, cols, frozenset(both_sides), colours, start, goal,
                   goal_colour.lower() if goal_colour else None)

    def on_board(self, square: Square) -> bool:
        return 1 <= square.row <= self.rows and 1 <= square.col <= self.cols

    def blocked(self, square: Square, side: Dir) -> bool:
        """A wall or the board's edge on this side of the square."""
        return (square, side) in self.walls or not self.on_board(square.step(side))

    def finishers(self) -> tuple[int, ...]:
        """Indices of the colours that may finish (D1.3)."""
        return tuple(i for i, c in enumerate(self.colours) if self.goal_colour in (None, c))

    @cached_property
    def flat(self) -> Flat:
        """The puzzle in the solver's integers (`flat.py`), made at the first solve and kept."""
        from .flat import flatten  # with the solver, not with every reader of puzzles

        return flatten(self)

    def colour_index(self, word: str) -> int:
        return self.colours.index(word.lower())

    def display(self, index: int) -> str:
        return self.colours[index].capitalize()


def move(puzzle: Puzzle, position: Position, colour: int, direction: Dir) -> Position:
    """One move (D1.2): every robot of `colour` steps together until any one is blocked."""
    body = list(position[colour])
    others = {square for i, squares in enumerate(position) if i != colour for square in squares}
    while all(not puzzle.blocked(s, direction) and s.step(direction) not in others for s in body):
        body = [s.step(direction) for s in body]
    return position[:colour] + (tuple(sorted(body)),) + position[colour + 1:]


def is_solved(puzzle: Puzzle, position: Position) -> bool:
    """A robot of a finishing colour stands on the goal (D1.3)."""
    return any(puzzle.goal in position[i] for i in puzzle.finishers())


def parse_solution(puzzle: Puzzle, text: str) -> list[tuple[int, Dir]]:
    """`Red URDL Blue D` → [(colour, direction), …]; a colour word selects, letters move.

    Raises ValueError naming the first word that is neither.
    """
    moves: list[tuple[int, Dir]] = []
    colour: int | None = None
    for word in str(text).split():
        if word.lower() in puzzle.colours:
            colour = puzzle.colour_index(word)
        elif all(letter in LETTERS for letter in word.upper()):
            if colour is None:
                raise ValueError(f"moves {word!r} come before any colour is named")
            moves.extend((colour, LETTERS[letter]) for letter in word.upper())
        else:
            known = ", ".join(puzzle.display(i) for i in range(len(puzzle.colours)))
            raise ValueError(f"{word!r} is neither a colour ({known}) nor moves (U D L R)")
    return moves


def format_solution(puzzle: Puzzle, moves: Iterable[tuple[int, Dir]]) -> str:
    """The inverse of `parse_solution`: `Red URDL Blue D`."""
    words: list[str] = []
    last: int | None = None
    for colour, direction in moves:
        if colour != last:
            words.extend([puzzle.display(colour), ""])
            last = colour
        words[-1] += LETTER_OF[direction]
    return " ".join(words)


def solved_after(puzzle: Puzzle, moves: list[tuple[int, Dir]]) -> int | None:
    """The number of moves after which the puzzle is first solved, or None if never."""
    position = puzzle.start
    if is_solved(puzzle, position):
        return 0
    for count, (colour, direction) in enumerate(moves, start=1):
        position = move(puzzle, position, colour, direction)
        if is_solved(puzzle, position):
            return count
    return None
