"""RULES G9: a new mechanism kind is a plug-in class; the stage loop does not change.

The kinds below are defined here, outside the package: an always-on one (`ice`,
hooking into movement) and a phase one (`spinner`, acting with the gears).
"""
import textwrap
from typing import ClassVar

import pytest

from pbem.engine import GEEKO, resolve_turn
from pbem.engine.cards import Card
from pbem.engine.elements import new_board
from pbem.engine.events import Moved, Rotated
from pbem.engine.geometry import Dir, Square
from pbem.engine.mechanism import MECHANISMS, Field, Mechanism, known_types, register, stages
from pbem.engine.movement import step
from pbem.engine.state import Robot
from pbem.formats.rooms import load_room
from pbem.formats.yamlfile import FormatError, load_yaml


class Ice(Mechanism):
    """A robot that moves onto ice by any means slides one more square the same way."""

    type: ClassVar[str] = "ice"

    def on_enter(self, ctx, element, robot, frm, direction, how):
        if how == "slide":
            return False
        report = lambda a, b: Moved(ctx.stage, robot.name, Card(0, "IDLE"), a, b, direction)
        step(ctx, robot, direction, "slide", report)
        return True  # the slide ends the card's movement


class Spinner(Mechanism):
    """In its stages, turns robots on it to face south (phase: gears)."""

    type: ClassVar[str] = "spinner"
    phases: ClassVar[tuple] = ("gears",)
    fields: ClassVar[dict] = {"stages": Field(stages)}

    def act(self, ctx, phase, elements):
        for element in elements:
            if ctx.stage in element.get("stages"):
                for robot in ctx.robots_at(element.at):
                    before = robot.facing
                    robot.facing = before.turned(2 - before.value)
                    ctx.emit(Rotated(ctx.stage, robot.name, before, robot.facing, "spinner", element.key))


class Doorbell(Mechanism):
    """`robots_only`: rings (an event) for each robot on it at the end of a stage; counts its calls."""

    type: ClassVar[str] = "doorbell"
    phases: ClassVar[tuple] = ("end of stage",)
    robots_only: ClassVar[bool] = True
    calls: ClassVar[list] = []

    def act(self, ctx, phase, elements):
        Doorbell.calls.append(ctx.stage)
        for element in elements:
            for robot in ctx.robots_at(element.at):
                ctx.emit(Rotated(ctx.stage, robot.name, robot.facing, robot.facing, "doorbell", element.key))


@pytest.fixture
def plugins():
    register(Ice)
    register(Spinner)
    yield
    MECHANISMS.pop("ice")
    MECHANISMS.pop("spinner")


ROOM = textwrap.dedent("""\
    size: 5x5
    elements:
      - {type: ice, at: r3c2}
      - {type: spinner, at: r1c4, stages: [1]}
    """)


def test_new_kinds_are_known_to_the_room_loader(plugins):
    assert {"ice", "spinner"} <= set(known_types())
    room = load_room(load_yaml(ROOM, "plug.yaml"), "plug.yaml")
    assert [e.type for e in room.elements] == ["ice", "spinner"]


def test_plugin_kinds_act_in_a_turn(plugins):
    room = load_room(load_yaml(ROOM, "plug.yaml"), "plug.yaml")
    board = new_board(room, [Robot("A", at=Square(3, 1), facing=Dir.E), Robot("B", at=Square(1, 4))])
    result = resolve_turn(board, {"A": [Card.parse("FWD1#500"), Card.parse("LF90#70")],
                                  "B": [Card.parse("RT90#80"), Card.parse("RT90#100")]},
                          GEEKO, seed=1, turn=1)
    a, b = result.board.robots["A"], result.board.robots["B"]
    assert a.at == Square(3, 3)  # FWD1 onto the ice at r3c2, slid on to r3c3
    assert b.facing is Dir.W  # stage 1: RT90 -> E, spinner -> S; stage 2: RT90 -> W (S without the spinner)
    assert [e.stage for e in result.events if isinstance(e, Rotated) and e.cause == "spinner"] == [1]


def test_unknown_kind_is_refused_without_the_plugin():
    with pytest.raises(FormatError, match="unknown element type 'ice'"):
        load_room(load_yaml(ROOM, "plug.yaml"), "plug.yaml")


def test_robots_only_kind_acts_only_while_a_robot_stands_on_it():
    register(Doorbell)
    try:
        room = load_room(load_yaml("size: 3x3\nelements:\n  - {type: doorbell, at: r1c2}\n", "bell.yaml"),
                         "bell.yaml")
        board = new_board(room, [Robot("A", at=Square(3, 2), facing=Dir.N)])
        Doorbell.calls.clear()
        result = resolve_turn(board, {"A": [Card.parse("FWD1#500"), Card.parse("FWD1#510"),
                                            Card.parse("RT90#80")]}, GEEKO, seed=1, turn=1)
    finally:
        MECHANISMS.pop("doorbell")
    # r3c2 -> r2c2 (stage 1, not on the bell) -> r1c2 (stages 2 and 3, on it)
    assert Doorbell.calls == [2, 3]
    assert [e.stage for e in result.events if isinstance(e, Rotated) and e.cause == "doorbell"] == [2, 3]


def test_a_kind_that_exists_is_refused_unless_the_class_says_it_replaces_it():
    """G9: a plug-in registering `pit` again would silently change every room's pits; only `replaces = "pit"`
    takes it over (and the built-in pit is put back after)."""
    builtin = MECHANISMS["pit"]

    class Puddle(Mechanism):
        type: ClassVar[str] = "pit"

    with pytest.raises(ValueError, match=r"Puddle registers 'pit', a kind that exists already .*replaces = 'pit'"):
        register(Puddle)
    assert MECHANISMS["pit"] is builtin

    class SoftPit(Mechanism):
        type: ClassVar[str] = "pit"
        replaces: ClassVar[str] = "pit"

    try:
        register(SoftPit)
        assert isinstance(MECHANISMS["pit"], SoftPit)
        register(SoftPit)  # the same class again (a second command in one process) is no conflict
    finally:
        MECHANISMS["pit"] = builtin
