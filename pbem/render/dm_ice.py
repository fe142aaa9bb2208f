"""The Ice maze picture: ice blue, rocks black, goals red, snoms green (the seed's colours).

A locked snom (on a goal) keeps its red square and gets a dark ring, so a
player sees at once which snoms still move.
"""
from __future__ import annotations

from PIL import Image, ImageDraw

from ..dm.views import IceView
from . import style

CELL = 32
MARGIN = 12
LINE = 18
LABEL = 20  # room for the row and column numbers
KEY = "green: snom (ringed when locked on a goal)   red: goal   black: rock"
ICE, ROCK, GOAL, SNOM, RING, GRID, TEXT, PAPER = (
    "#cde9f7", "#1f1f1f", "#d64545", "#2f9e44", "#10401c", "#8fb8cc", "#111111", "#ffffff"
)


def draw_ice(data: IceView) -> Image.Image:
    rows: list[str] = data["rows"]
    lines = [data.get("title", "Ice maze"), *data.get("lines", [])]
    font, small = style.font(14), style.font(11)
    cols = len(rows[0]) if rows else 0
    top = MARGIN + LINE * len(lines) + MARGIN // 2 + LABEL
    left = MARGIN + LABEL
    text_width = max(int(font.getlength(text)) for text in [*lines, KEY])
    width = max(left + cols * CELL + MARGIN, 2 * MARGIN + text_width)
    image = Image.new("RGB", (width, top + len(rows) * CELL + MARGIN + LINE), PAPER)
    pen = ImageDraw.Draw(image)
    for i, text in enumerate(lines):
        pen.text((MARGIN, MARGIN + i * LINE), text, fill=TEXT, font=font)
    for c in range(cols):  # the row and column numbers of the text board
        pen.text((left + c * CELL + CELL / 2, top - LABEL / 2), str(c + 1), fill=TEXT, font=small, anchor="mm")
    for r in range(len(rows)):
        pen.text((left - LABEL / 2 - 2, top + r * CELL + CELL / 2), str(r + 1), fill=TEXT, font=small, anchor="mm")
    pen.text((MARGIN, top + len(rows) * CELL + MARGIN // 2), KEY, fill=TEXT, font=font)
    for r, row in enumerate(rows):
        for c, symbol in enumerate(row):
            x, y = left + c * CELL, top + r * CELL
            fill = ROCK if symbol == "#" else GOAL if symbol in "G*" else ICE
            pen.rectangle((x, y, x + CELL - 1, y + CELL - 1), fill=fill, outline=GRID)
            if symbol in "S*":
                inset = 5
                pen.ellipse((x + inset, y + inset, x + CELL - 1 - inset, y + CELL - 1 - inset), fill=SNOM,
                            outline=RING if symbol == "*" else None, width=3)
    return image


def ice_text(data: IceView) -> str:
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
