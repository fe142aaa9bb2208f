"""A room's floor and walls are drawn large and scaled down a strip of rows at a time (#36: the whole canvas of a
12x12 room was ~25 MB, and Pillow's scaling copied it): the pixels are exactly those of one canvas scaled at once."""
from __future__ import annotations

import pytest

from pbem.engine.queries import has_state
from pbem.formats.rooms import read_room
from pbem.render import static
from tests.render_support import element, room

ROOMS = ["rooms/botwars/foundry.yaml", "rooms/geeko/4-gallery.yaml", "rooms/entry-fee/pinwheel.yaml"]


def pictures(layout):
    dynamic = {e.at for e in layout.elements if has_state(e)}
    return [picture.tobytes() for picture in static._pictures(layout, dynamic, static.looks_of(layout))]


@pytest.mark.parametrize("path", ROOMS)
def test_a_bundled_room_drawn_in_strips_is_the_room_drawn_on_one_canvas(repo_root, monkeypatch, path):
    layout = read_room(repo_root / path)
    in_strips = pictures(layout)
    monkeypatch.setattr(static, "STRIP", 10_000)  # one strip: the whole canvas, scaled at once
    assert pictures(layout) == in_strips


def test_shapes_reaching_over_a_strips_edge_and_a_smaller_scale_keep_their_pixels(monkeypatch):
    """Belts, pits and walls on every row of a room drawn with smaller squares and 2x supersampling (a shape cut by
    a canvas's top edge is filled differently by Pillow: each strip's canvas starts a row above what it draws)."""
    elements = [element(kind, f"r{r}c{(r * 5) % 24 + 1}", **extra) for r in range(1, 25)
                for kind, extra in (("conveyor", {"dir": "E"}), ("pit", {}), ("wall", {"side": "S"}))]
    layout = room("24x24", *elements, starts=("r1c1", "r24c24"))
    monkeypatch.setattr(static, "PIXEL_BUDGET", 400_000)  # smaller squares, as for a huge room
    monkeypatch.setattr(static, "CANVAS_BUDGET", 2_000_000)
    static._scale.cache_clear()
    try:
        assert static.scale_of(layout).k < 4
        in_strips = pictures(layout)
        monkeypatch.setattr(static, "STRIP", 10_000)
        assert pictures(layout) == in_strips
    finally:
        static._scale.cache_clear()
