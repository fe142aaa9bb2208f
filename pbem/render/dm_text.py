"""Gyulbot and Ice maze positions as text a plain-text mail reader can play from: a board with coordinates,
the robots (or snoms), walls and goal, a legend, and the round's state."""
from __future__ import annotations

from typing import Any

from .dm import writer


def _gyulbot_grid(data: dict[str, Any]) -> list[str]:
    """The board drawn with `|` and `---` walls between cells, rows r1.. down and columns c1.. across."""
    rows, cols = data["rows"], data["cols"]
    south = {(r - 1, c) for r, c, side in data["walls"] if side == "N"}
    east = {(r, c - 1) for r, c, side in data["walls"] if side == "W"}
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


@writer("gyulbot")
def gyulbot_text(data: dict[str, Any]) -> str:
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
    lines.append(_gyulbot_status(data))
    return "\n".join(lines) + "\n"


def _gyulbot_status(data: dict[str, Any]) -> str:
    if data["winner"]:
        return f"Match over: {data['winner']} wins."
    if data["phase"] == "claims":
        return "Claims are open: the first claim of a number of moves makes its author Player A."
    if data["phase"] == "undercut":
        return f"{data['claimant']} claims {data['claim']}; the other player may undercut with fewer."
    return f"{data['demonstrator']} must demonstrate {data['demo_moves']} moves."


@writer("ice")
def ice_text(data: dict[str, Any]) -> str:
    rows: list[str] = data["rows"]
    cols = len(rows[0]) if rows else 0
    tens = "".join(str(c // 10) if c >= 10 else " " for c in range(1, cols + 1))
    lines = [data.get("title", "Ice maze"), ""]
    if cols >= 10:
        lines.append("    " + tens)
    lines.append("    " + "".join(str(c % 10) for c in range(1, cols + 1)))
    lines += [f"{r:>3} {row}" for r, row in enumerate(rows, 1)]
    lines += ["", "# rock  . ice  G goal  S snom  * snom on a goal (locked); orders L R U D move every snom.", ""]
    lines += [*data.get("lines", []), *data.get("history", [])[-3:]]
    return "\n".join(lines) + "\n"
