"""Nim's view (what its rules show) and the two drawings of it: the text board of every mail and a small picture."""
from __future__ import annotations

from typing import Optional, TypedDict

from PIL import Image, ImageDraw

from pbem.dm.views import ClockView
from pbem.render import style
from pbem.render.dm_clock import clock_line


class TakeView(TypedDict):
    player: str
    count: int
    heap: str


class NimView(TypedDict):
    game: str
    heaps: dict[str, int]  # heap name -> objects left, in order
    misere: bool
    to_move: Optional[str]
    last: Optional[TakeView]
    clock: Optional[ClockView]
    winner: Optional[str]
    ending: str


def _lines(data: NimView) -> list[str]:
    last = data["last"]
    done = "No take yet." if last is None else f"Last: {last['player']} took {last['count']} from {last['heap']}."
    goal = "whoever takes the last object loses (misere)" if data["misere"] else "whoever takes the last object wins"
    now = f"{data['winner']} wins: {data['ending']}" if data["winner"] else f"{data['to_move']} to take; {goal}"
    clock = clock_line(data["clock"])
    return [done, now] + ([clock] if clock else [])


def text(data: NimView) -> str:
    heaps = [f"{name}  {'o' * size or '-':<12} {size}" for name, size in data["heaps"].items()]
    return "\n".join(heaps + [""] + _lines(data)) + "\n"


ROW, OBJECT, MARGIN = 34, 22, 16


def picture(data: NimView) -> Image.Image:
    """Each heap a row of discs, its name before it; the last take and whose turn it is above."""
    widest = max(data["heaps"].values(), default=1)
    width, top = 2 * MARGIN + 30 + max(widest, 12) * OBJECT, 2 * MARGIN + 20
    image = Image.new("RGB", (width, top + ROW * len(data["heaps"]) + MARGIN), (250, 248, 240))
    draw, font = ImageDraw.Draw(image), style.font(14)
    for number, line in enumerate(_lines(data)[:2]):
        draw.text((MARGIN, MARGIN // 2 + 18 * number), line, fill=(0, 0, 0), font=font)
    for row, (name, size) in enumerate(data["heaps"].items()):
        y = top + row * ROW
        draw.text((MARGIN, y + 4), name, fill=(90, 90, 90), font=font)
        for index in range(size):
            x = MARGIN + 30 + index * OBJECT
            draw.ellipse([x, y, x + OBJECT - 4, y + OBJECT - 4], fill=(200, 150, 80), outline=(120, 80, 30))
    return image
