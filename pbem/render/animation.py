"""A turn as one small animated picture: the robots moving square by square through the stages.

Frames come from the engine's own record of the turn — the board at the start of each stage and the events
in order — never from a second copy of the rules: a frame at the start of every stage, one after every
movement step (a robot's square or facing changing: a card's step, a push, a belt, a pusher, a gear, a
teleport), and the board as the turn ends. Each frame carries its stage number. Beams are left out: the
animation shows where robots go; each stage's picture shows who stands in a beam. GIF, because every mail
client shows it; the bytes depend only on the frames, so the same turn gives the same file.
"""
from __future__ import annotations

import dataclasses
import io
from functools import lru_cache
from typing import Any, Mapping, Sequence

from PIL import GifImagePlugin, Image, ImageChops, ImageDraw

from ..engine import events as ev
from ..engine.events import Event
from ..engine.room import Room
from ..engine.vocabulary import Mode
from . import style as s
from .board import Box, draw_floor, draw_robots, in_colours
from .model import Position
from .static import room_layer

# Events that change where a robot is or where it faces: (the robot's field, the event's field with its new value)
MOVES: dict[type[Event], tuple[str, str]] = {
    ev.Moved: ("at", "to_sq"), ev.Pushed: ("at", "to_sq"), ev.Teleported: ("at", "to_sq"), ev.Conveyed: ("at", "to_sq"),
    ev.PushedByPusher: ("at", "to_sq"), ev.Turned: ("facing", "to_facing"), ev.Rotated: ("facing", "to_facing")}
# The mechanism phases that move every robot on them at once: one frame each (a card's step is its own)
_PHASE_STEPS = (ev.Conveyed, ev.PushedByPusher, ev.Rotated)
PUSHING = ("pushing",)  # a card's step whose pushes are recorded and whose own move is still to come
FRAME_MS, PAUSE_MS = 350, 900  # a step; the first frame of a stage and the end are held longer


def frames(room: Room, snapshots: Sequence[Any], events: Sequence[Event]) -> list[tuple[str, Position, int]]:
    """(caption, position, milliseconds) of every frame: `snapshots` are the board at the start of each stage
    and then at the end of the turn (as stored per turn), `events` the turn's events in order. One step is one
    frame: a card's step with the robots it pushes (the engine records the pushes just before the pusher's
    move) and a teleport it lands on, or one belt, pusher or gear phase moving every robot on them at once."""
    by_stage: dict[int, list[Event]] = {}
    for event in events:
        by_stage.setdefault(event.stage, []).append(event)
    shown: list[tuple[str, Position, int]] = []
    for number, snapshot in enumerate(snapshots[:-1], start=1):
        position = Position.of(room, snapshot)
        caption = f"stage {number}"
        shown.append((caption, position, PAUSE_MS))
        robots = {r.name: r for r in position.robots}
        elements = dict(position.elements)
        step: tuple[object, ...] | None = None  # the step the frame being gathered shows

        def flush() -> None:  # called only within this stage's iteration, so its variables are this stage's
            if step is not None:  # noqa: B023
                shown.append((caption, Position(room, tuple(robots.values()), dict(elements)), FRAME_MS))  # noqa: B023

        for event in by_stage.get(number, []):
            kind = type(event)
            robot = robots.get(event.robot) if event.robot else None
            if isinstance(event, (ev.ElementChanged, ev.SwitchFlipped)):
                elements[event.source] = event.state
            elif robot is not None and isinstance(event, (ev.Destroyed, ev.Fell, ev.Crushed)):
                robots[robot.name] = dataclasses.replace(robot, mode=Mode.DESTROYED)
            elif robot is not None and isinstance(event, ev.LeftRoom):
                robots[robot.name] = dataclasses.replace(robot, at=None)
            elif robot is not None and kind in MOVES:
                if kind is ev.Pushed:  # B6.3: recorded before the pusher's own move, which belongs to this step
                    if step != PUSHING and (step is None or step[0] is not ev.PushedByPusher):
                        flush()
                        step = PUSHING
                elif kind is ev.Teleported and step is not None:
                    pass  # lands where the step that caused it took the robot
                elif step == PUSHING:  # the pusher's own move: a card's step, or a pusher element's phase
                    step = _step(event) or ("card", id(event))
                else:
                    key = _step(event)
                    if key is None or key != step:
                        flush()
                        step = key if key is not None else ("card", id(event))
                changed, value = MOVES[kind]
                robots[robot.name] = dataclasses.replace(robot, **{changed: getattr(event, value)})
        flush()
    shown.append(("end of turn", Position.of(room, snapshots[-1]), PAUSE_MS * 2))
    return shown


def _step(event: Event) -> tuple[object, ...] | None:
    """Which step a movement starts: None for a card's step or turn (each its own), else the mechanism phase
    whose robots all move at once (pushes and teleports belong to the step that caused them)."""
    if isinstance(event, _PHASE_STEPS):
        return (type(event), getattr(event, "express", None))
    return None


SCALE = (3, 4)  # frames drawn at 3/4 of the stage pictures' size: the animation fits a mail (issue #24)
COLOURS = 63  # the frames' one palette (a board needs fewer, and fewer colours compress better) ...
UNCHANGED = COLOURS  # ... and one more index, transparent: a pixel as the frame before left it


def turn_gif(room: Room, snapshots: Sequence[Any], events: Sequence[Event],
             colours: Mapping[str, s.Colour] | None = None) -> bytes:
    """The animated GIF of one board's turn (looping), at SCALE of the stage pictures, in COLOURS colours."""
    shown = frames(room, snapshots, events)
    palette = dict(colours) if colours else s.owner_colours([r.owner for _, p, _ in shown for r in p.robots])
    floors: dict[tuple[tuple[str, str], ...], Image.Image] = {}  # the room in each set of element states, drawn once
    scaled: dict[tuple[tuple[str, str], ...], Image.Image] = {}  # the same, at SCALE
    mapped: dict[tuple[tuple[str, str], ...], Image.Image] = {}  # the same, scaled and in the palette
    gif = GifFrames(loop=0, optimize=False, disposal=1, transparency=UNCHANGED)
    palette_image: Image.Image | None = None
    image: Image.Image | None = None  # the frame being drawn: the room's floor with robots and caption on it
    drawn_key, boxes = None, []  # whose floor `image` holds, and where the frame before drew over it
    last: tuple[Image.Image, Pieces, tuple[tuple[str, str], ...]] | None = None  # the frame before: picture, pieces, floor
    moved_before: list[Box] | None = None  # where the frame before differs from the one before it (None: anywhere)
    for caption, position, milliseconds in shown:
        key = tuple(sorted(position.elements.items()))
        if key not in floors:
            floor = draw_floor(position)
            floor.alpha_composite(room_layer(room).edges)
            floors[key] = floor.convert("RGB")
            scaled[key] = _scaled(floors[key])
        if image is None or key != drawn_key:
            image, drawn_key = floors[key].copy(), key
        else:  # the floor mended where the frame before drew, rather than copied whole for every frame
            _mend(image, floors[key], boxes)
        boxes = [*draw_robots(image, position, palette), _caption(image, caption)]
        # one palette for every frame (made from the first), every frame mapped to it the same way, the first
        # included: the encoder then stores only what changed between frames
        if palette_image is None:
            first = _patched(image, boxes, scaled[key]) if _in_blocks(image) else _scaled(image)
            palette_image = in_colours(first, COLOURS)
        if key not in mapped:
            mapped[key] = scaled[key].quantize(palette=palette_image, dither=Image.Dither.NONE)
        pieces = _pieces(image, boxes, palette_image, last[1] if last is not None and last[2] == key else {})
        picture = _laid(mapped[key], pieces)
        if last is None:
            gif.add(picture, milliseconds)
            moved = None
        else:
            moved = _moved(pieces, last[1]) if last[2] == key else None
            gif.add(_changes(last[0], picture, moved), milliseconds,
                    None if moved is None or moved_before is None else moved + moved_before)
        last, moved_before = (picture, pieces, key), moved
    return gif.end()


class GifFrames:
    """An animated GIF written a frame at a time: the bytes of Pillow's `save(save_all=True, append_images=…,
    duration=[…], **options)` of the same frames, without holding them all. Pillow's writer keeps every frame
    until the file is written (~15-20 MB for a long turn in a 12x12 room); this one holds only the frame waiting
    for the next (a frame the same as the one before lengthens it instead, as Pillow does). It follows Pillow's own
    steps (its GIF plugin's helpers) for options without a `palette` and a constant `disposal` other than 2, which
    are the animations', and two frames or more (a turn has its first stage's and its end's); the render goldens
    and tests/test_render_animation.py compare the bytes with Pillow's."""

    def __init__(self, **options: Any):
        self.options = {"save_all": True, **options}
        self.out = io.BytesIO()
        self.waiting: tuple[Image.Image, tuple[int, int, int, int] | None, dict[str, Any]] | None = None
        self.count = 0

    def add(self, frame: Image.Image, milliseconds: int, within: Sequence[Box] | None = None) -> None:
        """The next frame, shown `milliseconds`; `within`: the boxes outside which it is the same as the frame
        added before (None: it may differ anywhere), where the two are compared."""
        frame = GifImagePlugin._normalize_mode(frame.copy())
        if self.count == 0:
            self.options.update((k, v) for k, v in frame.info.items() if k != "transparency" and isinstance(k, str)
                                and k not in self.options)
        info = {**self.options, "duration": milliseconds}
        if "transparency" in frame.info:
            info.setdefault("transparency", frame.info["transparency"])
        frame = GifImagePlugin._normalize_palette(frame, None, info)
        self.count += 1
        box = None
        if self.waiting is not None:
            box = _difference_box(self.waiting[0], frame, within)
            if not box:  # the same picture as the frame before: that one is shown longer
                if milliseconds:
                    self.waiting[2]["duration"] = self.waiting[2].get("duration", 0) + milliseconds
                return
            self._write()
        self.waiting = (frame, box, info)

    def end(self) -> bytes:
        """The file's bytes."""
        self._write()
        self.out.write(b";")
        return self.out.getvalue()

    def _write(self) -> None:
        assert self.waiting is not None
        frame, box, info = self.waiting
        if box is None:  # the first frame, with the file's header
            for part in GifImagePlugin._get_global_header(frame, info):
                self.out.write(part)
            piece, offset = frame, (0, 0)
        else:
            info["include_color_table"] = True
            piece = frame if box == (0, 0, *frame.size) else frame.crop(box)
            offset = box[:2]
        GifImagePlugin._write_frame_data(self.out, piece, offset, info)


def _difference_box(before: Image.Image, frame: Image.Image, within: Sequence[Box] | None) -> Box | None:
    """The box around the pixels where `frame` differs from `before` (Pillow's `_getbbox`), looked for `within`
    these boxes alone when the frames are the same outside them and share a palette."""
    if within is None or _palette(before) != _palette(frame):
        return GifImagePlugin._getbbox(before, frame)[1]
    found = []
    for left, top, right, bottom in within:
        box = ImageChops.subtract_modulo(frame.crop((left, top, right, bottom)),
                                         before.crop((left, top, right, bottom))).getbbox(alpha_only=False)
        if box:
            found.append((left + box[0], top + box[1], left + box[2], top + box[3]))
    if not found:
        return None
    return min(b[0] for b in found), min(b[1] for b in found), max(b[2] for b in found), max(b[3] for b in found)


def _palette(frame: Image.Image) -> bytes:
    return bytes(frame.palette.palette) if frame.palette else b""


def _indices(frame: Image.Image) -> Image.Image:
    """A palette frame's indices as a greyscale picture."""
    return Image.frombytes("L", frame.size, frame.tobytes())


_SAME = [255] + [0] * 255  # a difference of 0 (the same index) -> masked; Pillow's table for `point`


def _changes(before: Image.Image, after: Image.Image, moved: Sequence[Box] | None) -> Image.Image:
    """`after` with every pixel it shares with the frame `before` made transparent: the viewer keeps the frame
    before under it (disposal 1), and runs of one index compress to almost nothing, so a frame costs what moved.
    `moved`: the boxes outside which the two are the same (None: anywhere), the only ones compared."""
    frame = after.copy()
    frame.paste(UNCHANGED, (0, 0, *frame.size))
    for box in [(0, 0, *after.size)] if moved is None else moved:
        piece = after.crop(box)
        same = ImageChops.difference(_indices(before.crop(box)), _indices(piece)).point(_SAME, "1")
        piece.paste(UNCHANGED, mask=same)
        frame.paste(piece, box[:2])
    return frame


def _scaled(image: Image.Image) -> Image.Image:
    """The picture at SCALE (a box filter: each block of 4 x 4 pixels becomes 3 x 3 on its own)."""
    size = (image.width * SCALE[0] // SCALE[1], image.height * SCALE[0] // SCALE[1])
    return image.resize(size, Image.Resampling.BOX)


def _in_blocks(image: Image.Image) -> bool:
    """Whether `image` is whole blocks of SCALE, so that `_scaled` scales each block on its own (a large room's
    smaller squares may leave a part of a block at its edge)."""
    return image.width % SCALE[1] == 0 and image.height % SCALE[1] == 0


def _blocks(boxes: list[Box], size: tuple[int, int]) -> list[Box]:
    """The boxes widened to whole blocks of SCALE (and cut to the picture's whole blocks), empty ones left out."""
    step = SCALE[1]
    blocks = [(max(left, 0) // step * step, max(top, 0) // step * step,
               min(-(-right // step) * step, size[0] // step * step),
               min(-(-bottom // step) * step, size[1] // step * step)) for left, top, right, bottom in boxes]
    return [box for box in blocks if box[0] < box[2] and box[1] < box[3]]


def _at_scale(box: Box) -> Box:
    """A box of whole blocks in the scaled picture."""
    step, part = SCALE[1], SCALE[0]
    return box[0] // step * part, box[1] // step * part, box[2] // step * part, box[3] // step * part


def _patched(image: Image.Image, boxes: list[Box], floor: Image.Image) -> Image.Image:
    """`_scaled(image)`, where `image` differs from the floor it was drawn on only inside `boxes` and `floor` is that
    floor scaled: the scaling works block by block, so scaling the boxes alone (widened to whole blocks) gives the
    same picture, at a fraction of the cost (the robots and caption cover a few percent of a frame)."""
    frame = floor.copy()
    for box in _blocks(boxes, image.size):
        frame.paste(_scaled(image.crop(box)), _at_scale(box)[:2])
    return frame


Pieces = dict[tuple[Box, bytes], Image.Image]  # a frame's blocks scaled and in the palette, by box and RGB bytes


def _pieces(image: Image.Image, boxes: list[Box], palette: Image.Image, before: Pieces) -> Pieces:
    """The boxes of `image` (widened to whole blocks) scaled and in the palette: with the floor under them (scaled
    and in the palette), `_scaled(image).quantize(palette=palette)` without dithering. The scaling works block by
    block and Pillow's mapping pixel by pixel (each colour to its nearest entry), so the boxes alone give the same
    picture (see `_patched`); a box the frame before had, with the same pixels, is its piece again (most of a
    frame's robots stand where they stood)."""
    pieces: Pieces = {}
    for box in _blocks(boxes, image.size):
        crop = image.crop(box)
        content = (box, crop.tobytes())
        piece = before.get(content)
        pieces[content] = piece if piece is not None else _scaled(crop).quantize(palette=palette,
                                                                                   dither=Image.Dither.NONE)
    return pieces


def _laid(floor: Image.Image, pieces: Pieces) -> Image.Image:
    """The frame: its pieces on the floor (scaled and in the palette; overlapping pieces agree where they meet)."""
    frame = floor.copy()
    for (box, _), piece in pieces.items():
        frame.paste(piece, _at_scale(box)[:2])
    return frame


def _moved(pieces: Pieces, before: Pieces) -> list[Box]:
    """Where a frame laid from `pieces` may differ from the one laid from `before` on the same floor: the boxes of
    the pieces either has and the other has not (in the scaled picture)."""
    return sorted({_at_scale(box) for box, _ in pieces.keys() ^ before.keys()})


def _mend(image: Image.Image, floor: Image.Image, boxes: list[Box]) -> None:
    """`image` (drawn on `floor` inside `boxes` only) made the floor again."""
    for left, top, right, bottom in boxes:
        box = (max(left, 0), max(top, 0), min(right, image.width), min(bottom, image.height))
        if box[0] < box[2] and box[1] < box[3]:
            image.paste(floor.crop(box), box[:2])


def _caption(image: Image.Image, text: str) -> Box:
    """The stage number in the top-left corner, over the coordinates' margin; returns the box it covers."""
    patch, box = _caption_patch(text)
    image.paste(patch, box[:2])
    return box


@lru_cache(maxsize=32)
def _caption_patch(text: str) -> tuple[Image.Image, Box]:
    """The caption drawn once (a turn's frames show each stage's caption a few times): a dark box that covers all
    of its box, the text over it, so the picture under it never shows through and a paste gives the same pixels."""
    font = s.font(14, bold=True)
    left, top, right, bottom = ImageDraw.Draw(Image.new("RGB", (1, 1))).textbbox((4, 2), text, font=font)
    box = int(left) - 3, int(top) - 2, int(right) + 4, int(bottom) + 3
    canvas = Image.new("RGB", box[2:])
    draw = ImageDraw.Draw(canvas)
    draw.rectangle([left - 3, top - 2, right + 3, bottom + 2], fill=s.INK)
    draw.text((4, 2), text, font=font, fill=(255, 255, 255))
    return canvas.crop(box), box
