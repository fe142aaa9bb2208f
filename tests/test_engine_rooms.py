"""Room files (DESIGN.md "Room"): every refusal names file, line and field; `pbem room check` (with G8)."""
import textwrap
from dataclasses import replace

import pytest
from cli_process import run_pbem

from pbem.formats.canonical import to_data
from pbem.formats.rooms import entry_fee_problems, read_room
from pbem.formats.yamlfile import FormatError


def problems_of(tmp_path, text, name="room.yaml"):
    path = tmp_path / name
    path.write_text(textwrap.dedent(text))
    with pytest.raises(FormatError) as caught:
        read_room(path)
    return [(p.source, p.line, p.field, p.message) for p in caught.value.problems]


def test_unknown_type_names_file_line_and_field(tmp_path):
    found = problems_of(tmp_path, """\
        size: 5x5
        elements:
          - {type: wall, at: r1c1, side: N}
          - {type: lava, at: r2c2}
        """)
    assert [(line, field) for _, line, field, _ in found] == [(4, "elements[1].type")]
    assert found[0][0].endswith("room.yaml") and "lava" in found[0][3]


def test_square_off_the_board_and_bad_field(tmp_path):
    found = problems_of(tmp_path, """\
        size: 5x4
        elements:
          - {type: pit, at: r2c5}
          - type: gear
            at: r3c3
            turn: sideways
        """)
    assert {(line, field) for _, line, field, _ in found} == {(3, "elements[0].at"), (6, "elements[1].turn")}


def test_dangling_control_duplicate_colour_and_start_on_pit(tmp_path):
    found = problems_of(tmp_path, """\
        size: 6x6
        starts: [r6c1, r4c4]
        elements:
          - {type: switch, at: r2c2, id: s1}
          - {type: trapdoor, at: r3c3, control: s2}
          - {type: teleporter, at: r1c1, colour: Red}
          - {type: teleporter, at: r1c6, colour: red}
          - {type: pit, at: r4c4}
        """)
    by_field = {field: (line, message) for _, line, field, message in found}
    assert by_field["elements[1].control"][0] == 5 and "s2" in by_field["elements[1].control"][1]
    assert by_field["elements[3].colour"][0] == 7 and "line 6" in by_field["elements[3].colour"][1]
    assert by_field["starts[1]"][0] == 2 and "pit" in by_field["starts[1]"][1]


def test_missing_required_field_and_unknown_field(tmp_path):
    found = problems_of(tmp_path, """\
        size: 5x5
        elements:
          - {type: pusher, at: r2c1, wall: W}
          - {type: wall, at: r2c1, side: W, colour: red}
        """)
    assert {(line, field) for _, line, field, _ in found} == {(3, "elements[0].stages"), (4, "elements[1].colour")}


def test_yaml_11_on_key_is_the_on_field(tmp_path):
    path = tmp_path / "room.yaml"
    path.write_text("size: 5x5\nelements:\n  - {type: switch, at: r1c1, id: s1}\n"
                    "  - {type: blaser, at: r2c1, wall: W, control: s1, on: true}\n")
    room = read_room(path)
    assert room.elements[1].get("on") is True


def run_check(*args):
    return run_pbem("room", "check", *args)


def test_room_check_lists_every_reason_and_exits_1(tmp_path):
    bad = tmp_path / "bad.yaml"
    bad.write_text("size: 5x5\nelements:\n  - {type: lava, at: r1c1}\n  - {type: pit, at: r9c9}\n")
    good = tmp_path / "good.yaml"
    good.write_text("size: 5x6\nstarts: [r5c1]\nelements:\n  - {type: wall, at: r2c2, side: N}\n")
    result = run_check(good, bad)
    assert result.returncode == 1
    assert f"OK {good}" in result.stdout and f"REFUSED {bad}" in result.stdout
    assert "bad.yaml:3: elements[0].type" in result.stdout and "bad.yaml:4: elements[1].at" in result.stdout


def test_g8_entry_fee_applies_to_7x7_boards(tmp_path):
    plain = tmp_path / "plain.yaml"
    plain.write_text("size: 7x7\nstarts: [r7c1]\nelements:\n  - {type: flag, at: r1c1, number: 1}\n"
                     "  - {type: switch, at: r4c4, id: s1}\n")
    walled = tmp_path / "walled.yaml"
    walled.write_text("size: 7x7\nstarts: [r7c1]\nelements:\n  - {type: wall, at: r7c1, side: N}\n"
                      "  - {type: wall, at: r7c1, side: E}\n  - {type: flag, at: r1c1, number: 1}\n")
    result = run_check(plain, walled)
    assert result.returncode == 1
    out = result.stdout
    assert "controls nothing" in out  # a switch that links to nothing
    assert "cannot move anywhere" in out and "flag 1 on r1c1 cannot be reached" in out
    assert run_check("--no-entry-fee", walled).returncode == 0


def test_g8_refusals_name_the_line_and_field(tmp_path):
    """G8, as every room error: each refusal points at the line it is about."""
    path = tmp_path / "fee.yaml"
    path.write_text(textwrap.dedent("""\
        name: Fee
        size: 6x7
        starts:
          - r6c1
        elements:
          - {type: wall, at: r6c1, side: N}
          - {type: wall, at: r6c1, side: E}
          - {type: flag, at: r1c1, number: 1}
          - {type: switch, at: r3c3, id: s1}
        """))
    found = {(p.line, p.field): p.message for p in entry_fee_problems(read_room(path))}
    assert set(found) == {(2, "size"), (4, "starts[0]"), (8, "elements[2].at"), (9, "elements[3].id")}
    assert found[(2, "size")] == "an entry-fee board is 7x7, not 6x7"
    assert "r6c1 cannot move anywhere" in found[(4, "starts[0]")]
    assert "flag 1 on r1c1 cannot be reached" in found[(8, "elements[2].at")]
    assert "switch 's1' controls nothing" in found[(9, "elements[3].id")]
    plain = tmp_path / "plain.yaml"
    plain.write_text("size: 7x7\nelements:\n  - {type: flag, at: r1c1, number: 1}\n")
    found = {(p.line, p.field) for p in entry_fee_problems(read_room(plain))}
    assert found == {(2, "elements"), (1, "starts")}  # plain floor on `elements:`; no starts: the file's top


def test_a_rooms_lines_are_not_part_of_a_games_state(tmp_path):
    path = tmp_path / "r.yaml"
    path.write_text("size: 7x7\nstarts: [r7c1]\nelements: []\n")
    room = read_room(path)
    assert room.lines["size"] == 1 and "lines" not in to_data(room)
    assert replace(room, lines={}) == room


def test_g8_forced_on_other_sizes(tmp_path):
    room = tmp_path / "big.yaml"
    room.write_text("size: 8x8\nstarts: [r8c1]\nelements:\n  - {type: pit, at: r3c3}\n")
    assert run_check(room).returncode == 0
    result = run_check("--entry-fee", room)
    assert result.returncode == 1 and "an entry-fee board is 7x7" in result.stdout


# (name, elements, every (line, field, words of the message) the refusal must hold); the room is 6x6, elements
# start on line 3. RULES B6b.2/B6b.4 stages are registers 1..9; B6.1/B6.2 an edge is one edge from either side.
ROOM_REFUSALS = [
    ("pusher-stages-out-of-range-and-repeated", ["{type: pusher, at: r2c1, wall: W, stages: [99, 1, 1]}"],
     [(3, "elements[0].stages", ["99", "stage 1 is listed twice"])]),
    ("crusher-stages-every-bad-one", ["{type: crusher, at: r2c2, stages: [0, 10, 3, -1]}"],
     [(3, "elements[0].stages", ["[0] 0", "[1] 10", "[3] -1"])]),
    ("crusher-single-stage-too-high", ["{type: crusher, at: r2c2, stages: 12}"],
     [(3, "elements[0].stages", ["12", "1..9"])]),
    ("two-pits-on-one-square", ["{type: pit, at: r3c3}", "{type: pit, at: r3c3}"],
     [(4, "elements[1].at", ["second pit", "line 3"])]),
    ("two-wrenches-on-one-square", ["{type: wrench, at: r1c1}", "{type: pit, at: r2c2}", "{type: wrench, at: r1c1}"],
     [(5, "elements[2].at", ["second wrench", "line 3"])]),
    ("same-wall-twice", ["{type: wall, at: r3c4, side: W}", "{type: wall, at: r3c4, side: W}"],
     [(4, "elements[1].at", ["second wall", "line 3"])]),
    ("same-wall-from-the-other-side", ["{type: wall, at: r3c4, side: W}", "{type: wall, at: r3c3, side: E}"],
     [(4, "elements[1].at", ["second wall", "line 3"])]),
    ("same-fence-from-the-other-side", ["{type: fence, at: r2c2, side: N}", "{type: fence, at: r1c2, side: S}"],
     [(4, "elements[1].at", ["second fence", "line 3"])]),
    ("two-lasers-on-one-mount", ["{type: laser, at: r4c1, wall: W}", "{type: laser, at: r4c1, wall: W}"],
     [(4, "elements[1].at", ["second laser", "line 3"])]),
    ("two-pushers-on-one-mount", ["{type: pusher, at: r4c1, wall: W, stages: [1]}",
                                  "{type: pusher, at: r4c1, wall: W, stages: [2]}"],
     [(4, "elements[1].at", ["second pusher", "line 3"])]),
    ("teleporter-colour-a-number", ["{type: teleporter, at: r1c1, colour: 5}"],
     [(3, "elements[0].colour", ["word"])]),
    ("teleporter-colour-a-list", ["{type: teleporter, at: r1c1, colour: [red]}"],
     [(3, "elements[0].colour", ["word"])]),
    ("every-problem-at-once", ["{type: pit, at: r3c3}", "{type: pit, at: r3c3}",
                               "{type: crusher, at: r5c5, stages: [99, 1, 1]}",
                               "{type: teleporter, at: r6c6, colour: 7}"],
     [(4, "elements[1].at", ["second pit"]), (5, "elements[2].stages", ["99", "listed twice"]),
      (6, "elements[3].colour", ["word"])]),
]


@pytest.mark.parametrize("name, elements, expected", ROOM_REFUSALS, ids=[c[0] for c in ROOM_REFUSALS])
def test_room_refuses_bad_stages_duplicates_and_colours(tmp_path, name, elements, expected):
    text = "size: 6x6\nelements:\n" + "".join(f"  - {e}\n" for e in elements)
    found = problems_of(tmp_path, text)
    assert sorted((line, field) for _, line, field, _ in found) == [(line, field) for line, field, _ in expected]
    for line, field, words in expected:
        message = next(m for _, ln, f, m in found if (ln, f) == (line, field))
        assert all(word in message for word in words), (words, message)


@pytest.mark.parametrize("elements", [
    ["{type: wall, at: r3c4, side: W}", "{type: fence, at: r3c4, side: W}"],  # different types
    ["{type: wall, at: r3c4, side: W}", "{type: wall, at: r3c4, side: E}"],
    ["{type: laser, at: r4c1, wall: N}", "{type: pusher, at: r4c1, wall: N, stages: [1, 3, 5]}"],
    ["{type: pit, at: r3c3}", "{type: flag, at: r3c3, number: 1}"],
    ["{type: crusher, at: r1c1, stages: [9, 1]}", "{type: teleporter, at: r2c2, colour: Dark-blue}"],
], ids=["wall-and-fence", "two-sides-of-a-square", "two-devices-on-one-mount", "pit-and-flag", "edge-values"])
def test_room_accepts_distinct_elements_sharing_a_place(tmp_path, elements):
    path = tmp_path / "room.yaml"
    path.write_text("size: 6x6\nelements:\n" + "".join(f"  - {e}\n" for e in elements))
    assert len(read_room(path).elements) == 2
