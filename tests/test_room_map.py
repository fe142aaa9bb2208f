"""The ASCII `map:` of rooms and scenario rooms (DESIGN.md "Room": a shorthand, the element list canonical), and
`pbem room render --ascii`, which prints a room in that notation: reading the print gives the same room."""
from __future__ import annotations

from collections import Counter
from pathlib import Path

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from typer.testing import CliRunner

from pbem.cli import app
from pbem.engine.elements import new_board
from pbem.engine.geometry import Size, Square
from pbem.engine.mechanism import mechanism
from pbem.engine.room import Room
from pbem.formats.roomascii import room_text
from pbem.formats.rooms import check_room_data, load_room
from pbem.formats.scenario import read_scenario
from pbem.formats.yamlfile import FormatError, load_yaml, read_yaml_file
from pbem.render.board import position_png
from pbem.render.model import Position

ROOT = Path(__file__).parent.parent
ROOM_FILES = sorted(p for p in (ROOT / "rooms").rglob("*.yaml") if p.parent.name != "ice")
SCENARIOS = sorted((ROOT / "tests" / "scenarios").rglob("*.yaml"))

# 2x3: a belt r1c2 east with a wall south of it (marked from both sides), a wall r1c2|r1c3, an open gate r1c3
# with a fence on the east rim; a wall on the west rim r2c1 with a laser on it firing east, start 1 on r2c2,
# flag 1 on r2c3 with a fence south of it.
SMALL = """\
name: Small
map: |2
     .    >-| Ho :
  | L>  - 1   F1~
"""


def canonical(room: Room) -> tuple:
    """What a room is, however its file wrote it: size, starts, each element by type, place and fields
    (a wall's `side` is in its place: r3c4 W is r3c3 E)."""
    elements = Counter((e.type, mechanism(e.type).place(e), tuple(sorted((k, v) for k, v in e.attrs.items()
                                                                          if k != "side")))
                       for e in room.elements)
    return room.size, room.starts, elements


def read_text(text: str, source: str = "t.yaml") -> Room:
    return load_room(load_yaml(text, source), source)


def problems_of(text: str) -> list[tuple[int | None, str, str]]:
    with pytest.raises(FormatError) as caught:
        read_text(text)
    assert all(p.source == "t.yaml" for p in caught.value.problems)
    return [(p.line, p.field, p.message) for p in caught.value.problems]


def elements_of(room: Room) -> set[tuple]:
    return {(e.type, str(e.at), tuple(sorted((k, getattr(v, "name", v)) for k, v in e.attrs.items())))
            for e in room.elements}


def test_map_reads_walls_fences_elements_and_starts():
    room = read_text(SMALL)
    assert room.size == Size(2, 3)
    assert room.starts == (Square(2, 2),)
    assert elements_of(room) == {
        ("conveyor", "r1c2", (("dir", "E"), ("speed", 1))),
        ("wall", "r1c2", (("side", "S"),)),       # r2c2's N mark is the same wall: one element
        ("wall", "r1c2", (("side", "E"),)),
        ("gate", "r1c3", (("open", True),)),
        ("fence", "r1c3", (("side", "E"),)),
        ("wall", "r2c1", (("side", "W"),)),
        ("laser", "r2c1", (("beams", 1), ("wall", "W"))),
        ("flag", "r2c3", (("number", 1),)),
        ("fence", "r2c3", (("side", "S"),)),
    }
    lines = {(e.type, str(e.at)): e.line for e in room.elements}
    assert lines[("conveyor", "r1c2")] == 3 and lines[("laser", "r2c1")] == 4


def test_a_listed_element_completes_the_drawn_one_and_wins():
    room = read_text(SMALL + """\
elements:
  - {type: gate, at: r1c3, open: false, control: s1}
  - {type: switch, at: r1c1, id: s1}
  - {type: wall, at: r1c3, side: W}
""")
    gate, = room.of_type("gate")
    assert (gate.get("open"), gate.get("control"), gate.line) == (False, "s1", 6)
    assert len(room.of_type("wall")) == 3  # the listed r1c3 W is the drawn r1c2|r1c3 wall


def test_size_may_be_given_and_must_agree():
    assert read_text(SMALL.replace("name: Small\n", "name: Small\nsize: 2x3\n")).size == Size(2, 3)
    assert problems_of(SMALL.replace("name: Small\n", "name: Small\nsize: 3x3\n")) == [
        (3, "map", "2 rows, but size is 3x3 (3 rows)")]
    assert problems_of(SMALL.replace("name: Small\n", "name: Small\nsize: 2x4\n")) == [
        (4, "map row 1", "3 squares (16 characters), but size is 2x4 (5 characters a square and one for the west rim)"),
        (5, "map row 2", "3 squares (15 characters), but size is 2x4 (5 characters a square and one for the west rim)")]


def test_ragged_rows_are_named_by_line():
    text = SMALL.replace("  | L>  - 1   F1~\n", "  | L>  - 1   F1~   .\n")
    assert problems_of(text) == [
        (4, "map row 2", "4 squares (19 characters), but row 1 has 3 (5 characters a square and one for the west rim)")]


def test_unknown_codes_and_marks_name_line_square_and_column():
    text = SMALL.replace("  | L>  - 1   F1~\n", "  # Q?  = 1   F1~\n")
    assert problems_of(text) == [
        (4, "map r2c1", "column 1: unknown edge '#' (' ', '|' wall, ':' fence)"),
        (4, "map r2c1", "column 3: unknown code 'Q?' (`pbem room render --help` shows the legend)"),
        (4, "map r2c2", "column 7: unknown N mark '=' (' ', '-' wall, '~' fence)")]


def test_contradicting_walls_are_refused():
    text = SMALL.replace("  | L>  - 1   F1~\n", "  | L>  ~ 1   F1~\n")  # r1c2 S says wall, r2c2 N fence
    assert problems_of(text) == [
        (4, "map r2c2", "column 7: N edge is a fence, but the S mark of r1c2 on line 3 makes it a wall")]


def test_starts_on_the_map_and_in_a_list_and_misnumbered():
    assert problems_of(SMALL + "starts: [r1c1]\n") == [(5, "starts", "given twice: as numbers on the map and as this list")]
    text = SMALL.replace("     .    >-", "     3    >-")
    assert problems_of(text) == [(3, "map r1c1", "start 2 is missing (starts are numbered 1, 2, 3 ... on the map)")]


def test_a_drawn_element_missing_its_fields_names_the_map_row():
    text = SMALL.replace("F1~", "P<~")
    assert problems_of(text) == [(4, "map r2c3.stages", "missing (pusher needs stages)")]


def _scenario_rooms() -> list[tuple[str, Room]]:
    rooms = []
    for path in SCENARIOS:
        if path.parent.name == "turns":  # multi-turn files: their rooms are read by the same reader
            continue
        room = read_scenario(path).board.room
        rooms.append((str(path.relative_to(ROOT)), room))
    return rooms


@pytest.mark.parametrize("path", ROOM_FILES, ids=[p.stem for p in ROOM_FILES])
def test_every_bundled_room_reads_back_from_its_ascii_print(path):
    room, problems = check_room_data(read_yaml_file(path), str(path))
    assert not problems and room is not None
    assert canonical(read_text(room_text(room))) == canonical(room)


@pytest.mark.parametrize("path", ROOM_FILES, ids=[p.stem for p in ROOM_FILES])
def test_every_bundled_room_is_drawn_the_same_after_its_ascii_round_trip(path):
    """Walls keep the square they were given on, so the picture of the read-back room is the same, byte for
    byte (a wall is drawn inside its own square)."""
    room = check_room_data(read_yaml_file(path), str(path))[0]
    assert room is not None
    again = read_text(room_text(room))
    assert elements_of(again) == elements_of(room)
    assert position_png(Position.of(again, new_board(again))) == position_png(Position.of(room, new_board(room)))


def test_inner_west_and_doubled_walls_are_listed_and_kept_on_their_square():
    """r2c2's west wall cannot be drawn (a mark between two squares is the west one's east side): it is listed;
    r1c2's south wall is drawn on r1c2, r2c1's north wall under it is listed (one mark per edge)."""
    room = read_text("name: W\nsize: 2x2\nelements:\n  - {type: wall, at: r2c2, side: W}\n"
                     "  - {type: wall, at: r1c2, side: S}\n  - {type: fence, at: r2c2, side: N}\n"
                     "  - {type: wall, at: r1c1, side: W}\n  - {type: wall, at: r2c1, side: N}\n")
    text = room_text(room)
    assert "{type: wall, at: r2c2, side: W}" in text and "{type: fence, at: r2c2, side: N}" in text
    assert "{type: wall, at: r1c1, side: W}" not in text  # the west rim: drawn
    assert elements_of(read_text(text)) == elements_of(room)


def test_every_scenario_room_reads_back_from_its_ascii_print():
    rooms = _scenario_rooms()
    assert len(rooms) > 300
    for name, room in rooms:
        assert canonical(read_text(room_text(room), name)) == canonical(room), name


def test_room_render_ascii_prints_a_room_file_that_checks(tmp_path):
    printed = CliRunner().invoke(app, ["room", "render", str(ROOT / "rooms/geeko/1-intake.yaml"), "--ascii"])
    assert printed.exit_code == 0, printed.output
    rows = printed.output.split("map: |2\n")[1].splitlines()
    assert rows[1] == "    Cs-   .-   .-   .    .-   .-   .-"  # the wall along row 2's south edge, door at c4
    assert rows[2] == "    L>    .    .    .    .    .    ."  # the laser on row 3's west wall, firing east
    copy = tmp_path / "intake.yaml"
    copy.write_text(printed.output)
    checked = CliRunner().invoke(app, ["room", "check", str(copy)])
    assert checked.exit_code == 0 and checked.output.startswith("OK "), checked.output


# --- generated rooms ---------------------------------------------------------

DIRS = st.sampled_from(list("NESW"))
STAGES = st.lists(st.integers(1, 5), min_size=1, max_size=3, unique=True)
ELEMENT_FIELDS = {
    "conveyor": st.fixed_dictionaries({"dir": DIRS, "speed": st.sampled_from([1, 2])}),
    "pusher": st.fixed_dictionaries({"wall": DIRS, "stages": STAGES}),
    "laser": st.fixed_dictionaries({"wall": DIRS, "beams": st.integers(1, 3)}),
    "blaser": st.fixed_dictionaries({"wall": DIRS, "on": st.booleans()}),
    "eye": st.fixed_dictionaries({"wall": DIRS}),
    "gear": st.fixed_dictionaries({"turn": st.sampled_from(["left", "right", "half"])}),
    "gate": st.fixed_dictionaries({"open": st.booleans()}),
    "trapdoor": st.fixed_dictionaries({"open": st.booleans()}),
    "switch": st.fixed_dictionaries({"kind": st.sampled_from(["toggle", "pressure"]), "on": st.booleans()}),
    "computer": st.fixed_dictionaries({"set": st.sampled_from(["reverse", "idle", "strafe"])}),
    "drawbridge": st.fixed_dictionaries({"bridge": DIRS}),
    "teleporter": st.fixed_dictionaries({"colour": st.sampled_from(["amber", "blue", "red"]),
                                         "active": st.booleans()}),
    "flag": st.fixed_dictionaries({"number": st.integers(1, 12)}),
    "wrench": st.fixed_dictionaries({"count": st.integers(1, 12)}),
    "armoury": st.fixed_dictionaries({"option": st.sampled_from(["laser", "rear-laser"])}),
    "pit": st.just({}), "crusher": st.fixed_dictionaries({"stages": STAGES}), "buzzsaw": st.just({}),
    "wall": st.fixed_dictionaries({"side": DIRS}), "fence": st.fixed_dictionaries({"side": DIRS}),
}


@st.composite
def rooms(draw) -> Room:
    """A valid room: random elements on a small board (the ones the room rules refuse are dropped)."""
    size = Size(draw(st.integers(1, 5)), draw(st.integers(1, 6)))
    squares = st.builds(lambda r, c: f"r{r}c{c}", st.integers(1, size.rows), st.integers(1, size.cols))
    items = []
    for i, kind in enumerate(draw(st.lists(st.sampled_from(sorted(ELEMENT_FIELDS)), max_size=14))):
        item = {"type": kind, "at": draw(squares), **draw(ELEMENT_FIELDS[kind])}
        if kind in ("switch", "eye"):
            item["id"] = f"c{i}"
        items.append(item)
    controls = [item["id"] for item in items if "id" in item]
    for item in items:
        if item["type"] in ("gate", "trapdoor", "blaser", "drawbridge", "teleporter") and controls and draw(st.booleans()):
            item["control"] = draw(st.sampled_from(controls))
    starts = draw(st.lists(squares, max_size=10, unique=True))
    while True:
        room, problems = check_room_data({"name": "R", "size": str(size), "starts": starts, "elements": items}, "g")
        if room is not None:
            return room
        bad = {p.field.split(".")[0] for p in problems}
        items = [item for i, item in enumerate(items) if f"elements[{i}]" not in bad]
        starts = [s for i, s in enumerate(starts) if f"starts[{i}]" not in bad]
        if any(item.get("control") not in controls for item in items if "control" in item):
            items = [item for item in items if "control" not in item]


@settings(max_examples=150, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(room=rooms())
def test_any_room_reads_back_from_its_ascii_print(room: Room) -> None:
    assert canonical(read_text(room_text(room))) == canonical(room)


def test_a_map_too_large_is_refused_as_a_size_is():
    assert problems_of("map: |2\n" + "  " + " " + "  .  " * 101 + "\n") == [  # rim, then 101 squares
        (1, "map", "1x101 is too large: at most 100 rows and 100 columns")]


@pytest.mark.parametrize("path", sorted((ROOT / "rooms" / "ice").glob("*.yaml")), ids=lambda p: p.stem)
def test_room_render_on_an_ice_maze_says_it_is_a_maze_not_a_room(path, tmp_path):
    for args in (["--ascii"], ["--out", str(tmp_path / "x.png")]):
        result = CliRunner().invoke(app, ["room", "render", str(path), *args])
        assert result.exit_code == 1
        assert "Ice maze" in result.output and "not a room" in result.output, result.output
        assert "unknown edge" not in result.output
        assert not (tmp_path / "x.png").exists()
