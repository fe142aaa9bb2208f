"""Gyulbot positions as pictures and as text boards (coordinates, walls, robots by colour, the goal, the round)."""
from __future__ import annotations

import hashlib
import math
from datetime import datetime

from PIL import Image, ImageDraw

from ..dm.clock import when
from ..dm.views import GyulbotView
from . import style

CELL = 36
MARGIN = 12
HEADER = 44
LABEL = 22  # room for the row and column names
WALL = 5
NAMED = {
    "red": (214, 48, 49), "green": (39, 174, 96), "blue": (41, 98, 255), "yellow": (241, 196, 15),
    "black": (30, 30, 30), "white": (250, 250, 250), "orange": (230, 126, 34), "purple": (142, 68, 173),
    "silver": (170, 170, 170), "grey": (128, 128, 128), "gray": (128, 128, 128), "pink": (232, 67, 147),
    "cyan": (0, 184, 212), "brown": (121, 85, 72),
}
GRID, FLOOR, INK = (200, 200, 200), (245, 242, 232), (25, 25, 25)
NORTH, EAST, SOUTH, WEST = "N", "E", "S", "W"


def colour_rgb(name: str | None) -> tuple[int, int, int]:
    """A colour word's RGB; unknown words get a stable colour from their name."""
    if name is None:
        return (120, 120, 120)
    if name.lower() in NAMED:
        return NAMED[name.lower()]
    digest = hashlib.blake2b(name.lower().encode(), digest_size=3).digest()
    red, green, blue = (64 + b // 2 for b in digest)
    return (red, green, blue)


def draw_gyulbot(data: GyulbotView) -> Image.Image:
    rows, cols = data["rows"], data["cols"]
    font, small = style.font(14), style.font(11)
    lines = [_headline(data), _status(data)]
    text_width = max(int(font.getlength(line)) for line in lines)
    width = max(MARGIN + LABEL + cols * CELL + MARGIN, 2 * MARGIN + text_width)
    height = HEADER + LABEL + rows * CELL + MARGIN
    image = Image.new("RGB", (width, height), "white")
    pen = ImageDraw.Draw(image)

    def corner(row: int, col: int) -> tuple[int, int]:
        return MARGIN + LABEL + (col - 1) * CELL, HEADER + LABEL + (row - 1) * CELL

    for col in range(1, cols + 1):  # the coordinates the text board and the solutions' squares use
        x, y = corner(1, col)
        pen.text((x + CELL / 2, y - LABEL / 2), f"c{col}", fill=INK, font=small, anchor="mm")
    for row in range(1, rows + 1):
        x, y = corner(row, 1)
        pen.text((x - LABEL / 2 - 2, y + CELL / 2), f"r{row}", fill=INK, font=small, anchor="mm")

    for row in range(1, rows + 1):
        for col in range(1, cols + 1):
            x, y = corner(row, col)
            pen.rectangle([x, y, x + CELL, y + CELL], fill=FLOOR, outline=GRID)

    goal_row, goal_col = data["goal"]["at"]
    x, y = corner(goal_row, goal_col)
    _star(pen, x + CELL / 2, y + CELL / 2, CELL * 0.42, colour_rgb(data["goal"]["colour"]))

    for row, col, side in _walls(data):
        x, y = corner(row, col)
        segment = {NORTH: [x, y, x + CELL, y], SOUTH: [x, y + CELL, x + CELL, y + CELL],
                   WEST: [x, y, x, y + CELL], EAST: [x + CELL, y, x + CELL, y + CELL]}[side]
        pen.line(segment, fill=INK, width=WALL)
    x0, y0 = corner(1, 1)
    pen.rectangle([x0, y0, x0 + cols * CELL, y0 + rows * CELL], outline=INK, width=WALL)

    for robot in data["robots"]:
        fill = colour_rgb(robot["colour"])
        for row, col in robot["squares"]:
            x, y = corner(row, col)
            inset = CELL * 0.16
            pen.ellipse([x + inset, y + inset, x + CELL - inset, y + CELL - inset], fill=fill, outline=INK, width=2)

    for i, line in enumerate(lines):
        pen.text((MARGIN, 6 + 18 * i), line, fill=INK, font=font)
    return image


def _star(pen: ImageDraw.ImageDraw, cx: float, cy: float, radius: float, fill: style.Colour) -> None:
    points = []
    for k in range(10):
        r = radius if k % 2 == 0 else radius * 0.45
        angle = -math.pi / 2 + k * math.pi / 5
        points.append((cx + r * math.cos(angle), cy + r * math.sin(angle)))
    pen.polygon(points, fill=fill, outline=INK)


def _headline(data: GyulbotView) -> str:
    scores = "  ".join(f"{player} {points}" for player, points in data["scores"].items())
    round_text = f"round {data['round']}/{data['rounds']}" + (" (tiebreak)" if data["round"] > data["rounds"] else "")
    return f"Gyulbot  {round_text}  {scores}"


def _status(data: GyulbotView) -> str:
    if data["phase"] == "over":
        return f"Match over: {data['winner']} wins" + (f" ({data['ending']})" if data.get("ending") else "")
    if data["phase"] == "claims":
        return "Claims are open: the first claim of a number of moves makes its author Player A"
    if data["phase"] == "undercut":
        return f"{data['claimant']} claims {data['claim']}; undercut until {_when(data['deadline']) or 'a pass'}"
    return f"{data['demonstrator']} must show {data['demo_moves']} moves by {_when(data['deadline']) or 'no deadline'}"


def _when(stamp: str | None) -> str | None:
    """An ISO time stamp as players read it (to the second, UTC)."""
    return None if stamp is None else when(datetime.fromisoformat(stamp))


def _walls(data: GyulbotView) -> list[tuple[int, int, str]]:
    """Each wall as (row, column, side)."""
    return [(int(row), int(col), str(side)) for row, col, side in data["walls"]]


def _gyulbot_grid(data: GyulbotView) -> list[str]:
    """The board drawn with `|` and `---` walls between cells, rows r1.. down and columns c1.. across."""
    rows, cols = data["rows"], data["cols"]
    south = {(r - 1, c) for r, c, side in _walls(data) if side == "N"}
    east = {(r, c - 1) for r, c, side in _walls(data) if side == "W"}
    marks = {(r, c): robot["colour"][:1].upper() for robot in data["robots"] for r, c in robot["squares"]}
    goal = tuple(data["goal"]["at"])
    lines = ["     " + "".join(f"c{c:<3}" for c in range(1, cols + 1)).rstrip(), "    +" + "---+" * cols]
    for r in range(1, rows + 1):
        cells = ""
        for c in range(1, cols + 1):
            mark = marks.get((r, c), "*" if (r, c) == goal else ".")
            cells += f" {mark} " + ("|" if c == cols or (r, c) in east else " ")
        lines.append(f"r{r:<3}|{cells}")
        lines.append("    +" + "".join("---+" if r == rows or (r, c) in south else "   +" for c in range(1, cols + 1)))
    return lines


def gyulbot_text(data: GyulbotView) -> str:
    goal = data["goal"]
    robots = ", ".join(f"{robot['colour'][:1].upper()} {robot['colour']} at "
                       + " ".join(f"r{r}c{c}" for r, c in robot["squares"]) for robot in data["robots"])
    target = f"a {goal['colour']} robot" if goal.get("colour") else "any robot"
    lines = _gyulbot_grid(data) + [
        "", f"Robots: {robots}.", f"Goal * at r{goal['at'][0]}c{goal['at'][1]}: {target} must stop there.",
        "Walls: | and --- between squares; moves are U D L R (a robot slides until it is stopped).",
        "", f"Round {data['round']} of {data['rounds']}; "
        + ", ".join(f"{player} {score}" for player, score in data["scores"].items()) + "."]
    lines += data["log"][-3:]
    lines.append(_status(data) + ".")
    return "\n".join(lines) + "\n"
