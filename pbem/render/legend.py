"""The legend: every element (in each of its states) and every robot mode, with its name."""
from __future__ import annotations

from types import MappingProxyType

from PIL import Image, ImageDraw, ImageFont

from ..engine.geometry import Dir, Square
from ..engine.room import Element
from . import style as s
from .board import robot_sprite
from .dm import png_bytes
from .elements import Looks, draw_element, edge, floor, start_square
from .pen import Pen

COLUMNS = 3
LABEL_WIDTH = 250
PAD = 8


def _e(element_type: str, **attrs: object) -> Element:
    return Element(element_type, Square(1, 1), MappingProxyType(attrs))


# (name, element, state, looks); None as the element draws a robot, a start square or an edge instead.
ENTRIES: tuple[tuple[str, object, str, Looks], ...] = (
    ("Wall (on an edge)", "wall", "", Looks()),
    ("Electric fence (−2 HP)", "fence", "", Looks()),
    ("Pit", _e("pit"), "", Looks()),
    ("Trap door, closed", _e("trapdoor"), "closed", Looks()),
    ("Trap door, open", _e("trapdoor"), "open", Looks()),
    ("Drawbridge, raised, bridge N (r3c4: its switch)", _e("drawbridge", bridge="N"), "raised", Looks(label="r3c4")),
    ("Drawbridge, lowered", _e("drawbridge", bridge="N"), "lowered", Looks(label="r3c4")),
    ("Pressure switch, off", _e("switch", id="s1", kind="pressure"), "off", Looks()),
    ("Pressure switch, on", _e("switch", id="s1", kind="pressure"), "on", Looks()),
    ("Toggle switch, off", _e("switch", id="s2", kind="toggle"), "off", Looks()),
    ("Toggle switch, on", _e("switch", id="s2", kind="toggle"), "on", Looks()),
    ("Electric eye, off", _e("eye", id="e1", wall="N"), "off", Looks()),
    ("Electric eye, on", _e("eye", id="e1", wall="N"), "on", Looks()),
    ("Teleporter, active", _e("teleporter", colour="amber"), "active", Looks()),
    ("Teleporter, inactive", _e("teleporter", colour="amber"), "inactive", Looks()),
    ("Gate, closed", _e("gate"), "closed", Looks()),
    ("Gate, open", _e("gate"), "open", Looks()),
    ("Conveyor", _e("conveyor", dir="E"), "", Looks()),
    ("Express conveyor", _e("conveyor", dir="E", speed=2), "", Looks()),
    ("Turning conveyor", _e("conveyor", dir="N"), "", Looks(feeds=(Dir.W,))),
    ("Pusher (acts in stages 1 3 5)", _e("pusher", wall="W", stages=[1, 3, 5]), "", Looks()),
    ("Gear, left (counter-clockwise)", _e("gear", turn="left"), "", Looks()),
    ("Gear, right (clockwise)", _e("gear", turn="right"), "", Looks()),
    ("Gear, half turn", _e("gear", turn="half"), "", Looks()),
    ("Crusher (stages 2 4)", _e("crusher", stages=[2, 4]), "", Looks()),
    ("Laser turret and beam", _e("laser", wall="N", beams=1), "", Looks()),
    ("Blaser, on", _e("blaser", wall="N"), "on", Looks()),
    ("Blaser, off", _e("blaser", wall="N"), "off", Looks()),
    ("Buzzsaw", _e("buzzsaw"), "", Looks()),
    ("Wrench (+1 HP)", _e("wrench", count=1), "", Looks()),
    ("Two wrenches (+2 HP)", _e("wrench", count=2), "", Looks()),
    ("Armoury (its option)", _e("armoury", option="laser"), "", Looks()),
    ("Computer (its card set)", _e("computer", set="strafe"), "", Looks()),
    ("Flag", _e("flag", number=1), "", Looks()),
    ("Start square", "start", "", Looks()),
    ("Robot, real (facing east)", "real", "", Looks()),
    ("Robot, virtual", "virtual", "", Looks()),
    ("Robot, rebooting", "rebooting", "", Looks()),
    ("Robot, destroyed (where it fell)", "destroyed", "", Looks()),
)


def _square(what: object, state: str, looks: Looks) -> Image.Image:
    k = s.SUPERSAMPLE
    canvas = Image.new("RGBA", (s.CELL * k, s.CELL * k), s.BACKGROUND + (255,))
    draw = ImageDraw.Draw(canvas)
    pen = Pen(draw, 0, 0, s.CELL * k)
    floor(pen)
    if isinstance(what, Element):
        draw_element(pen, what, state, looks)
        if what.type == "laser":
            pen.line([(0.5, 0.34), (0.5, 1.0)], s.BEAM, 0.05)
    elif what in ("wall", "fence"):
        edge(pen.turned(Dir.E), fence=what == "fence")
    elif what == "start":
        start_square(pen, "1")
    small = canvas.resize((s.CELL, s.CELL), Image.Resampling.LANCZOS)
    if what in ("real", "virtual", "rebooting", "destroyed"):
        small.alpha_composite(robot_sprite(s.OWNER_PALETTE[0], Dir.E, str(what)))
    return small


def draw_legend() -> Image.Image:
    rows = -(-len(ENTRIES) // COLUMNS)
    width = COLUMNS * (s.CELL + LABEL_WIDTH + PAD) + PAD
    height = rows * (s.CELL + PAD) + PAD
    image = Image.new("RGBA", (width, height), s.BACKGROUND + (255,))
    draw = ImageDraw.Draw(image)
    for i, (name, what, state, looks) in enumerate(ENTRIES):
        col, row = i // rows, i % rows
        x = PAD + col * (s.CELL + LABEL_WIDTH + PAD)
        y = PAD + row * (s.CELL + PAD)
        image.alpha_composite(_square(what, state, looks), (x, y))
        lines = fitted(name, s.font(13), LABEL_WIDTH - 12)
        for n, line in enumerate(lines):
            draw.text((x + s.CELL + 8, y + s.CELL / 2 + (n - (len(lines) - 1) / 2) * 16), line, font=s.font(13),
                      fill=s.INK, anchor="lm")
    return image.convert("RGB")


def fitted(text: str, font: ImageFont.FreeTypeFont, width: float) -> list[str]:
    """`text` broken at spaces into lines no wider than `width` pixels (a word longer than that stands alone)."""
    lines: list[str] = []
    for word in text.split():
        if lines and font.getlength(lines[-1] + " " + word) <= width:
            lines[-1] += " " + word
        else:
            lines.append(word)
    return lines


def legend_png() -> bytes:
    return png_bytes(draw_legend(), 9)  # once a report: its bytes (the demo's reports) as they were
