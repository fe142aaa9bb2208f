"""What never changes while a room is played: its floor picture and facts about its layout.

Drawing the floor (every square and every element whose look has no state) is
the slow part of a board picture, so it is done once per room and kept: the
`RoomLayer` of a room is cached, keyed by the room object itself, and its two pictures are kept on the shelf
(`shelf.py`) for the next process, keyed by the room's canonical text, as are its stateful squares' pictures
(`board._square_picture`).
"""
from __future__ import annotations

import math
from collections import OrderedDict
from dataclasses import dataclass, field
from functools import lru_cache
from io import BytesIO
from typing import Any, Callable, NamedTuple, cast

from PIL import Image, ImageDraw

from ..engine.geometry import Dir, Square
from ..engine.queries import has_state
from ..engine.room import Element, Room
from ..formats.canonical import canonical_json
from . import style as s
from .elements import EDGE_TYPES, Looks, as_dir, draw_element, edge, floor, mount, start_square
from .pen import Pen
from .shelf import kept, rgba_picture

# Drawing order inside one square: floor-like things first, wall-mounted things, then markers.
_LAYER = {"pusher": 1, "laser": 1, "blaser": 1, "eye": 1, "flag": 2}


def ordered(elements: tuple[Element, ...] | list[Element]) -> list[Element]:
    """Layer by layer, then square by square (a drawing may reach over its square's edge), never in the order
    of the room file: the same room gives the same picture however its file lists it (or draws it as a map)."""
    return sorted(elements, key=lambda e: (_LAYER.get(e.type, 0), e.at.row, e.at.col, e.type, e.key))


PIXEL_BUDGET = 4_000_000  # a board picture has at most this many pixels: a 100x100 room gets 19-pixel squares
CANVAS_BUDGET = 20_000_000  # pixels of the canvas a floor is drawn on before scaling down (4 bytes each)
MIN_CELL = 8


class Scale(NamedTuple):
    """How large a room is drawn: pixels per square, the margin for the coordinates, the supersampling."""

    cell: int
    margin: int
    k: int


FULL = Scale(s.CELL, s.MARGIN, s.SUPERSAMPLE)


@lru_cache(maxsize=64)
def _scale(cols: int, rows: int) -> Scale:
    cell = s.CELL
    while cell > MIN_CELL and (cols * cell + 2 * s.MARGIN * cell // s.CELL) * (
            rows * cell + 2 * s.MARGIN * cell // s.CELL) > PIXEL_BUDGET:
        cell -= 1
    margin = s.MARGIN * cell // s.CELL
    area = (cols * cell + 2 * margin) * (rows * cell + 2 * margin)
    return Scale(cell, margin, max(1, min(s.SUPERSAMPLE, math.isqrt(CANVAS_BUDGET // area))))


def scale_of(room: Room) -> Scale:
    """The standard size, or smaller squares and less supersampling for a room too large for the budgets
    (a 100x100 room at the standard size took 5 GB and 55 s to draw)."""
    return _scale(room.size.cols, room.size.rows)


def origin(square: Square, scale: Scale = FULL) -> tuple[int, int]:
    """Pixel position of a square's north-west corner in the final image."""
    return scale.margin + (square.col - 1) * scale.cell, scale.margin + (square.row - 1) * scale.cell


def image_size(room: Room) -> tuple[int, int]:
    cell, margin, _ = scale_of(room)
    return room.size.cols * cell + 2 * margin, room.size.rows * cell + 2 * margin


@dataclass
class RoomLayer:
    room: Room
    scale: Scale
    base: Image.Image  # RGBA: background, coordinates, floors, stateless elements, starts
    edges: Image.Image  # RGBA, transparent but for walls and fences (laid over everything else)
    looks: dict[str, Looks]  # Element.key -> its neighbourhood facts
    dynamic: dict[Square, tuple[Element, ...]]  # squares redrawn per state, with all their elements
    blocked: frozenset[tuple[Square, Dir]]  # (square, side) crossed by a wall or fence, both ways
    identity: str  # what its pictures are drawn from (the room's canonical text), for the shelf
    # (square, states) -> picture of a stateful square
    squares: dict[tuple[Square, tuple[str | None, ...]], Image.Image] = field(default_factory=dict)


def looks_of(room: Room) -> dict[str, Looks]:
    belts = {e.at: as_dir(e.get("dir", "N")) for e in room.of_type("conveyor")}
    switch_squares = {str(e.get("id")): str(e.at) for e in room.of_type("switch", "eye") if e.get("id")}
    looks: dict[str, Looks] = {}
    for e in room.elements:
        if e.type == "conveyor":
            out = belts[e.at]
            feeds = []
            for side in Dir:
                neighbour = e.at.step(side)
                if belts.get(neighbour) == side.opposite:  # that belt points into this square
                    feeds.append(side.turned(-out.value))
            looks[e.key] = Looks(feeds=tuple(sorted(feeds)))
        elif e.type == "drawbridge" and e.get("control"):
            looks[e.key] = Looks(label=switch_squares.get(str(e.get("control")), str(e.get("control"))))
    return looks


def blocked_edges(room: Room) -> frozenset[tuple[Square, Dir]]:
    edges: set[tuple[Square, Dir]] = set()
    for e in room.of_type(*EDGE_TYPES):
        side = mount(e)
        edges.add((e.at, side))
        edges.add((e.at.step(side), side.opposite))
    return frozenset(edges)


def _draw_coordinates(draw: ImageDraw.ImageDraw, room: Room, scale: Scale, rows: range) -> None:
    """The columns' names above and below the board, and those of `rows` left and right of it."""
    cell, margin, k = scale
    font = s.font(max(4, 10 * cell // s.CELL) * k, bold=True)
    w, h = image_size(room)
    for c in range(1, room.size.cols + 1):
        x = (margin + (c - 0.5) * cell) * k
        for y in (margin / 2, h - margin / 2):
            draw.text((x, y * k), f"c{c}", font=font, fill=s.START, anchor="mm")
    for r in rows:
        y = (margin + (r - 0.5) * cell) * k
        for x in (margin / 2, w - margin / 2):
            draw.text((x * k, y), f"r{r}", font=font, fill=s.START, anchor="mm")


def _pen(draw: ImageDraw.ImageDraw, square: Square, scale: Scale) -> Pen:
    x, y = origin(square, scale)
    return Pen(draw, x * scale.k, y * scale.k, scale.cell * scale.k)


class _Lifted:
    """An `ImageDraw` onto a strip of the large picture whose first line is the picture's line `top`: every shape is
    placed as on the whole picture, then moved up by `top` (an integer: exact for every coordinate, so each shape
    covers the same pixels as it would on the whole canvas)."""

    def __init__(self, draw: ImageDraw.ImageDraw, top: int):
        self._draw, self._top = draw, top

    def _up(self, xy: Any) -> Any:
        if isinstance(xy[0], (int, float)):  # x0, y0, x1, y1 ... or one point
            return [v - self._top if i % 2 else v for i, v in enumerate(xy)]
        return [(x, y - self._top) for x, y in xy]

    def __getattr__(self, name: str) -> Callable[..., None]:
        method = getattr(self._draw, name)
        return lambda xy, *args, **kwargs: method(self._up(xy), *args, **kwargs)


STRIP = 48  # rows of the final picture drawn large at a time (a square's at the standard scale)
_REACH = 3  # the Lanczos filter reads 3 of the final picture's pixels (k of the large one's each) either side


def _drawn(room: Room, fill: tuple[int, int, int, int],
           paint: Callable[[ImageDraw.ImageDraw, range], None]) -> Image.Image:
    """A picture of `room` drawn `k` times larger and scaled down a strip of rows at a time, so the large canvas is
    never held whole (a 12x12 room's is ~25 MB, and scaling it down copied it: the peak of a site build).

    The pixels are those of the whole canvas scaled down at once: each strip is scaled from the rows the filter
    reads (through `box`), and `paint(draw, rows)` draws the squares of `rows` (the board rows those reach, and one
    more either side, as a drawing may reach over its square's edge) on a canvas that starts a row above them.
    Pillow fills a shape cut by the canvas's top edge a little differently; one cut by its bottom, alike."""
    cell, margin, k = scale_of(room)
    size = image_size(room)

    def row_at(y: int) -> int:  # the board row at line y of the large picture (0, rows + 1: the margins)
        return min(max((y // k - margin) // cell + 1, 0), room.size.rows + 1)

    picture = Image.new("RGBA", size)
    for first in range(0, size[1], STRIP):
        last = min(size[1], first + STRIP)
        top, bottom = max(0, (first - _REACH) * k), min(size[1] * k, (last + _REACH) * k)
        rows = range(row_at(top) - 1, row_at(bottom - 1) + 2)
        start = max(0, (margin + (rows.start - 2) * cell) * k)  # the top of the row above them
        canvas = Image.new("RGBA", (size[0] * k, bottom - start), fill)
        paint(cast(ImageDraw.ImageDraw, _Lifted(ImageDraw.Draw(canvas), start)), rows)
        read = canvas.crop((0, top - start, size[0] * k, bottom - start))
        del canvas
        picture.paste(read.resize((size[0], last - first), Image.Resampling.LANCZOS,
                                  box=(0, first * k - top, size[0] * k, last * k - top)), (0, first))
    return picture


def _pictures(room: Room, dynamic_squares: set[Square], looks: dict[str, Looks]) -> tuple[Image.Image, Image.Image]:
    """The floor (`base`) and the walls and fences (`edges`)."""
    return _floor_picture(room, dynamic_squares, looks), _edges_picture(room)


def _floor_picture(room: Room, dynamic_squares: set[Square], looks: dict[str, Looks]) -> Image.Image:
    """Background, coordinates, floors, starts and every element whose look has no state."""
    scale = scale_of(room)
    elements = [e for e in ordered(room.elements) if e.type not in EDGE_TYPES and e.at not in dynamic_squares]

    def paint(draw: ImageDraw.ImageDraw, rows: range) -> None:
        board_rows = range(max(1, rows.start), min(rows.stop, room.size.rows + 1))
        _draw_coordinates(draw, room, scale, board_rows)
        for row in board_rows:
            for col in range(1, room.size.cols + 1):
                floor(_pen(draw, Square(row, col), scale))
        for number, square in enumerate(room.starts, 1):
            if square.row in rows:
                start_square(_pen(draw, square, scale), str(number))
        for e in elements:
            if e.at.row in rows:
                draw_element(_pen(draw, e.at, scale), e, "", looks.get(e.key, Looks()))

    return _drawn(room, s.BACKGROUND + (255,), paint)


def _edges_picture(room: Room) -> Image.Image:
    """Transparent but for the walls, the fences and the electric fence around the board."""
    scale = scale_of(room)
    cell, margin, k = scale
    w, h = image_size(room)
    x0, y0 = margin * k, margin * k
    x1, y1 = (w - margin) * k, (h - margin) * k
    perimeter = round(0.05 * cell * k)  # the electric fence around every board (RULES B6.2)
    walls = ordered(room.of_type(*EDGE_TYPES))

    def paint(draw: ImageDraw.ImageDraw, rows: range) -> None:
        box = [x0 - perimeter, y0 - perimeter, x1 + perimeter, y1 + perimeter]
        draw.rectangle(box, outline=s.FENCE, width=perimeter)
        draw.rectangle(box, outline=s.INK, width=k)
        for e in walls:
            if e.at.row in rows:
                edge(_pen(draw, e.at, scale).turned(mount(e)), fence=e.type == "fence")

    return _drawn(room, (0, 0, 0, 0), paint)


def _stacked(pictures: tuple[Image.Image, Image.Image]) -> bytes:
    """Both pictures as one lossless PNG, `base` above `edges`."""
    base, edges = pictures
    both = Image.new("RGBA", (base.width, 2 * base.height))
    both.paste(base, (0, 0))
    both.paste(edges, (0, base.height))
    buffer = BytesIO()
    both.save(buffer, "PNG", compress_level=1)
    return buffer.getvalue()


def _unstacked(data: bytes) -> tuple[Image.Image, Image.Image]:
    both = rgba_picture(data)
    half = both.height // 2
    return both.crop((0, 0, both.width, half)), both.crop((0, half, both.width, both.height))


def _build(room: Room) -> RoomLayer:
    dynamic_squares = {e.at for e in room.elements if has_state(e)}  # the engine says which kinds keep a state
    looks = looks_of(room)
    identity = "room layer\n" + canonical_json(room)
    base, edges = kept(identity, lambda: _pictures(room, dynamic_squares, looks), _stacked, _unstacked)
    dynamic = {sq: tuple(ordered(room.elements_at(sq))) for sq in sorted(dynamic_squares)}
    dynamic = {sq: tuple(e for e in els if e.type not in EDGE_TYPES) for sq, els in dynamic.items()}
    return RoomLayer(room, scale_of(room), base, edges, looks, dynamic, blocked_edges(room), identity)


_CACHE: OrderedDict[int, RoomLayer] = OrderedDict()
_CACHE_SIZE = 32


def room_layer(room: Room) -> RoomLayer:
    """The cached layer of `room` (rooms are immutable, so the picture never goes stale)."""
    layer = _CACHE.get(id(room))
    if layer is None or layer.room is not room:
        layer = _build(room)
        _CACHE[id(room)] = layer
        while len(_CACHE) > _CACHE_SIZE:
            _CACHE.popitem(last=False)
    _CACHE.move_to_end(id(room))
    return layer
