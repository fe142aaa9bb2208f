"""A board as plain text, for the text part of a turn sheet: a player reading mail without pictures can still
plan. Each square is three characters between wall marks; robots are letters with an arrow for their facing.

         1   2   3
      +---+---+---+
    1 | G   . | s |      | and --- are walls, : and ~~~ fences
      +   +---+   +
    2 | A^  O   > |      A^ is robot A facing north; O a pit; > a conveyor
      +---+---+---+

Element states come from the board (a switch `s` off, `S` on; a gate `g` closed, `G` open …): the same
`state_of` the pictures use, so text and picture never disagree.
"""
from __future__ import annotations

from typing import Any, Sequence

from ..engine.geometry import Dir, Square
from ..engine.room import Element
from ..engine.vocabulary import Mode
from .board import on_board
from .elements import as_dir, mount, stages_text, state_of
from .model import Position

ARROWS = {Dir.N: "^", Dir.E: ">", Dir.S: "v", Dir.W: "<"}
LEGEND = [  # at most 72 columns, as the whole text sheet (a reply quoting it stays unbroken)
    "Each square is 3 characters.   .  floor",
    "| --- walls   : ~~~ fences (the edge is a fence too)",
    "A^ a robot (a capital letter, see the list) and its facing; a third",
    "   character after it is what the robot stands on",
    "O pit   h/H trap door closed/open   #/= drawbridge raised/lowered",
    "s/S switch off/on   e/E eye off/on   g/G gate closed/open",
    "t/T teleporter off/on   > conveyor   >> express conveyor (the way)",
    "( ) @ gear left/right/half   L> laser and the way it fires",
    "r/R red laser off/on   * buzzsaw   X crusher",
    "P> pusher and the way it pushes (crushers and pushers: stages below)",
    "w/ww wrench (one or two)   a armoury   c computer   1-9 flag",
    "? an element of a plug-in",
]
_PAIRED = {"trapdoor": {"open": "H"}, "switch": {"on": "S"}, "eye": {"on": "E"}, "gate": {"open": "G"},
           "teleporter": {"on": "T", "active": "T"}, "blaser": {"on": "R"}, "drawbridge": {"lowered": "="}}
_PLAIN = {"pit": "O", "trapdoor": "h", "switch": "s", "eye": "e", "gate": "g", "teleporter": "t", "blaser": "r",
          "drawbridge": "#", "crusher": "X", "buzzsaw": "*", "armoury": "a", "computer": "c"}
STAGED = ("crusher", "pusher")  # acting in some stages only: the legend lists them with their stages


def glyph(element: Element, state: str) -> str:
    """The one or two characters of an element in the state it is in."""
    kind = element.type
    if kind in _PAIRED and state in _PAIRED[kind]:
        return _PAIRED[kind][state]
    if kind in _PLAIN:
        return _PLAIN[kind]
    if kind in ("laser", "pusher"):  # fired or pushed away from the wall it is on
        return kind[0].upper() + ARROWS[mount(element).opposite]
    if kind == "conveyor":
        arrow = ARROWS[as_dir(element.get("dir", "N"))]
        return arrow * 2 if int(element.get("speed", 1) or 1) == 2 else arrow
    if kind == "gear":
        return {"left": "(", "right": ")"}.get(str(element.get("turn")), "@")
    if kind == "wrench":
        return "w" * min(2, int(element.get("count", 1) or 1))
    if kind == "flag":
        return str(element.get("number", "F"))[:2]
    if kind in ("wall", "fence"):
        return ""
    return "?"


def staged_lines(position: Position) -> list[str]:
    """The legend's lines for crushers and pushers: where each is and the stages it acts in."""
    return [f"  {glyph(e, state_of(e, position.elements))} at {e.at}: {e.type}, acts in stages "
            f"{stages_text(e) or 'none'}" for e in position.room.elements if e.type in STAGED]


def robot_letters(robots: Sequence[Any]) -> dict[str, str]:
    """A letter per robot in the order given (A, B, …, then a, b …)."""
    letters = [chr(c) for c in range(ord("A"), ord("Z") + 1)] + [chr(c) for c in range(ord("a"), ord("z") + 1)]
    return {robot.name: letters[i % len(letters)] for i, robot in enumerate(robots)}


def ascii_map(position: Position, letters: dict[str, str]) -> list[str]:
    """The board as lines of text; `letters` names the robots shown (robot name -> letter)."""
    room = position.room
    walls: dict[tuple[Square, Dir], str] = {}
    for element in room.of_type("wall", "fence"):
        side = mount(element)
        mark = "fence" if element.type == "fence" else "wall"
        for square, facing in ((element.at, side), (element.at.step(side), side.opposite)):
            if walls.get((square, facing)) != "fence":
                walls[square, facing] = mark
    cells: dict[Square, str] = {}
    for element in room.elements:
        text = glyph(element, state_of(element, position.elements))
        if text:
            cells[element.at] = (cells.get(element.at, "") + text)[:3]
    for robot in position.robots:
        if robot.name in letters and on_board(robot) and robot.mode != Mode.DESTROYED:  # wrecks are pictures' only
            cells[robot.at] = letters[robot.name] + ARROWS[robot.facing] + cells.get(robot.at, "")[:1]
    rows, cols = room.size.rows, room.size.cols
    lines = ["      " + "".join(f"{c:^4}" for c in range(1, cols + 1)).rstrip()]
    for r in range(1, rows + 1):
        lines.append("    " + _rule(r, rows, cols, walls))
        row = f"{r:>3} |"
        for c in range(1, cols + 1):
            square = Square(r, c)
            text = cells.get(square, ".")
            row += (f" {text} " if len(text) == 1 else f" {text}" if len(text) == 2 else text)[:3]
            row += "|" if c == cols else {"wall": "|", "fence": ":"}.get(walls.get((square, Dir.E), ""), " ")
        lines.append(row)
    lines.append("    " + _rule(rows + 1, rows, cols, walls))
    return lines


def _rule(r: int, rows: int, cols: int, walls: dict[tuple[Square, Dir], str]) -> str:
    """The line above row `r` (the board's bottom edge when r = rows + 1)."""
    line = "+"
    for c in range(1, cols + 1):
        marks = {walls.get((Square(r - 1, c), Dir.S)), walls.get((Square(r, c), Dir.N))}
        if r in (1, rows + 1):
            edge = "---"
        else:
            edge = "~~~" if "fence" in marks else "---" if "wall" in marks else "   "
        line += edge + "+"
    return line
