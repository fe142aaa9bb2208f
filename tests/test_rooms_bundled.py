"""The bundled rooms (rooms/): they load, pass `pbem room check`, and the Geek-o rooms are complete
and passable.

- Every bundled room file loads and `pbem room check` finds no error (RULES G8 for the 7x7 boards).
- The five Geek-o rooms together use every element type the engine registers (RULES B6, B6b, G3,
  G7), every variant the room format offers, and the room layout RULES G1/G3 asks for.
- Passability (RULES G1, G3): for each Geek-o room a hand-planned route (tests/room_routes/) of
  programs, turn by turn, drives both robots of one player out through the gates. Each route file
  comments its plan stage by stage; the engine runs it with the `geeko` ruleset. The five routes
  also chain into one campaign, the robots keeping what they gained from room to room.
"""
from __future__ import annotations

import re
from collections import Counter
from pathlib import Path

import pytest
from typer.testing import CliRunner

from pbem.cli import app
from pbem.engine.cards import BASIC_KINDS, Card, standard_cards
from pbem.engine.elements import new_board
from pbem.engine.geometry import Dir
from pbem.engine.mechanism import known_types
from pbem.engine.ruleset import get_ruleset
from pbem.engine.state import Robot
from pbem.engine.turn import resolve_turn
from pbem.formats.canonical import to_data
from pbem.formats.rooms import read_room
from pbem.formats.yamlfile import read_yaml_file

ROOT = Path(__file__).resolve().parent.parent
ROOM_SETS = ("geeko", "botwars", "entry-fee")  # rooms/ also holds DM puzzles, which are no rooms
ROOM_FILES = sorted(p for folder in ROOM_SETS for p in (ROOT / "rooms" / folder).glob("*.yaml"))
GEEKO_FILES = sorted((ROOT / "rooms" / "geeko").glob("*.yaml"))
ROUTE_FILES = sorted((ROOT / "tests" / "room_routes").glob("*.yaml"))
STANDARD = set(standard_cards())
SEED = 2026


def _rel(path: Path) -> str:
    return str(path.relative_to(ROOT))


@pytest.fixture(scope="module")
def geeko_rooms():
    return [read_room(path) for path in GEEKO_FILES]


# --- every bundled room ------------------------------------------------------

def test_rooms_bundled_sets_present():
    """DESIGN.md layout: five Geek-o rooms, at least one BotWars board, two 7x7 entry-fee boards."""
    assert [p.name[:2] for p in GEEKO_FILES] == ["1-", "2-", "3-", "4-", "5-"]
    assert list((ROOT / "rooms" / "botwars").glob("*.yaml"))
    assert len(list((ROOT / "rooms" / "entry-fee").glob("*.yaml"))) == 2


@pytest.mark.parametrize("path", ROOM_FILES, ids=_rel)
def test_rooms_bundled_room_check_passes(path):
    """`pbem room check` (with the G8 checks for 7x7 boards) accepts every bundled room."""
    result = CliRunner().invoke(app, ["room", "check", str(path)])
    assert result.exit_code == 0, result.output
    room = read_room(path)
    assert room.name and room.notes.strip()


def test_rooms_bundled_botwars_board():
    """A 12x12 BotWars board with flags numbered 1..n and starts for eight robots (RULES B1)."""
    boards = [read_room(p) for p in sorted((ROOT / "rooms" / "botwars").glob("*.yaml"))]
    big = [b for b in boards if (b.size.rows, b.size.cols) == (12, 12)]
    assert big
    for board in big:
        numbers = sorted(e.get("number") for e in board.of_type("flag"))
        assert numbers == list(range(1, len(numbers) + 1)) and len(numbers) >= 2
        assert len(set(board.starts)) >= 8
        assert len({e.type for e in board.elements}) >= 10


def test_rooms_bundled_entry_fee_boards_are_7x7():
    """RULES G8: entry-fee boards are 7x7 (the rest of G8 is `room check`'s job, above)."""
    for path in sorted((ROOT / "rooms" / "entry-fee").glob("*.yaml")):
        room = read_room(path)
        assert (room.size.rows, room.size.cols) == (7, 7)


# --- the Geek-o rooms: complete and well-formed ------------------------------

def test_rooms_bundled_geeko_use_every_registered_type(geeko_rooms):
    """The five rooms together hold every element type the engine registers (its registry, not a list)."""
    used = {e.type for room in geeko_rooms for e in room.elements}
    assert set(known_types()) - used == set()


def test_rooms_bundled_geeko_use_every_variant(geeko_rooms):
    """Every variant of the room format: belt speeds and turning belts, gear turns, switch kinds,
    wrench counts, >= 3 teleporter colours in one room, and each card set's computer in two rooms (G7)."""
    elements = [e for room in geeko_rooms for e in room.elements]
    assert {e.get("speed", 1) for e in elements if e.type == "conveyor"} == {1, 2}
    assert {e.get("turn") for e in elements if e.type == "gear"} == {"left", "right", "half"}
    assert {e.get("kind") for e in elements if e.type == "switch"} == {"toggle", "pressure"}
    assert {e.get("count", 1) for e in elements if e.type == "wrench"} == {1, 2}
    assert max(len({e.get("colour") for e in room.of_type("teleporter")}) for room in geeko_rooms) >= 3
    for speed in (1, 2):  # a belt that carries onto a belt of another direction (B6b.1 rotation)
        assert any(_turning_belt(room, speed) for room in geeko_rooms), speed
    for card_set in ("reverse", "idle", "strafe"):
        rooms = {room.name for room in geeko_rooms for e in room.of_type("computer") if e.get("set") == card_set}
        assert len(rooms) >= 2, card_set
    # the controlled states: a blaser, trap door, teleporter and gate each behind a control
    controlled = {e.type for e in elements if e.get("control")}
    assert {"blaser", "trapdoor", "teleporter", "gate", "drawbridge"} <= controlled


def _turning_belt(room, speed) -> bool:
    belts = {e.at: e.get("dir") for e in room.of_type("conveyor") if e.get("speed", 1) == speed}
    return any(belts.get(at.step(d)) not in (None, d) for at, d in belts.items())


def test_rooms_bundled_geeko_layout(geeko_rooms):
    """RULES G1/G3: 7x7 up to 12x12, growing; two starts on the south row (robots face north);
    gates on the north row; a single-gate room, a several-gate room, and a gate that starts shut
    and is opened by a switch or an eye."""
    sizes = [(room.size.rows, room.size.cols) for room in geeko_rooms]
    assert sizes == sorted(sizes) and sizes[0] == (7, 7) and sizes[-1] == (12, 12)
    assert all(7 <= r <= 12 and 7 <= c <= 12 for r, c in sizes)
    gate_counts = []
    for room in geeko_rooms:
        assert len(room.starts) == 2 and all(s.row == room.size.rows for s in room.starts)
        gates = room.of_type("gate")
        assert gates and all(g.at.row == 1 for g in gates)
        gate_counts.append(len(gates))
    assert 1 in gate_counts and any(n > 1 for n in gate_counts)
    controls = {e.get("id"): e.type for room in geeko_rooms for e in room.of_type("switch", "eye")}
    shut = [g for room in geeko_rooms for g in room.of_type("gate") if g.get("open") is False and g.get("control")]
    assert shut and {controls[g.get("control")] for g in shut} <= {"switch", "eye"}


# --- passability --------------------------------------------------------------

def _card(text: str) -> Card:
    card = Card.parse(text)
    assert re.fullmatch(r"[A-Z0-9]{4}#\d+", text), f"{text}: write full cards, KIND#NUMBER"
    assert card in STANDARD and card.kind in BASIC_KINDS, f"{text}: not a standard basic card (RULES B3.3)"
    return card


def _route(path: Path):
    data = read_yaml_file(path)
    room = read_room(ROOT / data["room"])
    names = list(data["robots"])
    turns = [{name: [_card(c) for c in turn.get(name, [])] for name in names} for turn in data["turns"]]
    assert len(turns) == data["turns_taken"]
    return room, names, turns, list(data.get("events", []))


def test_rooms_bundled_every_geeko_room_has_a_route():
    routed = {read_yaml_file(p)["room"] for p in ROUTE_FILES}
    assert routed == {_rel(p) for p in GEEKO_FILES}


def _run_route(path: Path, robots: list[Robot]) -> tuple[list[Robot], int]:
    """Play one route on a fresh copy of its room with `robots` on the start squares, in robot order,
    facing north (RULES G3), asserting every planned step; return the robots and the turns taken."""
    room, names, turns, milestones = _route(path)
    ruleset = get_ruleset("geeko")
    assert [r.name for r in robots] == names
    placed = []
    for robot, start in zip(robots, room.starts):
        robot = robot.copy()
        robot.at, robot.facing, robot.left_room = start, Dir.N, False
        placed.append(robot)
    board = new_board(room, placed)
    for number, programs in enumerate(turns, start=1):
        cards = [c for program in programs.values() for c in program]
        assert len(cards) == len(set(cards)), f"turn {number}: a card used twice"
        assert all(len(p) <= ruleset.registers for p in programs.values())
        playing = [n for n in names if programs[n]]
        if len(playing) == 2:  # RULES B4.5: equal length while both robots receive cards
            assert len(programs[names[0]]) == len(programs[names[1]]), f"turn {number}: B4.5"
        assert not any(board.robots[n].left_room for n in names), f"out before turn {number}"
        result = resolve_turn(board, programs, ruleset, seed=SEED, turn=number)
        board = result.board
        happened = [{"event": type(event).__name__, **to_data(event)} for event in result.events]
        for milestone in (m for m in milestones if m["turn"] == number):
            wanted = {k: v for k, v in milestone.items() if k != "turn"}
            assert any(wanted.items() <= event.items() for event in happened), f"did not happen: {milestone}"
        modes = Counter(r.mode for r in board.robots.values())
        assert set(modes) <= {"real"}, f"turn {number}: {dict(modes)}"
        assert all(r.hp == ruleset.max_hp for r in board.robots.values()), "the plan takes no damage"
    assert all(board.robots[n].left_room for n in names), {
        n: (str(r.at), r.facing.name, r.hp) for n, r in board.robots.items()}
    return [board.robots[n] for n in names], len(turns)


def _fresh_robots(path: Path) -> list[Robot]:
    return [Robot(name, owner="p1") for name in read_yaml_file(path)["robots"]]


@pytest.mark.parametrize("path", ROUTE_FILES, ids=lambda p: p.stem)
def test_rooms_bundled_route_passes(path):
    """RULES G1/G3: the planned programs take both robots out through the gates, in exactly as many
    turns as the route has, neither robot destroyed nor hurt on the way, and the plan's milestones
    (switches, teleports, belt and gear rotations, gate exits at their stages) happen as commented."""
    _run_route(path, _fresh_robots(path))


def test_rooms_bundled_routes_chain_into_a_campaign():
    """RULES G1/G3/G7: one player's two robots play the five routes in a row, keeping what they gained
    (room 4's laser option fires through room 5 without spoiling its plan): six turns in all."""
    robots = _fresh_robots(ROUTE_FILES[0])
    total = 0
    for path in ROUTE_FILES:
        robots, turns = _run_route(path, robots)
        total += turns
    assert total == 6
    assert [r.options for r in robots] == [[], ["laser"]]
