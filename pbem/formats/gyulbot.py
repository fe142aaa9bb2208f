"""Gyulbot puzzle files (DESIGN.md "Gyulbot puzzle"): reading with every problem reported, and writing.

    size: 16                 # or ROWSxCOLS
    walls: [r1c3 W, r2c5 N]  # r#c# SIDE
    robots: {red: [r6c3], blue: [r4c16, r4c15]}   # several squares = one rigid body
    goal: {at: r10c2, colour: blue}                # colour optional
"""
from __future__ import annotations

import re
from pathlib import Path
from typing import Any, Callable

from ..dm.gyulbot.board import LETTERS, Puzzle
from ..engine.geometry import Dir, Square
from .yamlfile import FormatError, Problem, line_of, read_yaml_file

_COLOUR = re.compile(r"^[A-Za-z][A-Za-z0-9_-]*$")
_SIZE = re.compile(r"^(\d+)\s*x\s*(\d+)$", re.IGNORECASE)
_KEYS = {"name", "notes", "size", "walls", "robots", "goal"}
MAX_SIDE = 64


def read_puzzle(path: str | Path) -> Puzzle:
    """A puzzle from a YAML (or JSON) file."""
    return parse_puzzle(read_yaml_file(path), str(path))


def parse_puzzle(data: Any, source: str = "<puzzle>") -> Puzzle:
    """A puzzle from loaded data; raises FormatError listing every problem."""
    problems: list[Problem] = []

    def problem(container: Any, key: Any, field: str, message: str) -> None:
        problems.append(Problem(source, line_of(container, key), field, message))

    if not isinstance(data, dict):
        raise FormatError([Problem(source, None, "", "a puzzle must be a mapping with size, walls, robots and goal")])
    for key in sorted(set(data) - _KEYS, key=str):
        problem(data, key, str(key), f"unknown field (known: {', '.join(sorted(_KEYS))})")
    for key in ("size", "robots", "goal"):
        if key not in data:
            problem(data, None, key, "missing")
    rows, cols = _size(data.get("size", 16), lambda message: problem(data, "size", "size", message))

    def square(container: Any, key: Any, field: str, text: Any) -> Square | None:
        try:
            at = Square.parse(text)
        except ValueError as err:
            problem(container, key, field, str(err))
            return None
        if rows and not (1 <= at.row <= rows and 1 <= at.col <= cols):
            problem(container, key, field, f"{at} is off the {rows}x{cols} board")
            return None
        return at

    walls = []
    wall_list = data.get("walls", [])
    if not isinstance(wall_list, list):
        problem(data, "walls", "walls", "must be a list of 'r#c# SIDE'")
        wall_list = []
    for i, text in enumerate(wall_list):
        field = f"walls[{i}]"
        parts = str(text).split()
        if len(parts) != 2:
            problem(wall_list, i, field, f"{text!r} is not 'r#c# SIDE' (e.g. 'r3c4 W')")
            continue
        at = square(wall_list, i, field, parts[0])
        try:
            side = Dir.parse(parts[1])
        except ValueError as err:
            problem(wall_list, i, field, str(err))
            continue
        if at:
            walls.append((at, side))

    robots: dict[str, list[Square]] = {}
    robot_map = data.get("robots", {})
    if not isinstance(robot_map, dict) or (not robot_map and "robots" in data):
        problem(data, "robots", "robots", "must map each colour to its squares, e.g. {red: [r1c1]}")
        robot_map = {}
    held: dict[Square, str] = {}
    for colour, squares in robot_map.items():
        field = f"robots.{colour}"
        name = str(colour)
        if not _COLOUR.match(name) or all(letter in LETTERS for letter in name.upper()):
            problem(robot_map, colour, field, "a colour is one word that is not made of the move letters U D L R")
            continue
        if name.lower() in robots:
            problem(robot_map, colour, field, "colour given twice (colours ignore case)")
            continue
        if isinstance(squares, str):
            squares = [squares]
        if not isinstance(squares, list) or not squares:
            problem(robot_map, colour, field, "must be a list of squares")
            continue
        body = []
        for at in (square(robot_map, colour, field, s) for s in squares):
            if at is None:
                continue
            if at in held:
                problem(robot_map, colour, field, f"{at} already holds a {held[at]} robot")
                continue
            held[at] = name
            body.append(at)
        robots[name.lower()] = body

    goal = data.get("goal")
    goal_at, goal_colour = None, None
    if isinstance(goal, str):
        goal = {"at": goal}
    if goal is not None and not isinstance(goal, dict):
        problem(data, "goal", "goal", "must be {at: r#c#, colour: …}")
    elif isinstance(goal, dict):
        for key in sorted(set(goal) - {"at", "colour"}, key=str):
            problem(goal, key, f"goal.{key}", "unknown field (known: at, colour)")
        if "at" not in goal:
            problem(goal, None, "goal.at", "missing")
        else:
            goal_at = square(goal, "at", "goal.at", goal["at"])
        if goal.get("colour") is not None:
            goal_colour = str(goal["colour"]).lower()
            if robot_map and goal_colour not in robots:
                problem(goal, "colour", "goal.colour", f"no robot has colour {goal['colour']!r}")
    if goal is None:
        problem(data, None, "goal", "missing: {at: r#c#, colour: …}")
    if problems or goal_at is None:
        raise FormatError(problems)
    return Puzzle.build(rows, cols, walls, robots, goal_at, goal_colour)


def _size(value: Any, complain: Callable[[str], None]) -> tuple[int, int]:
    if isinstance(value, int) and not isinstance(value, bool):
        rows = cols = value
    else:
        match = _SIZE.match(str(value).strip())
        if not match:
            complain(f"{value!r} is not a number or ROWSxCOLS")
            return 0, 0
        rows, cols = int(match[1]), int(match[2])
    if not (1 <= rows <= MAX_SIDE and 1 <= cols <= MAX_SIDE):
        complain(f"each side must be 1 to {MAX_SIDE}")
        return 0, 0
    return rows, cols


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
