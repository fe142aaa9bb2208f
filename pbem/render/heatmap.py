"""A room's heat map (issue #16, `pbem room analyse`): where the bots' robots spent their stages, where they died.

The room is drawn as at the start of a game; each square is tinted by the
robot-stages spent on it (pale to deep orange, scaled to the busiest square),
and every square where a robot was destroyed gets a red cross, thicker the
more robots died there.
"""
from __future__ import annotations

import math
from collections import Counter

from PIL import Image, ImageDraw

from ..engine.elements import new_board
from ..engine.geometry import Square
from ..engine.room import Room
from . import style as s
from .board import draw_position
from .dm import png_bytes
from .model import Position
from .static import origin

HEAT = (255, 120, 0)  # the tint of the busiest square
MAX_ALPHA = 170
DEATH = (200, 0, 0, 255)


def heatmap_png(room: Room, visits: Counter[Square], deaths: Counter[Square]) -> bytes:
    """`visits`: square -> robot-stages spent there; `deaths`: square -> robots destroyed there."""
    image = draw_position(Position.of(room, new_board(room))).convert("RGBA")
    overlay = Image.new("RGBA", image.size, (0, 0, 0, 0))
    draw = ImageDraw.Draw(overlay)
    busiest = max(visits.values(), default=0)
    for square, count in sorted(visits.items()):
        x, y = origin(square)
        alpha = 40 + math.isqrt((MAX_ALPHA - 40) ** 2 * count // busiest)  # square root: rare squares still show
        draw.rectangle([x, y, x + s.CELL - 1, y + s.CELL - 1], fill=(*HEAT, alpha))
    worst = max(deaths.values(), default=0)
    for square, count in sorted(deaths.items()):
        x, y = origin(square)
        width = 2 + 4 * count // worst
        inset = 8
        draw.line([x + inset, y + inset, x + s.CELL - inset, y + s.CELL - inset], fill=DEATH, width=width)
        draw.line([x + s.CELL - inset, y + inset, x + inset, y + s.CELL - inset], fill=DEATH, width=width)
    image.alpha_composite(overlay)
    return png_bytes(image.convert("RGB"), 6)


def death_squares(deaths: Counter[tuple[Square, str]]) -> Counter[Square]:
    """(square, cause) counts folded to square counts."""
    folded: Counter[Square] = Counter()
    for (square, _), count in deaths.items():
        folded[square] += count
    return folded


__all__ = ["death_squares", "heatmap_png"]
