"""Flower Field positions (RULES D4): coloured flowers with their letters, a legend, lives, the last move marked."""
from __future__ import annotations

from PIL import Image, ImageDraw

from ..dm.views import FlowerFieldView
from . import style
from .dm_clock import clock_line

CELL, MARGIN, HEADER = 64, 36, 64
BACKGROUND, SOIL, GRID, MARK = (246, 250, 240), (225, 214, 190), (120, 110, 90), (255, 140, 0)
COLOURS = {
    "red": (205, 40, 50), "blue": (45, 85, 205), "purple": (135, 55, 175), "yellow": (235, 195, 30),
    "green": (40, 150, 60), "turquoise": (30, 170, 175),
}


def _status(data: FlowerFieldView) -> str:
    lives = ", ".join(f"{p} {n}" for p, n in data["lives"].items())
    if data["winner"]:
        return f"{data['winner']} wins: {data['ending']} (lives: {lives})"
    return f"{data['to_move']} to move (lives: {lives})"


MISSED_SHOWN = 10  # a finished game can have thousands of missed pairs: the text shows the first few


def text(data: FlowerFieldView) -> str:
    last = set(data["last"]["cells"]) if data["last"] else set()
    lines = ["   " + "".join(f" {c} " for c in range(1, 8))]
    for r, row in enumerate(data["board"]):
        name = chr(ord("A") + r)
        cells = "".join(f"[{k}]" if f"{name}{c + 1}" in last else f" {k} " for c, k in enumerate(row))
        lines.append(f"{name}  {cells}")
    legend = ", ".join(f"{k['letter']} {k['name']}" for k in data["kinds"])
    lines += ["", f"Flowers: {legend}; [ ] marks the last move."]
    if data["event"]:
        lines.append(data["event"] + ".")
    lines.append(_status(data))
    if clock_line(data["clock"]):
        lines.append(clock_line(data["clock"]))
    if data["missed"]:
        lines += ["", f"Missed duplicates ({len(data['missed'])}):"]
        for entry in data["missed"][:MISSED_SHOWN]:
            first, second = ("-".join(basket) for basket in entry["pair"])
            made = f"{entry['player']}'s plant {entry['planted']}" if entry["player"] else "the start"
            lines.append(f"  {first} = {second} (made by {made}, missed by {entry['missed_by']})")
        if len(data["missed"]) > MISSED_SHOWN:
            lines.append(f"  ... and {len(data['missed']) - MISSED_SHOWN} more (the whole list: the match's page, "
                         "pbem dm site)")
    return "\n".join(lines) + "\n"


def picture(data: FlowerFieldView) -> Image.Image:
    legend_height = 26 * len(data["kinds"]) + 16
    width = MARGIN * 2 + CELL * 7
    small, letter_font = style.font(14), style.font(22)
    header = [line for text in (data["event"] or "No move yet.", _status(data))
              for line in style.fit_lines(text, small, width - 2 * MARGIN)]
    head = max(HEADER, 10 + 22 * len(header) + 12)  # the event and the status, wrapped to the board's width
    height = head + MARGIN + CELL * 7 + legend_height
    image = Image.new("RGB", (width, height), BACKGROUND)
    draw = ImageDraw.Draw(image)
    for i, line in enumerate(header):
        draw.text((MARGIN, 10 + 22 * i), line, fill=(0, 0, 0), font=small)
    colours = {k["letter"]: COLOURS[k["colour"]] for k in data["kinds"]}
    last = set(data["last"]["cells"]) if data["last"] else set()
    top = head + MARGIN
    for c in range(7):
        draw.text((MARGIN + c * CELL + CELL // 2, top - 14), str(c + 1), fill=GRID, font=small, anchor="mm")
    for r, row in enumerate(data["board"]):
        name = chr(ord("A") + r)
        y = top + r * CELL
        draw.text((MARGIN // 2, y + CELL // 2), name, fill=GRID, font=small, anchor="mm")
        for c, kind in enumerate(row):
            x = MARGIN + c * CELL
            draw.rectangle([x, y, x + CELL, y + CELL], fill=SOIL, outline=GRID)
            if kind in colours:
                _flower(draw, x + CELL // 2, y + CELL // 2, colours[kind])
                draw.text((x + CELL // 2, y + CELL // 2), kind, fill=_ink(colours[kind]), font=letter_font, anchor="mm")
            if f"{name}{c + 1}" in last:
                draw.rectangle([x + 2, y + 2, x + CELL - 2, y + CELL - 2], outline=MARK, width=4)
    y = top + CELL * 7 + 12
    for shown in data["kinds"]:
        _flower(draw, MARGIN + 10, y + 10, COLOURS[shown["colour"]], radius=10)
        draw.text((MARGIN + 28, y + 10), f"{shown['letter']}  {shown['name']}", fill=(0, 0, 0), font=small,
                  anchor="lm")
        y += 26
    draw.rectangle([width - MARGIN - 150, top + CELL * 7 + 14, width - MARGIN - 134, top + CELL * 7 + 30],
                   outline=MARK, width=3)
    draw.text((width - MARGIN - 126, top + CELL * 7 + 22), "last move", fill=(0, 0, 0), font=small, anchor="lm")
    return image


def _ink(colour: tuple[int, int, int]) -> tuple[int, int, int]:
    """Black on light flowers, white on dark ones."""
    red, green, blue = colour
    return (0, 0, 0) if 0.299 * red + 0.587 * green + 0.114 * blue > 150 else (255, 255, 255)


def _flower(draw: ImageDraw.ImageDraw, x: int, y: int, colour: tuple[int, int, int], radius: int = 22) -> None:
    """Four petals around a heart, all in the kind's colour."""
    petal = radius // 2
    for dx, dy in ((0, -petal), (petal, 0), (0, petal), (-petal, 0)):
        draw.ellipse([x + dx - petal, y + dy - petal, x + dx + petal, y + dy + petal], fill=colour,
                     outline=(60, 60, 60))
    draw.ellipse([x - petal, y - petal, x + petal, y + petal], fill=colour)
