"""Take-Back-Toe positions (RULES D3): stacks with their counts, home rows named, the last move marked."""
from __future__ import annotations

from PIL import Image, ImageDraw

from ..dm.views import TakeBackToeView
from . import style
from .dm_clock import clock_line

CELL, MARGIN, HEADER, FOOTER = 110, 40, 56, 40
BACKGROUND, GRID, HOME = (250, 248, 240), (90, 90, 90), (232, 240, 250)
PIECE, PIECE_EDGE = (200, 150, 80), (120, 80, 30)
FROM_COLOUR, TO_COLOUR = (230, 120, 30), (40, 160, 70)
ROWS = "ABC"


def _status(data: TakeBackToeView) -> str:
    turns = ", ".join(f"{p} {n}" for p, n in data["turns"].items())
    if data["winner"]:
        return f"{data['winner']} wins: {data['ending']}"
    roll = f", must move {data['roll']}" if data["roll"] else ""
    return f"{data['to_move']} to move{roll} (turns taken: {turns}; limit {data['turn_limit']} each)"


def _skips(data: TakeBackToeView) -> str:
    """The turns skipped automatically since the player to move last moved (D3.2), or ""."""
    skipped = list(data.get("skipped") or [])
    last = data["last"]
    if skipped and last and last["move"] is None:
        skipped.pop()  # the last turn is told already
    if not skipped:
        return ""
    return "Skipped automatically: " + "; ".join(
        f"{t['player']} rolled {t['roll']} (no stack of {t['roll']})" for t in skipped) + "."


def _last(data: TakeBackToeView) -> str:
    last = data["last"]
    if last is None:
        return "No move yet."
    if last["move"] is None:
        return f"Last: {last['player']} rolled {last['roll']} and had to skip."
    return f"Last: {last['player']} rolled {last['roll']} and moved {last['move'][0]}-{last['move'][1]}."


def text(data: TakeBackToeView) -> str:
    lines = ["     1   2   3   4"]
    for name, row in zip(ROWS, data["rows"]):
        cells = "".join(f"{n if n else '.':>4}" for n in row)
        home = f"   home of {data['homes'][name]}" if name in data["homes"] else ""
        lines.append(f"{name} {cells}{home}")
    clock = clock_line(data["clock"])
    return "\n".join(lines + ["", _last(data)] + ([_skips(data)] if _skips(data) else []) + [_status(data)]
                     + ([clock] if clock else [])) + "\n"


def picture(data: TakeBackToeView) -> Image.Image:
    width = MARGIN * 2 + CELL * 4 + 150
    height = HEADER + MARGIN + CELL * 3 + FOOTER
    image = Image.new("RGB", (width, height), BACKGROUND)
    draw = ImageDraw.Draw(image)
    small, big = style.font(14), style.font(30)
    draw.text((MARGIN, 10), _last(data), fill=(0, 0, 0), font=small)
    draw.text((MARGIN, 30), _status(data), fill=(0, 0, 0), font=small)
    top = HEADER + MARGIN
    moved = data["last"]["move"] if data["last"] and data["last"]["move"] else []
    for col in range(4):
        draw.text((MARGIN + col * CELL + CELL // 2, top - 14), str(col + 1), fill=GRID, font=small, anchor="mm")
    for r, (name, row) in enumerate(zip(ROWS, data["rows"])):
        y = top + r * CELL
        draw.text((MARGIN // 2, y + CELL // 2), name, fill=GRID, font=small, anchor="mm")
        if name in data["homes"]:
            draw.text((MARGIN + 4 * CELL + 12, y + CELL // 2), f"home of\n{data['homes'][name]}", fill=(0, 0, 0),
                      font=small, anchor="lm")
        for c, count in enumerate(row):
            x = MARGIN + c * CELL
            cell = f"{name}{c + 1}"
            fill = HOME if name in data["homes"] else BACKGROUND
            draw.rectangle([x, y, x + CELL, y + CELL], fill=fill, outline=GRID, width=1)
            _stack(draw, x, y, count)
            if count:
                draw.text((x + CELL - 10, y + 10), str(count), fill=(0, 0, 0), font=big, anchor="ra")
            if cell in moved:
                colour = FROM_COLOUR if cell == moved[0] else TO_COLOUR
                draw.rectangle([x + 2, y + 2, x + CELL - 2, y + CELL - 2], outline=colour, width=5)
    if moved:
        centres = [_centre(cell, top) for cell in moved]
        draw.line(centres, fill=TO_COLOUR, width=4)
        draw.ellipse([centres[1][0] - 7, centres[1][1] - 7, centres[1][0] + 7, centres[1][1] + 7], fill=TO_COLOUR)
    return image


def _centre(cell: str, top: int) -> tuple[int, int]:
    row, col = ROWS.index(cell[0]), int(cell[1:]) - 1
    return MARGIN + col * CELL + CELL // 2, top + row * CELL + CELL // 2


def _stack(draw: ImageDraw.ImageDraw, x: int, y: int, count: int) -> None:
    """Discs piled from the bottom left, two columns of ten, then a '+' for more."""
    for i in range(min(count, 20)):
        column, level = divmod(i, 10)
        left = x + 10 + column * 30
        bottom = y + CELL - 8 - level * 9
        draw.ellipse([left, bottom - 8, left + 26, bottom], fill=PIECE, outline=PIECE_EDGE)
    if count > 20:
        draw.text((x + 72, y + CELL - 20), "+", fill=PIECE_EDGE, font=style.font(18))
