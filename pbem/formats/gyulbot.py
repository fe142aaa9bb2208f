"""Gyulbot puzzle files (DESIGN.md "Gyulbot puzzle"): reading with every problem reported, and writing.

    size: 16                 # or ROWSxCOLS
    walls: [r1c3 W, r2c5 N]  # r#c# SIDE
    robots: {red: [r6c3], blue: [r4c16, r4c15]}   # several squares = one rigid body
    goal: {at: r10c2, colour: blue}                # colour optional
"""
from __future__ import annotations

import re
from pathlib import Path
from typing import Any

from ..dm.gyulbot.board import LETTERS, Puzzle
from ..engine.geometry import Dir, Square
from .dmpuzzles import PuzzleFormat
from .fields import Field, Fields, is_whole, sequence
from .yamlfile import FormatError, Problem, read_yaml_file

_COLOUR = re.compile(r"^[A-Za-z][A-Za-z0-9_-]*$")
_SIZE = re.compile(r"^(\d{1,18})\s*x\s*(\d{1,18})$", re.IGNORECASE)
_KEYS = {"name", "notes", "size", "walls", "robots", "goal"}
MAX_SIDE = 64


def read_puzzle(path: str | Path) -> Puzzle:
    """A puzzle from a YAML (or JSON) file."""
    return parse_puzzle(read_yaml_file(path), str(path))


def parse_puzzle(data: Any, source: str = "<puzzle>") -> Puzzle:
    """A puzzle from loaded data; raises FormatError listing every problem."""
    if not isinstance(data, dict):
        raise FormatError([Problem(source, None, "", "a puzzle must be a mapping with size, walls, robots and goal")])
    fields = Fields(source)
    fields.unknown(data, _KEYS, f"unknown field (known: {', '.join(sorted(_KEYS))})")
    given = fields.read(data, PUZZLE)
    board = _Board(fields, *given["size"])
    walls = [wall for index in range(len(given["walls"])) if (wall := board.wall(given["walls"], index))]
    robots = board.robots(given["robots"])
    goal_at, goal_colour = board.goal(given["goal"], given["robots"], robots)
    if given["goal"] is None:
        fields.add(data, None, "goal", "missing: {at: r#c#, colour: …}")
    if fields.problems or goal_at is None:
        raise FormatError(fields.problems)
    return Puzzle.build(board.rows, board.cols, walls, robots, goal_at, goal_colour)


def _size(value: Any) -> tuple[int, int]:
    if is_whole(value):
        rows = cols = value
    else:
        match = _SIZE.match(str(value).strip())
        if not match:
            raise ValueError(f"{value!r} is not a number or ROWSxCOLS")
        rows, cols = int(match[1]), int(match[2])
    if not (1 <= rows <= MAX_SIDE and 1 <= cols <= MAX_SIDE):
        raise ValueError(f"each side must be 1 to {MAX_SIDE}")
    return rows, cols


def _robot_map(value: Any) -> dict[Any, Any]:
    if not isinstance(value, dict) or not value:
        raise ValueError("must map each colour to its squares, e.g. {red: [r1c1]}")
    return value


def _goal(value: Any) -> dict[Any, Any]:
    if isinstance(value, str):
        return {"at": value}
    if not isinstance(value, dict):
        raise ValueError("must be {at: r#c#, colour: …}")
    return value


PUZZLE = {
    "size": Field(_size, default=(0, 0), missing="missing", null=False),  # (0, 0): no board to check squares on
    "walls": Field(sequence("must be a list of 'r#c# SIDE'"), default=[], null=False),
    "robots": Field(_robot_map, default={}, missing="missing", null=False),
    "goal": Field(_goal, missing="missing"),
}


class _Board:
    """The squares of a puzzle of `rows` x `cols` (0 x 0 when its size is unknown), read with their problems."""

    def __init__(self, fields: Fields, rows: int, cols: int):
        self.fields, self.rows, self.cols = fields, rows, cols

    def square(self, container: Any, key: Any, field: str, text: Any) -> Square | None:
        try:
            at = Square.parse(text)
        except ValueError as err:
            self.fields.add(container, key, field, str(err))
            return None
        if self.rows and not (1 <= at.row <= self.rows and 1 <= at.col <= self.cols):
            self.fields.add(container, key, field, f"{at} is off the {self.rows}x{self.cols} board")
            return None
        return at

    def wall(self, walls: list[Any], index: int) -> tuple[Square, Dir] | None:
        field, text = f"walls[{index}]", walls[index]
        parts = str(text).split()
        if len(parts) != 2:
            self.fields.add(walls, index, field, f"{text!r} is not 'r#c# SIDE' (e.g. 'r3c4 W')")
            return None
        at = self.square(walls, index, field, parts[0])
        try:
            side = Dir.parse(parts[1])
        except ValueError as err:
            self.fields.add(walls, index, field, str(err))
            return None
        return (at, side) if at else None

    def robots(self, robot_map: dict[Any, Any]) -> dict[str, list[Square]]:
        robots: dict[str, list[Square]] = {}
        held: dict[Square, str] = {}
        for colour, squares in robot_map.items():
            field, name = f"robots.{colour}", str(colour)
            if not _COLOUR.match(name) or all(letter in LETTERS for letter in name.upper()):
                self.fields.add(robot_map, colour, field, "a colour is one word that is not made of the move "
                                                          "letters U D L R")
            elif name.lower() in robots:
                self.fields.add(robot_map, colour, field, "colour given twice (colours ignore case)")
            else:
                squares = [squares] if isinstance(squares, str) else squares
                if not isinstance(squares, list) or not squares:
                    self.fields.add(robot_map, colour, field, "must be a list of squares")
                else:
                    robots[name.lower()] = self._body(robot_map, colour, squares, held)
        return robots

    def _body(self, robot_map: dict[Any, Any], colour: Any, squares: list[Any], held: dict[Square, str]) -> list[Square]:
        """One robot's squares, each on the board and held by no other robot."""
        field, body = f"robots.{colour}", []
        for at in (self.square(robot_map, colour, field, s) for s in squares):
            if at is not None and at in held:
                self.fields.add(robot_map, colour, field, f"{at} already holds a {held[at]} robot")
            elif at is not None:
                held[at] = str(colour)
                body.append(at)
        return body

    def goal(self, goal: dict[Any, Any] | None, robot_map: dict[Any, Any],
             robots: dict[str, list[Square]]) -> tuple[Square | None, str | None]:
        if goal is None:
            return None, None
        for key in sorted(set(goal) - {"at", "colour"}, key=str):
            self.fields.add(goal, key, f"goal.{key}", "unknown field (known: at, colour)")
        at = self.square(goal, "at", "goal.at", goal["at"]) if "at" in goal else None
        if "at" not in goal:
            self.fields.add(goal, None, "goal.at", "missing")
        colour = None if goal.get("colour") is None else str(goal["colour"]).lower()
        if colour is not None and robot_map and colour not in robots:
            self.fields.add(goal, "colour", "goal.colour", f"no robot has colour {goal['colour']!r}")
        return at, colour


def puzzle_data(puzzle: Puzzle) -> dict[str, Any]:
    """The file form of a puzzle (each wall listed once, from its north or west side)."""
    walls = sorted(
        (square, side) for square, side in puzzle.walls
        if side in (Dir.N, Dir.W) and puzzle.on_board(square) and puzzle.on_board(square.step(side))
    )
    goal: dict[str, Any] = {"at": str(puzzle.goal)}
    if puzzle.goal_colour:
        goal["colour"] = puzzle.goal_colour
    return {
        "size": puzzle.rows if puzzle.rows == puzzle.cols else f"{puzzle.rows}x{puzzle.cols}",
        "walls": [f"{square} {side.name}" for square, side in walls],
        "robots": {colour: [str(s) for s in squares] for colour, squares in zip(puzzle.colours, puzzle.start)},
        "goal": goal,
    }


PUZZLES = PuzzleFormat(parse_puzzle, puzzle_data)  # named by the registry (pbem.games)
