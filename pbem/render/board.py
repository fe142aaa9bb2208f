"""The picture of a board as it stands: the room's cached floor, element states, beams, robots.

`draw_position(position)` returns a Pillow image (`draw_board(board)` for a `Board`);
`position_png(position)` its PNG bytes, identical for identical positions. Robots take their owner's colour (owners in
name order, see `style.owner_colours`) unless the caller passes colours, so
every picture of one game uses the same colours.
"""
from __future__ import annotations

from functools import lru_cache
from typing import Sequence

from PIL import Image, ImageDraw, ImageFont

from ..engine.geometry import Dir, Square
from ..engine.queries import Beam, board_beams
from ..engine.state import Board, Robot
from ..engine.vocabulary import Mode
from . import style as s
from .dm import png_bytes
from .elements import Looks, draw_element, floor, state_of
from .model import Position
from .pen import Pen
from .shelf import kept, rgba_picture
from .static import RoomLayer, Scale, image_size, origin, room_layer

ON_BOARD_MODES = (Mode.REAL, Mode.VIRTUAL, Mode.REBOOTING, Mode.DESTROYED)


def _sprite(k: int) -> tuple[Image.Image, ImageDraw.ImageDraw, Pen]:
    canvas = Image.new("RGBA", (s.CELL * k, s.CELL * k), (0, 0, 0, 0))
    draw = ImageDraw.Draw(canvas)
    return canvas, draw, Pen(draw, 0, 0, s.CELL * k)


def _finish(canvas: Image.Image, cell: int = s.CELL) -> Image.Image:
    return canvas.resize((cell, cell), Image.Resampling.LANCZOS)


def _square_picture(layer: RoomLayer, square: Square, states: tuple[str, ...]) -> Image.Image:
    """One square holding stateful elements, floor and all, for the given states (kept in the layer, and on the
    shelf: ~0.7 ms each to draw, and a process's first board picture needs each stateful square of its room)."""
    picture = layer.squares.get((square, states))
    if picture is None:
        picture = layer.squares[(square, states)] = kept(
            f"{layer.identity}\nsquare {square} {states}", lambda: _drawn_square(layer, square, states),
            lambda drawn: png_bytes(drawn, 1), rgba_picture)
    return picture


def _drawn_square(layer: RoomLayer, square: Square, states: tuple[str, ...]) -> Image.Image:
    canvas, _, pen = _sprite(s.SUPERSAMPLE)
    floor(pen)
    for element, state in zip(layer.dynamic[square], states):
        draw_element(pen, element, state, layer.looks.get(element.key, Looks()))
    return _finish(canvas, layer.scale.cell)


@lru_cache(maxsize=256)
def robot_sprite(colour: s.Colour, facing: Dir, mode: str, cell: int = s.CELL) -> Image.Image:
    """A robot seen from above, `cell` pixels wide: body in its owner's colour, a white wedge pointing where it
    faces. Kept on the shelf: ~1 ms each to draw, and a turn's report needs ~20."""
    return kept(f"robot sprite\n{colour}\n{facing.name}\n{mode}\n{cell}",
                lambda: _drawn_robot(colour, facing, mode, cell), lambda sprite: png_bytes(sprite, 1), rgba_picture)


def _drawn_robot(colour: s.Colour, facing: Dir, mode: str, cell: int) -> Image.Image:
    canvas, draw, pen = _sprite(s.SUPERSAMPLE)
    body = s.DIM if mode == Mode.DESTROYED else colour
    pen.circle(0.52, 0.45, 0.33, fill=(0, 0, 0, 90))
    pen.circle(0.5, 0.42, 0.32, fill=s.shade(body, 0.55))
    pen.circle(0.5, 0.42, 0.27, fill=body)
    (dr, dc), (pr, pc) = facing.delta, facing.turned(1).delta
    cx, cy = 0.5, 0.42
    pen.polygon([(cx + 0.31 * dc, cy + 0.31 * dr), (cx + 0.06 * dc + 0.15 * pc, cy + 0.06 * dr + 0.15 * pr),
                 (cx + 0.06 * dc - 0.15 * pc, cy + 0.06 * dr - 0.15 * pr)], fill=(255, 255, 255))
    pen.circle(0.5, 0.42, 0.07, fill=s.shade(body, 0.4))
    if mode == Mode.DESTROYED:
        pen.line([(0.3, 0.22), (0.7, 0.62)], s.OFF_RED, 0.08)
        pen.line([(0.7, 0.22), (0.3, 0.62)], s.OFF_RED, 0.08)
    if mode == Mode.REBOOTING:
        pen.circle(0.8, 0.16, 0.14, fill=s.FENCE, outline=s.INK, width=0.03)
        pen.text(0.8, 0.17, "R", 0.18, s.INK)
    sprite = _finish(canvas, cell)
    if mode == Mode.VIRTUAL:  # a ghost: see-through, with a dashed white ring
        alpha = sprite.getchannel("A").point(lambda a: a * 11 // 20)
        sprite.putalpha(alpha)
        d = ImageDraw.Draw(sprite)
        r = 0.34 * cell
        cx, cy = 0.5 * cell, 0.42 * cell
        for start in range(0, 360, 40):
            d.arc([cx - r, cy - r, cx + r, cy + r], start, start + 22, fill=(255, 255, 255, 255), width=2)
    return sprite


def _label_font(cell: int) -> ImageFont.FreeTypeFont:
    return s.font(max(6, 10 * cell // s.CELL), bold=True)


def _label(text: str, width: int, cell: int) -> str:
    """`text` cut with an ellipsis to fit `width` pixels of the robot label font."""
    font = _label_font(cell)
    if font.getlength(text) <= width:
        return text
    while text and font.getlength(text + "…") > width:
        text = text[:-1]
    return text + "…"


@lru_cache(maxsize=512)
def _label_sprite(names: str, cell: int = s.CELL) -> Image.Image:
    """The robot name label under a robot: white on a dark outline, cut to the square's width."""
    text = _label(names, cell + 6, cell)
    font = _label_font(cell)
    stroke = 2 if cell * 2 > s.CELL else 1
    left, top, right, bottom = font.getbbox(text, stroke_width=stroke, anchor="mm")
    sprite = Image.new("RGBA", (int(right - left), int(bottom - top)), (0, 0, 0, 0))  # FreeType: whole pixels
    ImageDraw.Draw(sprite).text((-left, -top), text, font=font, fill=(255, 255, 255), anchor="mm",
                                stroke_width=stroke, stroke_fill=s.INK)
    return sprite


def _draw_beams(image: Image.Image, beams: Sequence[Beam], scale: Scale) -> None:
    """Each board laser's beam to where the engine says it stops (`engine.queries.board_beams`)."""
    draw = ImageDraw.Draw(image, "RGBA")
    for beam in beams:
        (dr, dc), (pr, pc) = beam.direction.delta, beam.direction.turned(1).delta
        x0, y0 = origin(beam.start, scale)
        x1, y1 = origin(beam.stop, scale)
        cell = scale.cell
        half = cell / 2
        start_xy = (x0 + half + dc * (0.34 * cell - half), y0 + half + dr * (0.34 * cell - half))
        stop = 0 if beam.hit else half - 4
        end_xy = (x1 + half + dc * stop, y1 + half + dr * stop)
        for i in range(beam.beams):
            off = (i - (beam.beams - 1) / 2) * 0.14 * cell
            a = (start_xy[0] + pc * off, start_xy[1] + pr * off)
            b = (end_xy[0] + pc * off, end_xy[1] + pr * off)
            draw.line([a, b], fill=(255, 110, 110, 150), width=5)
            draw.line([a, b], fill=s.BEAM + (255,), width=2)


def on_board(robot: Robot) -> bool:  # also a snapshot's robot view
    """Drawn: standing on the board, or destroyed where it still has a square (shown as a wreck)."""
    return robot.at is not None and robot.mode in ON_BOARD_MODES and not getattr(robot, "left_room", False)


Box = tuple[int, int, int, int]  # left, top, right, bottom (exclusive), in pixels


def _draw_robots(image: Image.Image, robots: list[Robot], colours: dict[str, s.Colour], scale: Scale) -> list[Box]:
    """Sprites and name labels onto `image` (RGBA, or an opaque RGB picture such as an animation's frame); returns
    a box around each square's robots and label (the rest of `image` is as it was)."""
    boxes: list[Box] = []
    by_square: dict[Square, list[Robot]] = {}
    for robot in sorted(robots, key=lambda r: r.name):
        if robot.at is not None:
            by_square.setdefault(robot.at, []).append(robot)
    for square, here in sorted(by_square.items()):
        x, y = origin(square, scale)
        cell = scale.cell
        drawn = [(robot_sprite(colours.get(robot.owner, s.OWNER_PALETTE[0]), robot.facing, robot.mode, cell),
                  (x + round((i - (len(here) - 1) / 2) * 0.3 * cell), y)) for i, robot in enumerate(here)]
        label = _label_sprite(" / ".join(r.name for r in here), cell)
        drawn.append((label, (x + (cell - label.width) // 2, y + round(0.86 * cell) - label.height // 2)))
        for sprite, at in drawn:
            if image.mode == "RGBA":
                image.alpha_composite(sprite, at)
            else:
                image.paste(sprite, at, sprite)
        corners = [(left, top, left + sprite.width, top + sprite.height) for sprite, (left, top) in drawn]
        boxes.append((min(c[0] for c in corners), min(c[1] for c in corners), max(c[2] for c in corners),
                      max(c[3] for c in corners)))
    return boxes


def draw_floor(position: Position) -> Image.Image:
    """The room with its elements in their states, no robots, no beams (RGBA; an animation's backdrop)."""
    layer = room_layer(position.room)
    image = layer.base.copy()
    for square, elements in layer.dynamic.items():
        states = tuple(state_of(e, position.elements) for e in elements)
        image.paste(_square_picture(layer, square, states), origin(square, layer.scale))
    return image


def draw_robots(image: Image.Image, position: Position, colours: dict[str, s.Colour]) -> list[Box]:
    """The position's robots (those on the board, wrecks included) onto `image`; returns the boxes drawn on."""
    return _draw_robots(image, [r for r in position.robots if on_board(r)], colours, room_layer(position.room).scale)


def draw_position(position: Position, colours: dict[str, s.Colour] | None = None) -> Image.Image:
    """The picture (RGB): robots coloured by `colours` (owner -> RGB), else by owner name order."""
    return _drawn(position, colours).convert("RGB")


def _drawn(position: Position, colours: dict[str, s.Colour] | None) -> Image.Image:
    """The picture as drawn, in RGBA (every pixel opaque)."""
    layer = room_layer(position.room)
    image = _backdrop(position).copy()
    robots = [r for r in position.robots if on_board(r)]
    _draw_marks(image, position.marks, layer.scale)
    _draw_rings(image, tuple(r.at for r in robots if r.name in position.own), layer.scale)
    _draw_robots(image, robots, colours or s.owner_colours([r.owner for r in position.robots]), layer.scale)
    return image


BACKDROPS = 2  # backdrops kept: a dealt turn's sheets show one board, one sheet after the other
_backdrops: dict[tuple[object, ...], tuple[RoomLayer, Image.Image]] = {}  # the least recently used first


def _backdrop(position: Position) -> Image.Image:
    """The position's floor, its beams and the room's walls over them (RGBA, not to be drawn on): what every
    picture of the position shares, whoever reads it (their rings and marks go over it). Kept for the last few
    positions drawn: the four sheets of a dealt turn show the same board, ringed for each player."""
    layer = room_layer(position.room)
    beams = tuple(board_beams(position.room, position.elements, position.robots))
    key = (id(layer), tuple(sorted(position.elements.items())), beams)
    kept = _backdrops.pop(key, None)
    if kept is None or kept[0] is not layer:  # (a layer's id may be another's once it is gone)
        image = draw_floor(position)
        _draw_beams(image, beams, layer.scale)
        image.alpha_composite(layer.edges)
        kept = (layer, image)
    _backdrops[key] = kept  # now the most recently used
    while len(_backdrops) > BACKDROPS:
        del _backdrops[next(iter(_backdrops))]
    return kept[1]


def _draw_rings(image: Image.Image, squares: tuple[Square, ...], scale: Scale) -> None:
    """A black-and-gold ring under each of the reader's own robots (their turn sheet, on a board shared with others)."""
    draw = ImageDraw.Draw(image, "RGBA")
    cell = scale.cell
    for square in sorted(set(squares)):
        x, y = origin(square, scale)
        draw.ellipse([x + 2, y + 2, x + cell - 3, y + cell - 3], outline=(20, 20, 20, 255), width=7)
        draw.ellipse([x + 4, y + 4, x + cell - 5, y + cell - 5], outline=(255, 214, 0, 255), width=3)


def _draw_marks(image: Image.Image, squares: tuple[Square, ...], scale: Scale) -> None:
    """A bright ring around each square to point out (a robot's next flag on its turn sheet)."""
    draw = ImageDraw.Draw(image, "RGBA")
    for square in sorted(set(squares)):
        x, y = origin(square, scale)
        draw.rectangle([x + 2, y + 2, x + scale.cell - 3, y + scale.cell - 3], outline=(255, 196, 0, 255), width=4)


def draw_board(board: Board, colours: dict[str, s.Colour] | None = None) -> Image.Image:
    return draw_position(Position.of(board.room, board), colours)


PNG_LEVEL = 3  # for 256-colour pictures: 5x faster than level 6, 15 % bigger


def position_png(position: Position, colours: dict[str, s.Colour] | None = None) -> bytes:
    """PNG bytes of the picture with at most 256 colours: a quarter of the size of full colour,
    and faster to compress (a stage picture must take well under 20 ms, BENCHMARKS.md)."""
    return png_bytes(in_colours(_drawn(position, colours)), PNG_LEVEL)


def in_colours(picture: Image.Image, colours: int = 256) -> Image.Image:
    """An opaque RGBA (or an RGB) picture as `picture.convert("RGB").quantize(colours,
    method=Image.Quantize.FASTOCTREE, dither=Image.Dither.NONE)`: the same palette and indices, by the C extension
    `_octree` where it is built (`pip install`, or `setup.py build_ext --inplace` in a checkout), by Pillow
    otherwise. The extension reads the picture's bytes once, a run of one colour at a time; Pillow copies them
    three times and counts pixel by pixel (its ~2.3 ms were half of a stage picture's CPU; the extension's take
    less than half of that)."""
    try:
        from . import _octree
    except ImportError:
        return picture.convert("RGB").quantize(colours, method=Image.Quantize.FASTOCTREE, dither=Image.Dither.NONE)
    indices, palette = _octree.quantize(picture.tobytes(), colours, len(picture.mode))
    quantized = Image.frombytes("P", picture.size, indices)
    quantized.putpalette(palette)
    return quantized


__all__ = ["draw_board", "draw_position", "position_png", "image_size", "robot_sprite"]
