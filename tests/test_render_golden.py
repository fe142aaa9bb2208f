"""Board pictures: every element kind in each state and every robot mode matches its reference
picture, differs visibly from every other, and the bytes depend only on the position (RULES B13).

References live in tests/render_refs/ and are redrawn only by hand (tests/render_refs/regenerate.py).
"""
from __future__ import annotations

import hashlib
import itertools
import subprocess
import sys
from functools import cache
from io import BytesIO

import pytest
from PIL import Image

from pbem.engine.geometry import Dir
from pbem.render.board import draw_position, position_png
from pbem.render.elements import DRAWERS
from pbem.render.static import looks_of
from pbem.render.style import BEAM, CELL, MARGIN
from tests.render_support import GOLDEN_CASES, REFS, differing_fraction, element, pixels, position, robot, room


@cache
def picture(name: str) -> Image.Image:
    """A golden case drawn when a test first needs it, not while every worker collects the module."""
    return draw_position(GOLDEN_CASES[name])


@pytest.mark.parametrize("name", sorted(GOLDEN_CASES))
def test_render_golden_matches_reference(name):
    reference = Image.open(REFS / f"{name}.png")
    assert differing_fraction(picture(name), reference) <= 0.002, f"{name} differs from {name}.png"


def test_render_golden_every_case_is_distinct():
    """No two element kinds, states or robot modes look alike: over 100 pixels differ clearly."""
    for a, b in itertools.combinations(sorted(GOLDEN_CASES), 2):
        assert differing_fraction(picture(a), picture(b)) > 100 / (188 * 188), f"{a} looks like {b}"


def test_render_golden_covers_every_drawn_type():
    drawn = {case.room.elements[-1].type for case in GOLDEN_CASES.values() if case.room.elements}
    assert set(DRAWERS) | {"wall", "fence"} <= drawn


def test_render_same_position_same_bytes_in_any_process():
    """B13: identical state gives identical PNG bytes, also in a fresh process with another hash seed."""
    case = GOLDEN_CASES["conveyor-turning"]
    here = hashlib.sha256(position_png(case)).hexdigest()
    assert hashlib.sha256(position_png(case)).hexdigest() == here
    code = ("from tests.render_support import GOLDEN_CASES; from pbem.render.board import position_png; "
            "import hashlib; print(hashlib.sha256(position_png(GOLDEN_CASES['conveyor-turning'])).hexdigest())")
    for seed in ("1", "4242"):
        out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True,
                             env={"PYTHONHASHSEED": seed, "PATH": "/usr/bin:/bin", "PYTHONPATH": "."})
        assert out.stdout.strip() == here


def _beam_pixels(image: Image.Image, row: int, col: int) -> int:
    """Pixels of the beam's core colour inside square (row, col)."""
    x0, y0 = MARGIN + (col - 1) * CELL, MARGIN + (row - 1) * CELL
    crop = pixels(image.crop((x0 + 4, y0 + 4, x0 + CELL - 4, y0 + CELL - 4)))
    return int((crop == BEAM).all(axis=2).sum())


def test_render_beam_stops_at_first_robot():
    """B6b.5: a beam hits the first robot on its path and stops there."""
    laser = element("laser", "r1c2", wall="N", beams=1)
    picture = draw_position(position(room("5x3", laser), robot("Target", "r3c2", "E")))
    assert _beam_pixels(picture, 2, 2) > 20
    assert _beam_pixels(picture, 4, 2) == 0 and _beam_pixels(picture, 5, 2) == 0


def test_render_beam_stops_at_walls_and_raised_drawbridges():
    """B6.1/B6.6: walls and raised drawbridges stop beams; a lowered bridge lets the beam through."""
    laser = element("laser", "r1c1", wall="N")
    wall = element("wall", "r2c1", side="S")
    walled = draw_position(position(room("4x2", laser, wall)))
    assert _beam_pixels(walled, 2, 1) > 20 and _beam_pixels(walled, 3, 1) == 0
    bridge = element("drawbridge", "r3c1", bridge="N", control="s1")
    raised = draw_position(position(room("4x2", laser, bridge), **{bridge.key: "raised"}))
    lowered = draw_position(position(room("4x2", laser, bridge), **{bridge.key: "lowered"}))
    assert _beam_pixels(raised, 2, 1) > 20 and _beam_pixels(raised, 4, 1) == 0
    assert _beam_pixels(lowered, 4, 1) > 20


def test_render_blaser_beam_only_when_on():
    blaser = element("blaser", "r1c1", wall="N", control="s1")
    on = draw_position(position(room("3x1", blaser), **{blaser.key: "on"}))
    off = draw_position(position(room("3x1", blaser), **{blaser.key: "off"}))
    assert _beam_pixels(on, 3, 1) > 20 and _beam_pixels(off, 3, 1) == 0


def test_render_turning_belt_is_one_fed_from_a_side():
    """A belt square is drawn turning when a belt feeds into it from a side, not from behind."""
    the_room = room("3x3", element("conveyor", "r2c1", dir="E"), element("conveyor", "r2c2", dir="S"),
                    element("conveyor", "r1c2", dir="S"), element("conveyor", "r3c2", dir="E"))
    looks = looks_of(the_room)
    # r2c2 runs south; seen facing south, the belt from r2c1 (west) comes in from its right (east side
    # of the turned frame) and the one from r1c2 (north) from behind.
    assert looks["conveyor@r2c2"].feeds == (Dir.E, Dir.S)
    assert looks["conveyor@r2c1"].feeds == ()
    # r3c2 runs east and is fed from r2c2 to its north: seen facing east, north is its left (west).
    assert looks["conveyor@r3c2"].feeds == (Dir.W,)


def test_render_png_has_no_metadata():
    data = position_png(GOLDEN_CASES["pit"])
    assert b"tIME" not in data and b"tEXt" not in data
    assert Image.open(BytesIO(data)).size == (188, 188)


def test_render_every_engine_element_type_is_drawn_and_in_the_legend():
    """Every element type the engine registers (RULES G9 plug-ins included) has a look and a legend line."""
    from pbem.engine.mechanism import known_types
    from pbem.render.legend import ENTRIES

    in_legend = {what.type if hasattr(what, "type") else what for _, what, _, _ in ENTRIES}
    for kind in known_types():
        assert kind in DRAWERS or kind in ("wall", "fence"), f"no drawer for {kind}"
        assert kind in in_legend, f"{kind} missing from the legend"


def test_render_unknown_element_type_is_drawn_labelled():
    """A mechanism the renderer has never seen still shows, as a box naming its type."""
    picture = draw_position(position(room("3x3", element("magnet", "r2c2"))))
    plain = draw_position(position(room("3x3")))
    assert differing_fraction(picture, plain) > 0.02
