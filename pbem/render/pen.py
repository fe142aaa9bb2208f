"""Drawing in square units: (0, 0) is a square's north-west corner, (1, 1) its south-east.

A pen can be turned so that a wall-mounted element is drawn once, as if on the
north wall, and lands on whichever side it is mounted. Text is placed through
the turn but never rotated, so numbers always read upright.
"""
from __future__ import annotations

import math
from typing import Iterable, Sequence

from PIL import ImageDraw

from ..engine.geometry import Dir
from . import style

Point = tuple[float, float]
Ink = tuple[int, ...]  # a colour: RGB, or RGBA where it is see-through


class Pen:
    def __init__(self, draw: ImageDraw.ImageDraw, x0: float, y0: float, size: float, side: Dir = Dir.N):
        self.draw, self.x0, self.y0, self.size, self.side = draw, x0, y0, size, side

    def turned(self, side: Dir) -> "Pen":
        """The same square, drawing as if `side` were north."""
        return Pen(self.draw, self.x0, self.y0, self.size, side)

    def at(self, x: float, y: float) -> tuple[float, float]:
        """Pixel position of square point (x, y) of the turned frame."""
        for _ in range(self.side.value):
            x, y = 1 - y, x
        return self.x0 + x * self.size, self.y0 + y * self.size

    def _box(self, x1: float, y1: float, x2: float, y2: float) -> list[float]:
        (ax, ay), (bx, by) = self.at(x1, y1), self.at(x2, y2)
        return [min(ax, bx), min(ay, by), max(ax, bx), max(ay, by)]

    def _w(self, width: float) -> int:
        return max(1, round(width * self.size))

    def rect(self, x1: float, y1: float, x2: float, y2: float, fill: Ink | None = None, outline: Ink | None = None,
             width: float = 0.0, radius: float = 0.0) -> None:
        box = self._box(x1, y1, x2, y2)
        if radius:
            self.draw.rounded_rectangle(box, radius * self.size, fill=fill, outline=outline,
                                        width=self._w(width) if outline else 0)
        else:
            self.draw.rectangle(box, fill=fill, outline=outline, width=self._w(width) if outline else 0)

    def circle(self, cx: float, cy: float, r: float, fill: Ink | None = None, outline: Ink | None = None,
               width: float = 0.0) -> None:
        x, y = self.at(cx, cy)
        rr = r * self.size
        self.draw.ellipse([x - rr, y - rr, x + rr, y + rr], fill=fill, outline=outline,
                          width=self._w(width) if outline else 0)

    def polygon(self, points: Iterable[Point], fill: Ink | None = None, outline: Ink | None = None,
                width: float = 0.0) -> None:
        self.draw.polygon([self.at(x, y) for x, y in points], fill=fill, outline=outline,
                          width=self._w(width) if outline else 0)

    def line(self, points: Sequence[Point], fill: Ink, width: float) -> None:
        self.draw.line([self.at(x, y) for x, y in points], fill=fill, width=self._w(width), joint="curve")

    @staticmethod
    def arc_points(cx: float, cy: float, r: float, start_deg: float, end_deg: float, steps: int = 24,
                   ry: float | None = None) -> list[Point]:
        """Points along a circle (or ellipse, radii r and ry) arc; degrees, 0 = east, clockwise (screen)."""
        ry = r if ry is None else ry
        return [(cx + r * math.cos(math.radians(a)), cy + ry * math.sin(math.radians(a)))
                for a in (start_deg + (end_deg - start_deg) * i / steps for i in range(steps + 1))]

    def arrowhead(self, tip: Point, towards_deg: float, length: float, half_width: float, fill: Ink) -> None:
        """A filled triangle whose tip is `tip`, pointing at screen angle `towards_deg`."""
        a = math.radians(towards_deg)
        bx, by = tip[0] - length * math.cos(a), tip[1] - length * math.sin(a)
        nx, ny = -math.sin(a) * half_width, math.cos(a) * half_width
        self.polygon([tip, (bx + nx, by + ny), (bx - nx, by - ny)], fill=fill)

    def text(self, cx: float, cy: float, text: str, size: float, fill: Ink, bold: bool = True,
             stroke: Ink | None = None) -> None:
        """Upright text centred on square point (cx, cy); `size` in square units."""
        x, y = self.at(cx, cy)
        px = max(6, round(size * self.size))
        self.draw.text((x, y), text, font=style.font(px, bold), fill=fill, anchor="mm",
                       stroke_width=max(1, px // 8) if stroke else 0, stroke_fill=stroke)
