"""The report tables drawn in plain text, for the text part of the email."""
from __future__ import annotations

import textwrap
from functools import lru_cache
from typing import TYPE_CHECKING, Sequence

if TYPE_CHECKING:  # annotations only: the death matches' mail wraps its text without the campaign's models (#34)
    from .model import BoardReport, Table

MAX_COLUMN = 18  # a robot's column wraps beyond this (three robots side by side in 78 columns)
MAX_WIDTH = 78  # (WIDTH) a table wider than this is cut into blocks of robots, each with the row labels


@lru_cache(maxsize=4096)
def _wrap(text: str, width: int) -> tuple[str, ...]:
    """Remembered: every player's mail of a turn repeats most cells."""
    return tuple(piece for line in text.split("\n") for piece in (textwrap.wrap(line, width) or [""]))


WIDTH = 78  # every line of a mail's text part fits here: the reader's program need not wrap anything


def fitted(lines: Sequence[str], width: int = WIDTH, hang: int = 2) -> list[str]:
    """Each line wrapped to `width`, its continuation indented `hang` more than the line itself; a line that
    fits is left as it is. It breaks only where a sentence may (`phrases`): never inside a backticked code span,
    never between a word and its number. A phrase longer than the width stands alone on its line."""
    out: list[str] = []
    for line in lines:
        if len(line) <= width:
            out.append(line.rstrip())
            continue
        indent = " " * (len(line) - len(line.lstrip(" ")))
        wrapped = [indent]
        for phrase in phrases(line.strip()):
            if wrapped[-1].strip() and len(wrapped[-1]) + 1 + len(phrase) > width:
                wrapped.append(indent + " " * hang)
            wrapped[-1] += f" {phrase}" if wrapped[-1].strip() else phrase
        out += wrapped
    return out


PARENTHESIS = 50  # a parenthesis up to this long is kept on one line: "(Friday 4 December, 03:00 JST your time)"


def phrases(text: str) -> list[str]:
    """The words of `text` joined where a line must not break: the words of a `code span`, a short parenthesis,
    and a word with the number after it ("register 1", "turn 4"; not after a comma: "December, 13:00" may)."""
    joined: list[str] = []
    paired = text.count("`") % 2 == 0  # a stray backtick (a player's press) opens no code span
    for word in text.split():
        last = joined[-1] if joined else ""
        in_code = paired and last.count("`") % 2 == 1
        aside = last.count("(") > last.count(")") and len(last) + 1 + len(word) <= PARENTHESIS
        numbered = word[:1].isdigit() and last[-1:].isalpha()
        if in_code or aside or numbered:
            joined[-1] += " " + word
        else:
            joined.append(word)
    return joined


def _block(grid: list[list[str]], widths: list[int]) -> list[str]:
    rule = "+" + "+".join("-" * (w + 2) for w in widths) + "+"
    lines = [rule]
    for n, row in enumerate(grid):
        cells = [_wrap(cell, w) for cell, w in zip(row, widths)]
        for i in range(max(len(c) for c in cells)):
            lines.append("| " + " | ".join((c[i] if i < len(c) else "").ljust(w)
                                          for c, w in zip(cells, widths)) + " |")
        if n == 0 or n == len(grid) - 1:
            lines.append(rule)
    return lines


def table_text(table: Table) -> str:
    """A boxed table: row labels down the left, one column per robot, long lines wrapped; many
    robots make several blocks, one under the other."""
    grid = [["NAME", *table.columns]] + [[row.label, *("\n".join(cell) for cell in row.cells)]
                                         for row in table.rows]
    widths = [min(MAX_COLUMN, max(len(line) for r in grid for line in r[i].split("\n")))
              for i in range(len(grid[0]))]
    blocks: list[list[int]] = [[]]
    for i in range(1, len(widths)):
        used = widths[0] + 4 + sum(widths[j] + 3 for j in blocks[-1])
        if blocks[-1] and used + widths[i] + 3 > MAX_WIDTH:
            blocks.append([])
        blocks[-1].append(i)
    lines = [table.caption]
    for block in blocks:
        columns = [0, *block]
        lines += _block([[row[i] for i in columns] for row in grid], [widths[i] for i in columns])
    lines += fitted([f"  * {note}" for note in table.notes])
    return "\n".join(lines)


def board_text(report: BoardReport, player: str | None = None) -> str:
    parts = [report.title, "=" * len(report.title)]
    key = report.owner_key()
    if len(key) > 1:  # a shared board: whose robots are which (the pictures draw them in these colours)
        parts += fitted(["Robots: " + "; ".join(f"{'yours' if entry.owner == player else entry.owner}: "
                                                f"{', '.join(entry.robots)}" for entry in key) + "."])
    for stage in report.stages:
        parts += ["", table_text(stage.table)]
    parts += ["", table_text(report.end_of_turn)]
    if report.fused:
        parts += ["", table_text(report.fused)]
    return "\n".join(parts)


def turn_text(game: str, turn: int, reports: list[BoardReport], notice: Sequence[str] = (),
              player: str | None = None, ending: Sequence[str] = ()) -> str:
    heading = f"{game} — turn {turn}"
    body = "\n\n".join(board_text(r, player) for r in reports)
    told = "".join(f"{line}\n" for lines in (fitted(ending, hang=0), fitted(notice)) if lines for line in [*lines, ""])
    return f"{heading}\n\n{told}The turn as an animated picture is in the HTML part of\nthis message; each stage's picture is on the game's site.\n\n{body}\n"
