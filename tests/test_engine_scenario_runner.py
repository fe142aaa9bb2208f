"""The scenario runner (DESIGN.md "Rule scenario"): check_scenario, `pbem scenario check|run`."""
import textwrap
from pathlib import Path

import pytest
import yaml
from cli_process import run_pbem
from hypothesis import given, settings
from hypothesis import strategies as st

from pbem.formats.scenario import check_scenario

PUSH = textwrap.dedent("""\
    rules: [B6.3]
    title: a push
    ruleset: geeko
    seed: 1
    room: {name: Lab, size: 5x5, starts: [r5c1], elements: [{type: switch, at: r3c4, id: s1}]}
    robots:
      - {name: Red, at: r3c2, facing: E}
      - {name: Blue, at: r3c3, facing: N}
    programs: {Red: [FWD1#500]}
    expect:
      robots:
        Red: {at: r3c3, facing: E, hp: 10, mode: real, hand_size: 9}
        Blue: {at: r3c4, upgrades: [], options: []}
      elements: {s1: on}
    """)


def write(tmp_path, name, text):
    path = tmp_path / name
    path.write_text(text)
    return path


def pbem(*args):
    return run_pbem(*args)


def test_passing_scenario_has_no_differences(tmp_path):
    assert check_scenario(write(tmp_path, "push.yaml", PUSH)) == []


def test_differences_name_the_field_and_both_values(tmp_path):
    path = write(tmp_path, "wrong.yaml", PUSH.replace("Blue: {at: r3c4", "Blue: {at: r3c5")
                 .replace("{s1: on}", "{s1: off}"))
    assert check_scenario(path) == ["robots.Blue.at: expected r3c5, got r3c4", "elements.s1: expected off, got on"]


def test_format_problems_come_with_file_line_and_field(tmp_path):
    text = PUSH.replace("facing: N}", "facing: up}").replace("FWD1#500", "FWD9#500").replace("hand_size: 9", "hands: 9")
    problems = check_scenario(write(tmp_path, "bad.yaml", text))
    assert any(p.endswith("bad.yaml:8: robots[1].facing: not a direction (N, E, S or W): 'up'") for p in problems)
    assert any(":9: programs.Red[0]:" in p for p in problems)
    assert any(":12: expect.robots.Red.hands:" in p for p in problems)


@pytest.mark.parametrize("options, wheres", [
    ("ruleset_options:\n  max_hp: 0\n  laser_damage: -1\n  fence_damage: 3\n",
     [":6: ruleset_options.max_hp:", ":7: ruleset_options.laser_damage:"]),
    ("ruleset_options: {buzzsaw_threshold: 2, registers_max: -5}\n",
     [":5: ruleset_options.buzzsaw_threshold:", ":5: ruleset_options.registers_max:"]),
], ids=["block", "flow"])
def test_every_ruleset_option_out_of_range_is_named_with_its_line(tmp_path, options, wheres):
    """RULES B1: each numeric option has a range; a scenario names every value outside it (seed is line 4)."""
    problems = check_scenario(write(tmp_path, "bad.yaml", PUSH.replace("seed: 1\n", "seed: 1\n" + options)))
    assert len(problems) == len(wheres) and all(any(w in p for p in problems) for w in wheres), problems


def test_cli_check_prints_pass_and_fail_and_exits_nonzero(tmp_path):
    good = write(tmp_path, "good.yaml", PUSH)
    bad = write(tmp_path, "bad.yaml", PUSH.replace("Red: {at: r3c3", "Red: {at: r3c2"))
    result = pbem("scenario", "check", good, bad)
    assert result.returncode == 1
    assert result.stdout.splitlines() == [f"PASS {good}", f"FAIL {bad}: robots.Red.at: expected r3c2, got r3c3"]
    assert pbem("scenario", "check", good).returncode == 0


def test_cli_run_prints_the_state_in_the_expect_shape(tmp_path):
    result = pbem("scenario", "run", write(tmp_path, "push.yaml", PUSH))
    assert result.returncode == 0
    state = yaml.safe_load(result.stdout)
    assert state["robots"]["Red"] == {"at": "r3c3", "facing": "E", "hp": 10, "mode": "real", "upgrades": [],
                                      "options": []}
    assert state["robots"]["Blue"]["at"] == "r3c4" and state["elements"] == {"s1": "on"}


def test_turn_and_reinstatement_follow_the_room_starts(tmp_path):
    """DESIGN: a robot destroyed in the turn is reinstated only if the room lists starts (B8, B9 turn count)."""
    text = textwrap.dedent("""\
        rules: [B8.1, B9]
        title: fall and come back virtual
        ruleset: botwars
        turn: 6
        room: {size: 4x4, starts: [r4c1], elements: [{type: pit, at: r1c1}]}
        robots: [{name: Red, at: r2c1, facing: N}]
        programs: {Red: [FWD1#500]}
        expect: {robots: {Red: {at: r4c1, mode: virtual, hp: 8, lives: 2}}}
        """)
    assert check_scenario(write(tmp_path, "fall.yaml", text)) == []
    no_starts = text.replace("starts: [r4c1], ", "").replace("{at: r4c1, mode: virtual, hp: 8, lives: 2}",
                                                             "{at: null, mode: destroyed, hand_size: 0}")
    assert check_scenario(write(tmp_path, "gone.yaml", no_starts)) == []


APART = PUSH.replace("  - {name: Blue, at: r3c3, facing: N}", "  - {name: Blue, owner: bob, at: r3c3, facing: N}") \
    .replace("  - {name: Red, at: r3c2, facing: E}", "  - {name: Red, owner: ann, at: r3c2, facing: E}")


def test_owners_play_in_copies_of_their_own_and_each_copy_is_checked(tmp_path):
    """RULES G2: Red walks onto Blue's square without pushing it (Blue is in bob's copy); `elements` is checked in
    every copy (naming the copy that differs), `elements_of` in one."""
    text = APART.replace("Blue: {at: r3c4", "Blue: {at: r3c3")
    assert check_scenario(write(tmp_path, "apart.yaml", text)) == [
        "elements.s1: expected on, got off (in ann's copy)", "elements.s1: expected on, got off (in bob's copy)"]
    by_owner = text.replace("  elements: {s1: on}", "  elements_of: {ann: {s1: off}, bob: {s1: off}}")
    assert check_scenario(write(tmp_path, "by_owner.yaml", by_owner)) == []
    unknown = text.replace("  elements: {s1: on}", "  elements_of: {carl: {s1: off}}")
    assert any("expect.elements_of.carl: no robot has this owner (owners: ann, bob)" in p
               for p in check_scenario(write(tmp_path, "unknown.yaml", unknown)))


def test_a_geeko_board_of_several_owners_is_never_resolved_as_one():
    from pbem.engine.elements import new_board
    from pbem.engine.geometry import Square
    from pbem.engine.ruleset import BOTWARS, GEEKO
    from pbem.engine.state import Robot
    from pbem.engine.turn import resolve_apart, resolve_turn
    from pbem.formats.rooms import check_room_data

    room = check_room_data({"name": "Lab", "size": "3x3", "elements": []}, "t")[0]
    board = new_board(room, [Robot("A", owner="ann", at=Square(1, 1)), Robot("B", owner="bob", at=Square(2, 2))])
    with pytest.raises(ValueError, match="G2"):
        resolve_turn(board, {}, GEEKO, seed=1, turn=1)
    assert list(resolve_apart(board, {}, GEEKO, seed=1, turn=1)) == ["ann", "bob"]
    assert list(resolve_apart(board, {}, BOTWARS, seed=1, turn=1)) == [""]  # BotWars players share the board



JUNK = st.recursive(st.none() | st.booleans() | st.integers(-3, 12) | st.text(max_size=6),
                    lambda inner: st.lists(inner, max_size=3) | st.dictionaries(st.text(max_size=5), inner, max_size=3),
                    max_leaves=8)


@settings(max_examples=60, deadline=None)
@given(owner=JUNK, options=JUNK, elements_of=JUNK, by_owner=JUNK)
def test_hostile_owners_options_and_elements_of_are_refused_by_line(owner, options, elements_of, by_owner):
    """Whatever `owner`, `options` and `expect.elements_of` hold, the reader gives a scenario or problems naming
    the file and a line, never a crash."""
    from pbem.formats.scenario import load_scenario
    from pbem.formats.yamlfile import FormatError, load_yaml

    data = yaml.safe_load(APART)
    data["robots"][0]["owner"] = owner
    data["robots"][1]["options"] = options
    data["expect"]["elements_of"] = elements_of if not isinstance(elements_of, dict) else {"ann": by_owner,
                                                                                          **elements_of}
    text = yaml.safe_dump(data)
    try:
        scenario = load_scenario(load_yaml(text, "f.yaml"), "f.yaml", Path("."))
    except FormatError as err:
        assert err.problems and all(p.source == "f.yaml" and p.line for p in err.problems)
        return
    assert isinstance(owner, str) and owner and scenario.board.robots["Red"].owner == owner
    assert scenario.board.robots["Blue"].options == options  # in the order gained (B11)
