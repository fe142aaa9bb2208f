"""The report tables drawn in plain text, for the text part of the email."""
from __future__ import annotations

from .model import BoardReport, Table

MAX_COLUMN = 34


def _wrap(line: str, width: int) -> list[str]:
    out: list[str] = []
    while len(line) > width:
        cut = line.rfind(" ", 0, width + 1)
        cut = cut if cut > 0 else width
        out.append(line[:cut].rstrip())
        line = line[cut:].lstrip()
    return out + [line]


def table_text(table: Table) -> str:
    """A boxed table: row labels down the left, one column per robot, long lines wrapped."""
    grid = [["NAME", *table.columns]] + [[row.label, *("\n".join(cell) for cell in row.cells)]
                                         for row in table.rows]
    widths = [min(MAX_COLUMN, max(len(line) for r in grid for line in r[i].split("\n")))
              for i in range(len(grid[0]))]
    rule = "+" + "+".join("-" * (w + 2) for w in widths) + "+"
    lines = [table.caption, rule]
    for n, row in enumerate(grid):
        cells = [[piece for line in cell.split("\n") for piece in _wrap(line, w)] for cell, w in zip(row, widths)]
        for i in range(max(len(c) for c in cells)):
            lines.append("| " + " | ".join((c[i] if i < len(c) else "").ljust(w)
                                          for c, w in zip(cells, widths)) + " |")
        if n == 0 or n == len(grid) - 1:
            lines.append(rule)
    lines += [f"  * {note}" for note in table.notes]
    return "\n".join(lines)


def board_text(report: BoardReport) -> str:
    parts = [report.title, "=" * len(report.title)]
    for stage in report.stages:
        parts += ["", table_text(stage.table)]
    parts += ["", table_text(report.end_of_turn)]
    if report.fused:
        parts += ["", table_text(report.fused)]
    return "\n".join(parts)


def turn_text(game: str, turn: int, reports: list[BoardReport]) -> str:
    heading = f"{game} — turn {turn}"
    body = "\n\n".join(board_text(r) for r in reports)
    return f"{heading}\n\nThe board pictures are in the HTML part of this message.\n\n{body}\n"
