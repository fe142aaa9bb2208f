"""The board pictures' 256 colours (`render/board.in_colours`, the C extension `render/_octree.c`) are
Pillow's own: `quantize(256, method=FASTOCTREE, dither=NONE)` of the picture in RGB gives the same indices and the
same palette, so the same PNG bytes (#36: the extension reads the picture once where Pillow copies it three
times). Checked on board pictures and on pictures made to stress the method: one colour, a few colours of equal
counts (ties ordered by qsort), more colours than the fine cube's buckets, colours crowding one coarse bucket."""
from __future__ import annotations

import random
import sys

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from PIL import Image

from pbem.engine.elements import new_board
from pbem.engine.geometry import Dir
from pbem.engine.state import Robot
from pbem.formats.rooms import read_room
from pbem.render import _octree, board
from pbem.render.model import Position
from tests.conftest import ROOT


def pillows(picture: Image.Image, colours: int = 256) -> tuple[bytes, bytes]:
    quantized = picture.convert("RGB").quantize(colours, method=Image.Quantize.FASTOCTREE, dither=Image.Dither.NONE)
    return quantized.tobytes(), bytes(quantized.getpalette() or [])[:3 * colours]


def made(size: tuple[int, int], colours: list[tuple[int, int, int]], seed: int) -> Image.Image:
    chooser = random.Random(seed)
    picture = Image.new("RGBA", size)
    picture.putdata([(*chooser.choice(colours), 255) for _ in range(size[0] * size[1])])
    return picture


def stress_pictures() -> list[Image.Image]:
    chooser = random.Random(36)
    anything = [tuple(chooser.randrange(256) for _ in range(3)) for _ in range(6000)]
    crowded = [(chooser.randrange(64), chooser.randrange(64, 128), chooser.randrange(192, 256)) for _ in range(900)]
    return [Image.new("RGBA", (7, 5), (9, 200, 30, 255)), made((40, 30), [(0, 0, 0), (255, 255, 255), (90, 10, 200)], 1),
            made((64, 48), anything[:300], 2), made((120, 100), anything, 3), made((90, 90), crowded, 4),
            made((33, 17), anything[:40] + crowded[:40], 5)]


def board_pictures() -> list[Image.Image]:
    room = read_room(ROOT / "rooms" / "botwars" / "foundry.yaml")
    robots = [Robot("Rusty", "ann", room.starts[0], Dir.N), Robot("Sparky", "ben", room.starts[1], Dir.E)]
    position = Position.of(room, new_board(room, robots))
    marked = Position.of(room, new_board(room, robots), (room.starts[2],), ("Rusty",))
    return [board._drawn(position, None), board._drawn(marked, None)]


@pytest.mark.parametrize("picture", stress_pictures() + board_pictures(), ids=lambda picture: "x".join(map(str, picture.size)))
def test_the_pictures_colours_are_pillows_fast_octree(picture):
    quantized = board.in_colours(picture)
    assert (quantized.tobytes(), bytes(quantized.getpalette() or [])) == pillows(picture)
    for colours in (63, 256):
        assert _octree.quantize(picture.tobytes(), colours) == pillows(picture, colours)
        rgb = picture.convert("RGB")  # as the animation's frames are
        quantized = board.in_colours(rgb, colours)
        assert (quantized.tobytes(), bytes(quantized.getpalette() or [])) == pillows(picture, colours)


def test_a_pictures_png_is_the_one_pillow_quantizing_makes():
    for picture in board_pictures():
        by_pillow = picture.convert("RGB").quantize(256, method=Image.Quantize.FASTOCTREE, dither=Image.Dither.NONE)
        assert board.png_bytes(board.in_colours(picture), board.PNG_LEVEL) == board.png_bytes(
            by_pillow, board.PNG_LEVEL)


def test_bytes_that_are_not_rgba_or_a_count_of_colours_out_of_range_are_refused():
    with pytest.raises(ValueError, match="RGBA or RGB"):
        _octree.quantize(b"\x00" * 6, 256)
    with pytest.raises(ValueError, match="RGBA or RGB"):
        _octree.quantize(b"\x00" * 8, 257)


def test_a_checkout_without_the_built_extension_quantizes_with_pillow_to_the_same_picture(monkeypatch):
    pictures = board_pictures()
    built = [board.in_colours(picture) for picture in pictures]
    monkeypatch.setitem(sys.modules, "pbem.render._octree", None)  # what `import` finds when it was never built
    for picture, quantized in zip(pictures, built):
        fallback = board.in_colours(picture)
        assert (fallback.tobytes(), fallback.getpalette()) == (quantized.tobytes(), quantized.getpalette())


@settings(max_examples=300, deadline=None)
@given(st.integers(1, 48), st.integers(1, 48), st.lists(st.tuples(*[st.integers(0, 255)] * 3), min_size=1, max_size=400),
       st.integers(0, 2**32 - 1), st.sampled_from([1, 2, 63, 64, 65, 255, 256]))
def test_any_picture_in_any_count_of_colours_is_quantized_as_pillow_does(width, height, colours, seed, count):
    """Hostile and ordinary pictures alike: any size, any colours (a handful crowding one bucket, or hundreds), any
    count of palette entries the extension takes; the same indices and palette as Pillow's, RGBA or RGB bytes."""
    picture = made((width, height), colours, seed)
    assert _octree.quantize(picture.tobytes(), count) == pillows(picture, count)
    assert _octree.quantize(picture.convert("RGB").tobytes(), count, 3) == pillows(picture, count)
