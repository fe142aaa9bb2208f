"""The animated turn's frames follow the engine's event order (render/animation.py): one frame when each stage
begins, one per movement step, one at the end of the turn. The engine records a push just before the pusher's
own move (RULES B6.3: the chain moves, then the mover), so a step that pushes is one frame with the pusher and
the pushed robots where that step left them. Positions are worked out by hand from RULES, not pasted."""
from __future__ import annotations

import io

from PIL import Image

from pbem.engine.cards import Card
from pbem.engine.elements import new_board
from pbem.engine.geometry import Dir, Square
from pbem.engine.room import Room
from pbem.engine.ruleset import GEEKO
from pbem.engine.state import Robot
from pbem.engine.turn import resolve_turn
from pbem.formats.rooms import check_room_data
from pbem.render import animation
from pbem.render.animation import frames, turn_gif


def lab(*elements: dict) -> Room:
    room, problems = check_room_data({"name": "Lab", "size": "5x5", "elements": list(elements)}, "test")
    assert not problems and room is not None
    return room


def played(room: Room, robots: list[Robot], programs: dict[str, list[str]]):
    board = new_board(room, robots)
    result = resolve_turn(board, {n: [Card.parse(c) for c in cs] for n, cs in programs.items()}, GEEKO,
                          seed=1, turn=1)
    return frames(room, result.snapshots, result.events), result


def where(position, *names: str) -> tuple:
    return tuple((str(position.robot(n).at), position.robot(n).facing.name) for n in names)


def test_a_stage_that_opens_with_a_push_has_one_frame_per_step():
    """Golden: FWD3 pushing from its first step. Red r3c1 E pushes Blue (r3c2) east every step (B6.3)."""
    shown, _ = played(lab(), [Robot("Red", at=Square(3, 1), facing=Dir.E), Robot("Blue", at=Square(3, 2))],
                      {"Red": ["FWD3#800"]})
    assert [caption for caption, _, _ in shown] == ["stage 1"] * 4 + ["end of turn"]
    assert [where(position, "Red", "Blue") for _, position, _ in shown] == [
        (("r3c1", "E"), ("r3c2", "N")),  # stage 1 begins
        (("r3c2", "E"), ("r3c3", "N")),  # step 1: Blue pushed, Red follows, in one frame
        (("r3c3", "E"), ("r3c4", "N")),  # step 2
        (("r3c4", "E"), ("r3c5", "N")),  # step 3
        (("r3c4", "E"), ("r3c5", "N")),  # end of turn
    ]


def test_a_push_in_the_middle_of_a_card_is_drawn_with_the_pushers_step():
    """Red r3c1 E, FWD3: step 1 alone, then Blue (r3c3) is pushed with steps 2 and 3: never a frame with Blue
    a square ahead of where Red's step put it."""
    shown, _ = played(lab(), [Robot("Red", at=Square(3, 1), facing=Dir.E), Robot("Blue", at=Square(3, 3))],
                      {"Red": ["FWD3#800"]})
    assert [where(position, "Red", "Blue") for _, position, _ in shown] == [
        (("r3c1", "E"), ("r3c3", "N")),
        (("r3c2", "E"), ("r3c3", "N")),
        (("r3c3", "E"), ("r3c4", "N")),
        (("r3c4", "E"), ("r3c5", "N")),
        (("r3c4", "E"), ("r3c5", "N")),
    ]


def test_frames_are_stages_plus_steps_plus_one():
    """Two stages. Stage 1: Red's FWD2 pushes Blue twice (2 steps), Green's turn (1 step), the belt under Blue's
    final square moves it (1 step, one phase). Stage 2: Red's RT90 (1 step), the belt again (1 step).
    6 steps, 2 stages: 2 + 6 + 1 = 9 frames."""
    room = lab({"type": "conveyor", "at": "r3c4", "dir": "S"}, {"type": "conveyor", "at": "r4c4", "dir": "S"})
    shown, result = played(room, [Robot("Red", at=Square(3, 1), facing=Dir.E),
                                  Robot("Blue", at=Square(3, 2)), Robot("Green", at=Square(1, 1))],
                           {"Red": ["FWD2#700", "RT90#80"], "Green": ["LF90#70"]})
    assert result.stages == 2
    assert len(shown) == 2 + 6 + 1
    assert [where(position, "Red", "Blue", "Green") for _, position, _ in shown] == [
        (("r3c1", "E"), ("r3c2", "N"), ("r1c1", "N")),  # stage 1 begins
        (("r3c2", "E"), ("r3c3", "N"), ("r1c1", "N")),  # Red (700) step 1 pushing Blue
        (("r3c3", "E"), ("r3c4", "N"), ("r1c1", "N")),  # Red step 2 pushing Blue onto the belt
        (("r3c3", "E"), ("r3c4", "N"), ("r1c1", "W")),  # Green (70) turns left
        (("r3c3", "E"), ("r4c4", "N"), ("r1c1", "W")),  # belts: Blue south (a straight belt turns nobody)
        (("r3c3", "E"), ("r4c4", "N"), ("r1c1", "W")),  # stage 2 begins
        (("r3c3", "S"), ("r4c4", "N"), ("r1c1", "W")),  # Red turns right
        (("r3c3", "S"), ("r5c4", "N"), ("r1c1", "W")),  # belts: Blue south again
        (("r3c3", "S"), ("r5c4", "N"), ("r1c1", "W")),  # end of turn
    ]


def test_the_gif_has_a_picture_per_frame():
    shown, result = played(lab(), [Robot("Red", at=Square(3, 1), facing=Dir.E), Robot("Blue", at=Square(3, 2))],
                           {"Red": ["FWD3#800"]})
    gif = Image.open(io.BytesIO(turn_gif(lab(), result.snapshots, result.events)))
    assert gif.n_frames == len(shown) == 5


def test_a_pusher_pushing_a_chain_is_one_frame():
    """B6b.2: the pusher on r3c1's west wall (stage 1) pushes Red east into Blue, who is pushed on: the engine
    records Blue's push, then Red's. One frame for the whole pusher phase: 1 + 1 + 1 frames."""
    room = lab({"type": "pusher", "at": "r3c1", "wall": "W", "stages": [1]})
    shown, _ = played(room, [Robot("Red", at=Square(3, 1)), Robot("Blue", at=Square(3, 2))], {"Red": ["IDLE#5"]})
    assert [where(position, "Red", "Blue") for _, position, _ in shown] == [
        (("r3c1", "N"), ("r3c2", "N")),
        (("r3c2", "N"), ("r3c3", "N")),
        (("r3c2", "N"), ("r3c3", "N")),
    ]


class PillowGif:
    """Pillow's own writer given every frame at once: what `GifFrames` must write, byte for byte (#36)."""

    def __init__(self, **options):
        self.options, self.frames, self.durations = options, [], []

    def add(self, frame, milliseconds, within=None):  # Pillow compares whole frames
        self.frames.append(frame)
        self.durations.append(milliseconds)

    def end(self):
        buffer = io.BytesIO()
        self.frames[0].save(buffer, format="GIF", save_all=True, append_images=self.frames[1:],
                            duration=self.durations, **self.options)
        return buffer.getvalue()


def test_the_gif_written_frame_by_frame_is_pillows_gif_of_every_frame(monkeypatch):
    """#36: the animation is written a frame at a time (a long turn no longer holds every frame) with the bytes
    Pillow wrote from the whole list: pushes, belts and an end of turn where nothing moved."""
    belts = lab({"type": "conveyor", "at": "r1c4", "dir": "S"}, {"type": "conveyor", "at": "r2c4", "dir": "S"})
    turns = [(room, played(room, robots, programs)[1]) for room, robots, programs in [
        (lab(), [Robot("Red", at=Square(3, 1), facing=Dir.E), Robot("Blue", at=Square(3, 2))], {"Red": ["FWD3#800"]}),
        (belts, [Robot("Red", at=Square(3, 3), facing=Dir.E), Robot("Blue", at=Square(1, 4))],
         {"Red": ["RT90#100", "LF90#200"], "Blue": ["FWD1#300"]})]]
    written = [turn_gif(room, result.snapshots, result.events) for room, result in turns]
    monkeypatch.setattr(animation, "GifFrames", PillowGif)
    assert written == [turn_gif(room, result.snapshots, result.events) for room, result in turns]


def test_a_frame_like_the_one_before_lengthens_it_as_pillow_does():
    pictures = [Image.new("P", (40, 30), colour) for colour in (1, 1, 2, 2, 2, 3)]
    for picture in pictures:
        picture.putpalette([value for index in range(4) for value in (index * 60, 0, 255 - index * 60)])
    pictures[5].paste(1, (5, 5, 9, 9))  # a change in one corner: that box alone is written
    options = {"loop": 0, "optimize": False, "disposal": 1, "transparency": 0}
    ours, pillows = animation.GifFrames(**options), PillowGif(**options)
    for milliseconds, picture in enumerate(pictures, start=1):
        ours.add(picture, milliseconds * 100)
        pillows.add(picture, milliseconds * 100)
    gif = ours.end()
    assert gif == pillows.end()
    assert Image.open(io.BytesIO(gif)).n_frames == 3


def test_a_frame_is_compared_with_the_one_before_where_robots_moved_and_each_caption_drawn_once(monkeypatch):
    """#36: each frame was compared whole with the frame before, twice (for what to leave transparent, then in
    the writer for the box to write), each robot's box scaled and put in the palette again, and each caption laid
    out and rendered again; now only the boxes that changed are compared, a robot standing where it stood keeps its
    piece, and a caption is drawn once a process (a stage's caption shows on each of its frames). Red moves every
    frame, Blue is pushed from the second: a whole frame is compared once, in the writer, the second with the first
    (which is written whole). The pixels are the same: see the test above, the render goldens and `pbem demo`."""
    from PIL import ImageChops, ImageDraw

    from pbem.render.static import image_size

    compared: list[tuple[str, tuple[int, int]]] = []
    mapped, drawn = [0], [0]
    quantize, text = Image.Image.quantize, ImageDraw.ImageDraw.text

    def counted(name):
        chop = getattr(ImageChops, name)

        def compare(before, after):
            compared.append((name, after.size))
            return chop(before, after)
        return compare

    def counted_quantize(self, *args, **kwargs):
        mapped[0] += "palette" in kwargs
        return quantize(self, *args, **kwargs)

    def counted_text(self, *args, **kwargs):
        drawn[0] += 1
        return text(self, *args, **kwargs)
    room = lab()
    shown, result = played(room, [Robot("Red", at=Square(3, 1), facing=Dir.E), Robot("Blue", at=Square(3, 2))],
                           {"Red": ["FWD3#800"]})
    animation.turn_gif(room, result.snapshots, result.events)  # the room's, the robots' and the captions' pictures
    for name in ("difference", "subtract_modulo"):  # what to leave transparent; the box to write
        monkeypatch.setattr(ImageChops, name, counted(name))
    monkeypatch.setattr(Image.Image, "quantize", counted_quantize)
    monkeypatch.setattr(ImageDraw.ImageDraw, "text", counted_text)
    animation.turn_gif(room, result.snapshots, result.events)
    width, height = image_size(room)
    whole = (width * 3 // 4, height * 3 // 4)
    assert len(shown) == 5 and drawn[0] == 0 and len(compared) > 2
    assert [name for name, size in compared if size == whole] == ["subtract_modulo"]
    # the floor, then each frame's boxes: 3 (2 robots and the caption) in the first, then the boxes that changed
    # (the robots that moved, the caption when it changed); the end of the turn is the last step's picture
    assert mapped[0] == 1 + 3 + 2 + 2 + 2 + 1


def test_the_floor_is_scaled_once_and_copied_once_for_all_frames_on_it(monkeypatch):
    """#36: the floor under the robots was copied whole for every frame, and the first frame scaled whole for the
    palette beside the floor itself; now the floor is mended where the robots and caption were drawn, and the
    first frame is the scaled floor with its robots' blocks scaled (as every frame is mapped to the palette). The
    bytes are the same: the render goldens and `pbem demo`'s animations."""
    from pbem.render.static import image_size

    room = lab()
    shown, result = played(room, [Robot("Red", at=Square(3, 1), facing=Dir.E), Robot("Blue", at=Square(3, 2))],
                           {"Red": ["FWD3#800"]})
    whole = image_size(room)
    copies, resizes = [0], [0]
    copy, resize = Image.Image.copy, Image.Image.resize

    def counted_copy(self):
        copies[0] += self.mode == "RGB" and self.size == whole
        return copy(self)

    def counted_resize(self, *args, **kwargs):
        resizes[0] += self.size == whole
        return resize(self, *args, **kwargs)

    monkeypatch.setattr(Image.Image, "copy", counted_copy)
    monkeypatch.setattr(Image.Image, "resize", counted_resize)
    animation.turn_gif(room, result.snapshots, result.events)
    assert len(shown) == 5 and (copies[0], resizes[0]) == (1, 1)
