"""How each kind of element looks: one drawer per element type, drawn with a `Pen` on one square.

A drawer gets the element, its state word (see `state_of`) and `Looks`, the
facts about its neighbours a picture needs (which belts feed a turning belt,
which square a drawbridge's switch is on). Types the renderer does not know
(new mechanisms, RULES G9) are drawn as a labelled box rather than dropped.
"""
from __future__ import annotations

import math
from dataclasses import dataclass
from typing import Callable, Mapping

from ..engine.geometry import Dir
from ..engine.mechanism import mechanism
from ..engine.room import Element
from . import style as s
from .pen import Pen

# Types mounted on a square's edge (their `wall`/`side` field names the edge).
EDGE_TYPES = ("wall", "fence")


@dataclass(frozen=True)
class Looks:
    """Neighbourhood facts for one element's picture (hashable: part of the sprite cache key)."""

    feeds: tuple[Dir, ...] = ()  # conveyor: sides a belt feeds in from, turned into this belt's frame
    label: str = ""  # drawbridge: its switch's square; start: its number


def state_of(element: Element, states: Mapping[str, str]) -> str:
    """An element's state word: the board's, else the one the engine starts it in ("" when stateless)."""
    if element.key in states:
        return states[element.key]
    try:
        return mechanism(element.type).initial_state(element) or ""
    except KeyError:  # a type no mechanism is registered for
        return ""


def as_dir(value: object) -> Dir:
    """A direction field as a room file gives it ("E") or as a loader parsed it (Dir.E)."""
    return value if isinstance(value, Dir) else Dir.parse(str(value))


def mount(element: Element) -> Dir:
    """The side an edge or wall-mounted element sits on (north when the file gives none)."""
    for name in ("side", "wall", "bridge"):
        if element.get(name) is not None:
            return as_dir(element.get(name))
    return Dir.N


def stages_text(element: Element) -> str:
    return " ".join(str(n) for n in element.get("stages", ()) or ())


Drawer = Callable[[Pen, Element, str, Looks], None]
DRAWERS: dict[str, Drawer] = {}


def drawer(*types: str) -> Callable[[Drawer], Drawer]:
    def register(fn: Drawer) -> Drawer:
        for t in types:
            DRAWERS[t] = fn
        return fn

    return register


def draw_element(pen: Pen, element: Element, state: str, looks: Looks) -> None:
    DRAWERS.get(element.type, _unknown)(pen, element, state, looks)


def floor(pen: Pen) -> None:
    pen.rect(0, 0, 1, 1, fill=s.FLOOR)
    pen.line([(0.03, 0.97), (0.03, 0.03), (0.97, 0.03)], s.FLOOR_SHINE, 0.03)
    pen.rect(0, 0, 1, 1, outline=s.FLOOR_EDGE, width=0.025)


def _hazard_border(pen: Pen, inset: float) -> None:
    """Yellow-and-black stripes around a dangerous square."""
    pen.rect(inset, inset, 1 - inset, 1 - inset, fill=s.FENCE)
    step = 0.16
    for i in range(-7, 8):
        x = i * step
        pen.polygon([(x, 0), (x + step / 2, 0), (x + step / 2 + 1, 1), (x + 1, 1)], fill=s.FENCE_SPARK)
    pen.rect(0, 0, 1, inset, fill=s.FLOOR)
    pen.rect(0, 1 - inset, 1, 1, fill=s.FLOOR)
    pen.rect(0, 0, inset, 1, fill=s.FLOOR)
    pen.rect(1 - inset, 0, 1, 1, fill=s.FLOOR)


def _hole(pen: Pen, inset: float) -> None:
    for i, shade in enumerate((56, 40, 28, 18)):
        d = inset + i * 0.04
        pen.rect(d, d, 1 - d, 1 - d, fill=(shade, shade, shade + 4), radius=0.04)


@drawer("pit")
def _pit(pen: Pen, el: Element, state: str, looks: Looks) -> None:
    pen.rect(0.05, 0.05, 0.95, 0.95, fill=s.PIT_RIM, radius=0.08)
    _hole(pen, 0.11)


@drawer("trapdoor")
def _trapdoor(pen: Pen, el: Element, state: str, looks: Looks) -> None:
    _hazard_border(pen, 0.04)
    if state == "open":
        _hole(pen, 0.14)
        for x1, x2 in ((0.14, 0.22), (0.78, 0.86)):  # the two flaps, swung down
            pen.rect(x1, 0.14, x2, 0.86, fill=s.STEEL_LIGHT, outline=s.STEEL_DARK, width=0.02)
    else:
        pen.rect(0.14, 0.14, 0.86, 0.86, fill=s.STEEL, outline=s.STEEL_DARK, width=0.03)
        pen.line([(0.5, 0.14), (0.5, 0.86)], s.STEEL_DARK, 0.03)
        for x in (0.22, 0.78):
            for y in (0.22, 0.78):
                pen.circle(x, y, 0.035, fill=s.STEEL_LIGHT)


def _planks(pen: Pen, y1: float, y2: float, count: int) -> None:
    """Wooden boards between rows y1 and y2 of the (turned) square."""
    pen.rect(0.06, y1, 0.94, y2, fill=s.WOOD, outline=s.WOOD_DARK, width=0.03)
    for i in range(1, count):
        y = y1 + (y2 - y1) * i / count
        pen.line([(0.06, y), (0.94, y)], s.WOOD_DARK, 0.025)


@drawer("drawbridge")
def _drawbridge(pen: Pen, el: Element, state: str, looks: Looks) -> None:
    up = pen.turned(mount(el))
    if state == "lowered":
        for x in (0.06, 0.94):  # planks run from the bridge side across the gap
            up.line([(x, 0.02), (x, 0.98)], s.WOOD_DARK, 0.05)
        for i in range(5):
            y1 = 0.04 + i * 0.185
            up.rect(0.1, y1, 0.9, y1 + 0.16, fill=s.WOOD, outline=s.WOOD_DARK, width=0.025)
    else:
        pen.rect(0.05, 0.05, 0.95, 0.95, fill=s.PIT_RIM, radius=0.08)
        _hole(pen, 0.11)
        _planks(up, 0.0, 0.24, 3)  # the raised bridge stands on its side like a wall
        up.rect(0.0, 0.0, 0.06, 0.3, fill=s.WOOD_DARK)
        up.rect(0.94, 0.0, 1.0, 0.3, fill=s.WOOD_DARK)
    if looks.label:
        pen.text(0.5, 0.7, looks.label, 0.22, (255, 255, 255), stroke=(0, 0, 0))


@drawer("switch")
def _switch(pen: Pen, el: Element, state: str, looks: Looks) -> None:
    on = state == "on"
    if el.get("kind", "toggle") == "pressure":
        pen.circle(0.5, 0.4, 0.32, fill=s.STEEL_DARK)
        if on:
            pen.circle(0.5, 0.4, 0.29, fill=(150, 255, 160))
        pen.circle(0.5, 0.4, 0.24, fill=s.ON_GREEN if on else s.shade(s.PRESSURE, 0.55))
        pen.circle(0.43, 0.33, 0.07, fill=(220, 255, 225) if on else s.shade(s.PRESSURE, 0.8))
    else:
        pen.rect(0.16, 0.12, 0.84, 0.78, fill=s.STEEL_DARK, radius=0.08)
        pen.rect(0.22, 0.18, 0.78, 0.72, fill=(255, 90, 80) if on else s.shade(s.TOGGLE, 0.5), radius=0.06)
        tip = (0.7, 0.24) if on else (0.3, 0.24)
        pen.line([(0.5, 0.62), tip], s.STEEL_LIGHT, 0.08)
        pen.circle(*tip, 0.08, fill=(255, 255, 255) if on else s.STEEL_LIGHT)
        pen.circle(0.5, 0.62, 0.07, fill=s.INK)
    pen.text(0.5, 0.9, f"{el.get('id', '')} {'ON' if on else 'off'}".strip(), 0.2, s.INK)


@drawer("eye")
def _eye(pen: Pen, el: Element, state: str, looks: Looks) -> None:
    up = pen.turned(mount(el))
    on = state == "on"
    lens = s.ON_GREEN if on else s.OFF_RED
    for r, colour in ((0.4, (170, 255, 180) if on else None), (0.32, s.STEEL_DARK), (0.22, lens), (0.09, s.INK)):
        if colour:  # half discs on the wall, kept inside the square
            up.polygon(up.arc_points(0.5, 0.0, r, 0, 180), fill=colour)
    pen.text(0.5, 0.55 if mount(el) != Dir.S else 0.4, str(el.get("id", "eye")), 0.22, s.INK)


@drawer("teleporter")
def _teleporter(pen: Pen, el: Element, state: str, looks: Looks) -> None:
    colour = s.named_colour(el.get("colour", "grey"))
    active = state != "inactive"
    ring = colour if active else s.DIM
    pen.circle(0.5, 0.5, 0.44, fill=s.shade(ring, 0.45))
    for r, f in ((0.38, 1.0), (0.28, 1.35), (0.18, 1.7)):
        pen.circle(0.5, 0.5, r, fill=s.shade(ring, f) if active else s.FLOOR, outline=ring, width=0.05)
    letter = str(el.get("colour", "?"))[:1].upper()
    pen.text(0.5, 0.52, letter, 0.42, s.INK if active else colour, stroke=(255, 255, 255))


@drawer("gate")
def _gate(pen: Pen, el: Element, state: str, looks: Looks) -> None:
    pen.rect(0.0, 0.0, 0.1, 1.0, fill=s.STEEL_DARK)
    pen.rect(0.9, 0.0, 1.0, 1.0, fill=s.STEEL_DARK)
    if state == "open":
        pen.rect(0.1, 0.0, 0.9, 0.14, fill=s.STEEL, outline=s.STEEL_DARK, width=0.02)
        for y in (0.62, 0.38):
            pen.line([(0.3, y + 0.14), (0.5, y - 0.04), (0.7, y + 0.14)], s.ON_GREEN, 0.08)
    else:
        for x in (0.22, 0.38, 0.5, 0.62, 0.78):
            pen.line([(x, 0.02), (x, 0.98)], s.STEEL_DARK, 0.07)
        for y in (0.3, 0.7):
            pen.line([(0.1, y), (0.9, y)], s.STEEL_DARK, 0.07)
        pen.rect(0.35, 0.42, 0.65, 0.58, fill=s.OFF_RED, radius=0.03)


def _belt(pen: Pen, express: bool) -> tuple[tuple[int, int, int], tuple[int, int, int]]:
    body, mark = (s.EXPRESS, s.EXPRESS_ARROW) if express else (s.BELT, s.BELT_ARROW)
    pen.rect(0.04, 0.0, 0.96, 1.0, fill=body)
    pen.line([(0.06, 0.0), (0.06, 1.0)], s.shade(body, 0.7), 0.04)
    pen.line([(0.94, 0.0), (0.94, 1.0)], s.shade(body, 0.7), 0.04)
    return body, mark


@drawer("conveyor")
def _conveyor(pen: Pen, el: Element, state: str, looks: Looks) -> None:
    """Drawn moving north, then turned to its direction; curves for belts feeding in from a side."""
    up = pen.turned(as_dir(el.get("dir", "N")))
    express = int(el.get("speed", 1) or 1) >= 2
    _, mark = _belt(up, express)
    sides = [d for d in looks.feeds if d in (Dir.E, Dir.W)]
    straight = not sides or Dir.S in looks.feeds
    width = 0.13 if express else 0.16
    if straight:
        up.line([(0.5, 0.95), (0.5, 0.3)], mark, width)
    for side in sides:  # a quarter ellipse from the feeding side, ending northwards under the arrowhead
        cx, a1 = (0.0, 0) if side == Dir.W else (1.0, 180)
        up.line(up.arc_points(cx, 0.3, 0.5, 90, a1, ry=0.34), mark, width)
    up.arrowhead((0.5, 0.04), -90, 0.3, 0.26, mark)
    if express:
        up.arrowhead((0.5, 0.42), -90, 0.26, 0.22, mark)
        up.line([(0.5, 0.42), (0.5, 0.5)], s.EXPRESS, 0.05)


@drawer("pusher")
def _pusher(pen: Pen, el: Element, state: str, looks: Looks) -> None:
    up = pen.turned(mount(el))
    up.rect(0.08, 0.0, 0.92, 0.16, fill=s.FENCE, outline=s.INK, width=0.03)
    up.rect(0.42, 0.16, 0.58, 0.3, fill=s.STEEL_DARK)
    up.rect(0.2, 0.3, 0.8, 0.4, fill=s.STEEL, outline=s.STEEL_DARK, width=0.025)
    up.text(0.5, 0.74, stages_text(el), 0.22, s.INK, stroke=s.FENCE)


def _cog(pen: Pen, colour: s.Colour, teeth: int = 8) -> None:
    points = []
    for i in range(teeth * 4):
        a = 2 * math.pi * i / (teeth * 4)
        r = 0.45 if i % 4 in (1, 2) else 0.36
        points.append((0.5 + r * math.cos(a), 0.5 + r * math.sin(a)))
    pen.polygon(points, fill=s.shade(colour, 0.65))
    pen.circle(0.5, 0.5, 0.34, fill=colour)


@drawer("gear")
def _gear(pen: Pen, el: Element, state: str, looks: Looks) -> None:
    turn = str(el.get("turn", "right")).lower()
    colour = {"left": s.GEAR_LEFT, "half": s.GEAR_HALF}.get(turn, s.GEAR_RIGHT)
    _cog(pen, colour)
    white = (255, 255, 255)
    if turn == "half":
        pen.line(pen.arc_points(0.5, 0.5, 0.22, 200, 340), white, 0.07)
        pen.arrowhead(pen.arc_points(0.5, 0.5, 0.22, 0, 360, 36)[0], 110, 0.15, 0.1, white)
        pen.text(0.5, 0.58, "180", 0.2, white)
    elif turn == "left":
        pen.line(pen.arc_points(0.5, 0.5, 0.22, 60, 330), white, 0.08)
        pen.arrowhead((0.5 + 0.22 * math.cos(math.radians(45)), 0.5 + 0.22 * math.sin(math.radians(45))),
                      -45, 0.16, 0.12, white)
    else:
        pen.line(pen.arc_points(0.5, 0.5, 0.22, 210, 480), white, 0.08)
        pen.arrowhead((0.5 + 0.22 * math.cos(math.radians(135)), 0.5 + 0.22 * math.sin(math.radians(135))),
                      225, 0.16, 0.12, white)


@drawer("crusher")
def _crusher(pen: Pen, el: Element, state: str, looks: Looks) -> None:
    pen.rect(0.04, 0.04, 0.96, 0.96, fill=s.CRUSHER, outline=s.INK, width=0.03)
    for top in (True, False):
        base, tip = (0.04, 0.3) if top else (0.96, 0.7)
        pts = [(0.04, base)]
        for i in range(5):
            pts += [(0.04 + 0.184 * i + 0.092, tip), (0.04 + 0.184 * (i + 1), base)]
        pen.polygon(pts, fill=s.STEEL_LIGHT, outline=s.INK, width=0.02)
    pen.rect(0.2, 0.38, 0.8, 0.62, fill=s.INK, radius=0.05)
    pen.text(0.5, 0.5, stages_text(el), 0.2, (255, 255, 255))


def _turret(pen: Pen, el: Element, colour: s.Colour, lit: bool) -> None:
    up = pen.turned(mount(el))
    beams = int(el.get("beams", 1) or 1)
    up.rect(0.24, 0.0, 0.76, 0.2, fill=colour, outline=s.INK, width=0.03, radius=0.04)
    for i in range(beams):
        x = 0.5 + (i - (beams - 1) / 2) * 0.14
        up.rect(x - 0.05, 0.2, x + 0.05, 0.34, fill=s.INK)
        up.circle(x, 0.34, 0.05, fill=s.BEAM if lit else s.DIM)


@drawer("laser")
def _laser(pen: Pen, el: Element, state: str, looks: Looks) -> None:
    _turret(pen, el, s.LASER_TURRET, True)


@drawer("blaser")
def _blaser(pen: Pen, el: Element, state: str, looks: Looks) -> None:
    on = state == "on"
    _turret(pen, el, s.BLASER_TURRET if on else s.shade(s.BLASER_TURRET, 0.5), on)
    up = pen.turned(mount(el))
    # beside the beam's path, not on it
    up.text(0.24, 0.52, "ON" if on else "off", 0.2, s.BLASER_TURRET if on else s.INK, stroke=(255, 255, 255))


@drawer("buzzsaw")
def _buzzsaw(pen: Pen, el: Element, state: str, looks: Looks) -> None:
    pen.circle(0.5, 0.5, 0.46, fill=s.FENCE)
    points = []
    teeth = 14
    for i in range(teeth):
        a0 = 2 * math.pi * i / teeth
        a1 = 2 * math.pi * (i + 0.7) / teeth
        points += [(0.5 + 0.3 * math.cos(a0), 0.5 + 0.3 * math.sin(a0)),
                   (0.5 + 0.42 * math.cos(a1), 0.5 + 0.42 * math.sin(a1))]
    pen.polygon(points, fill=s.STEEL_LIGHT, outline=s.STEEL_DARK, width=0.02)
    pen.circle(0.5, 0.5, 0.2, fill=s.STEEL, outline=s.STEEL_DARK, width=0.02)
    pen.circle(0.5, 0.5, 0.07, fill=s.INK)


def _wrench_glyph(pen: Pen, mirrored: bool) -> None:
    def p(x: float, y: float) -> tuple[float, float]:
        return (1 - x, y) if mirrored else (x, y)

    white = (255, 255, 255)
    pen.line([p(0.26, 0.76), p(0.62, 0.4)], white, 0.1)
    pen.circle(*p(0.68, 0.32), 0.15, fill=white)
    pen.polygon([p(0.68, 0.32), p(0.86, 0.1), p(0.9, 0.22)], fill=s.WRENCH_BG)
    pen.circle(*p(0.24, 0.78), 0.07, fill=white)


@drawer("wrench")
def _wrench(pen: Pen, el: Element, state: str, looks: Looks) -> None:
    pen.rect(0.06, 0.06, 0.94, 0.94, fill=s.WRENCH_BG, outline=s.shade(s.WRENCH_BG, 0.6), width=0.04,
             radius=0.1)
    count = int(el.get("count", 1) or 1)
    _wrench_glyph(pen, False)
    if count >= 2:
        _wrench_glyph(pen, True)


@drawer("armoury")
def _armoury(pen: Pen, el: Element, state: str, looks: Looks) -> None:
    white = (255, 255, 255)
    pen.rect(0.06, 0.06, 0.94, 0.94, fill=s.ARMOURY_BG, outline=s.shade(s.ARMOURY_BG, 0.6), width=0.04,
             radius=0.1)
    pen.polygon([(0.5, 0.14), (0.78, 0.24), (0.74, 0.52), (0.5, 0.68), (0.26, 0.52), (0.22, 0.24)],
                fill=white)
    pen.circle(0.5, 0.38, 0.12, outline=s.ARMOURY_BG, width=0.05)
    pen.line([(0.5, 0.22), (0.5, 0.54)], s.ARMOURY_BG, 0.04)
    pen.line([(0.34, 0.38), (0.66, 0.38)], s.ARMOURY_BG, 0.04)
    pen.text(0.5, 0.82, str(el.get("option", ""))[:8], 0.18, white)


@drawer("computer")
def _computer(pen: Pen, el: Element, state: str, looks: Looks) -> None:
    white = (255, 255, 255)
    pen.rect(0.06, 0.06, 0.94, 0.94, fill=s.COMPUTER_BG, outline=s.shade(s.COMPUTER_BG, 0.6), width=0.04,
             radius=0.1)
    pen.rect(0.2, 0.14, 0.8, 0.54, fill=white, radius=0.04)
    pen.rect(0.26, 0.2, 0.74, 0.48, fill=(20, 40, 80))
    pen.line([(0.3, 0.28), (0.5, 0.28)], s.ON_GREEN, 0.04)
    pen.line([(0.3, 0.38), (0.6, 0.38)], s.ON_GREEN, 0.04)
    pen.rect(0.44, 0.54, 0.56, 0.62, fill=white)
    pen.rect(0.32, 0.62, 0.68, 0.66, fill=white)
    pen.text(0.5, 0.81, str(el.get("set", ""))[:8], 0.18, white)


@drawer("flag")
def _flag(pen: Pen, el: Element, state: str, looks: Looks) -> None:
    pen.circle(0.5, 0.5, 0.44, fill=(255, 255, 255), outline=s.FLAG, width=0.04)
    pen.line([(0.3, 0.14), (0.3, 0.86)], s.INK, 0.05)
    pen.polygon([(0.32, 0.14), (0.82, 0.3), (0.32, 0.48)], fill=s.FLAG)
    pen.text(0.55, 0.68, str(el.get("number", "")), 0.34, s.INK)


def start_square(pen: Pen, label: str) -> None:
    pen.rect(0.1, 0.1, 0.9, 0.9, outline=s.START, width=0.05, radius=0.12)
    pen.text(0.5, 0.5, label, 0.3, s.START)


def edge(pen: Pen, fence: bool) -> None:
    """A wall or fence on the turned square's north edge, straddling it."""
    if not fence:
        pen.rect(-0.02, -0.07, 1.02, 0.07, fill=s.WALL)
        return
    pen.rect(-0.02, -0.07, 1.02, 0.07, fill=s.FENCE, outline=s.INK, width=0.015)
    zig = [(0.02 + i * 0.08, -0.035 if i % 2 else 0.035) for i in range(13)]
    pen.line(zig, s.FENCE_SPARK, 0.02)


def _unknown(pen: Pen, el: Element, state: str, looks: Looks) -> None:
    pen.rect(0.08, 0.08, 0.92, 0.92, fill=(255, 240, 255), outline=(170, 0, 170), width=0.05)
    pen.text(0.5, 0.4, el.type[:6], 0.2, (120, 0, 120))
    if state:
        pen.text(0.5, 0.66, state[:6], 0.18, (120, 0, 120))
