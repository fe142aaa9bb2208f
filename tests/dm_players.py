"""Scripted death-match players who use only what their mails say: the position from the text board, the action
from the lines offered ("You may send now", "Reply with these lines"). A player's own tools (a solver) may work
on the board they read, as a person's pencil would."""
from __future__ import annotations

import re

from dm_desk import reply_block

from pbem.dm.gyulbot.bfs import bfs_solve
from pbem.dm.gyulbot.board import format_solution
from pbem.dm.icemaze import Maze, solve
from pbem.formats.gyulbot import parse_puzzle


def offers(text: str) -> list[str]:
    """The actions a mail offers, as payload text ({claim: 8}, {skip: true}, ...)."""
    found = re.search(r"You may send now:\n((?:  .*\n)+)", text)
    return [] if found is None else [line.strip().split("  ")[0] for line in found.group(1).splitlines()]


def reply(text: str, action: str | None = None) -> str:
    """The offered reply lines, with another of the offered actions (or the player's own numbers) if given."""
    block = reply_block(text)
    assert block is not None, text
    return block if action is None else re.sub(r"(?m)^action: .*$", f"action: {action}", block)


def offer(text: str, kind: str) -> str:
    """The offered action of `kind` (claim, skip, give_up, ...), exactly as offered."""
    return next(o for o in offers(text) if o.startswith("{" + kind + ":"))


def gyulbot_solution(text: str) -> str:
    """A shortest solution of the puzzle drawn on the mail's text board (walls, robots and goal as shown)."""
    lines = text.splitlines()
    top = next(i for i, line in enumerate(lines) if re.match(r"\s+c1\s", line))
    cols = len(lines[top].split())
    rows = [line for line in lines[top:] if re.match(r"r\d+\s+\|", line)]
    walls = []
    for r, line in enumerate(rows, start=1):
        cells = line[line.index("|"):]
        for c in range(1, cols):
            if cells[4 * c] == "|":
                walls.append(f"r{r}c{c} E")
        below = lines[lines.index(line) + 1]
        for c in range(1, cols + 1):
            if r < len(rows) and below[line.index("|") + 4 * c - 3:line.index("|") + 4 * c] == "---":
                walls.append(f"r{r}c{c} S")
    robots = {colour: [square] for _, colour, square in re.findall(r"(\w) (\w+) at (r\d+c\d+)", text.split(
        "Robots:")[1].split("\n")[0])}
    goal = re.search(r"Goal \* at (r\d+c\d+)(?:: an? (\w+) robot)?", text)
    puzzle = parse_puzzle({"size": f"{len(rows)}x{cols}", "walls": walls, "robots": robots,
                           "goal": {"at": goal.group(1), **({"colour": goal.group(2)} if goal.group(2) else {})}})
    moves = bfs_solve(puzzle, 10)
    assert moves is not None
    return format_solution(puzzle, moves)


def ice_solution(text: str) -> str:
    """A shortest solution of the maze on the mail's text board."""
    rows = [match.group(1) for match in re.finditer(r"(?m)^\s+\d+ ([#.GS*]+)$", text)]
    found = solve(Maze.from_rows(rows)).orders
    assert found is not None
    return found
