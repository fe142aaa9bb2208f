"""The pictures draw the engine's own beams and element states (issue #13): a beam stopped by an eye, a fence, a
raised drawbridge or a robot ends in the picture where `engine.queries.board_beams` — the tracer the turn uses —
says, and a G9 plug-in with a state is drawn as stateful. Hand-worked from RULES B6b.5, B6.2, B6.6, G9.

Every room: 5x5, a board laser on r3c1's west wall firing east along row 3.
"""
from __future__ import annotations

import textwrap
from typing import ClassVar

import pytest

from pbem.engine.elements import new_board
from pbem.engine.geometry import Dir, Square
from pbem.engine.mechanism import MECHANISMS, Mechanism, register
from pbem.engine.queries import board_beams, has_state
from pbem.engine.state import Robot
from pbem.formats.rooms import load_room
from pbem.formats.yamlfile import load_yaml
from pbem.render import style
from pbem.render.board import draw_position
from pbem.render.model import Position
from pbem.render.static import origin

LASER = "  - {type: laser, at: r3c1, wall: W}\n"


def room(extra: str):
    text = "name: Beam\nsize: 5x5\nelements:\n" + LASER + textwrap.indent(extra, "  ")
    return load_room(load_yaml(text, "beam.yaml"), "beam.yaml")


def lit(image, square: Square) -> bool:
    """Whether the beam's core colour crosses the middle of `square` (row 3: the beam runs along the centre)."""
    x, y = origin(square)
    middle = y + style.CELL // 2
    return any(image.getpixel((x + dx, yy))[:3] == style.BEAM for dx in range(4, style.CELL - 4)
               for yy in range(middle - 2, middle + 3))


@pytest.mark.parametrize("extra, robots, stop, hit", [
    ("- {type: eye, at: r3c4, wall: W, id: e1}\n", [], Square(3, 3), None),  # the eye's wall stops it (B6b.5)
    ("- {type: fence, at: r3c3, side: E}\n", [], Square(3, 3), None),  # a fence stops beams (B6.2 ruling)
    ("- {type: drawbridge, at: r3c4, bridge: N}\n", [], Square(3, 3), None),  # raised: a block for beams (B6.6)
    ("", [Robot("Red", at=Square(3, 4), facing=Dir.N)], Square(3, 4), "Red"),  # the first robot takes it
    ("", [], Square(3, 5), None),  # nothing in the way: to the board's edge
])
def test_the_picture_ends_each_beam_where_the_engine_stops_it(extra, robots, stop, hit):
    board = new_board(room(extra), robots)
    (beam,) = board_beams(board.room, board.elements, board.robots.values())
    assert (beam.start, beam.direction, beam.stop, beam.hit) == (Square(3, 1), Dir.E, stop, hit)
    image = draw_position(Position.of(board.room, board))
    assert lit(image, Square(3, 2))  # drawn from the laser on
    beyond = stop.step(Dir.E)
    if board.room.size.contains(beyond):
        assert not lit(image, beyond)  # and not past where the engine stops it


class Shutter(Mechanism):
    """A G9 plug-in with a state: a shutter on its square stops beams while `closed`."""

    type: ClassVar[str] = "shutter"

    def initial_state(self, element):
        return "closed"

    def blocks_beam(self, ctx, element, square, direction) -> bool:
        return ctx.state(element) == "closed"


@pytest.fixture
def shutter():
    register(Shutter)
    yield
    MECHANISMS.pop("shutter")


def test_a_plugin_with_a_state_is_stateful_in_the_picture_and_its_beam_follows_the_state(shutter):
    board = new_board(room("- {type: shutter, at: r3c4}\n"))
    shutter_element = next(e for e in board.room.elements if e.type == "shutter")
    assert has_state(shutter_element) and board.elements[shutter_element.key] == "closed"
    assert board_beams(board.room, board.elements, [])[0].stop == Square(3, 3)
    opened = {**board.elements, shutter_element.key: "open"}
    assert board_beams(board.room, opened, [])[0].stop == Square(3, 5)
    closed_picture = draw_position(Position(board.room, (), board.elements))
    open_picture = draw_position(Position(board.room, (), opened))
    assert not lit(closed_picture, Square(3, 5)) and lit(open_picture, Square(3, 5))
