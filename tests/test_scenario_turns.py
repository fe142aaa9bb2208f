"""#34: multi-turn rule scenarios (`turns:`): a bad file is refused with every problem, each naming the file,
the line and the field; the one-turn reader and `pbem scenario run` say what takes such a file; `pbem scenario
check` plays it. The files themselves are in tests/scenarios/turns/ (run by tests/test_scenarios.py)."""
from __future__ import annotations

from pathlib import Path

import pytest
from typer.testing import CliRunner

from pbem.cli import app
from pbem.formats.scenario import check_scenario, load_scenario
from pbem.formats.scenario_turns import load_turns_scenario
from pbem.formats.yamlfile import FormatError, load_yaml

TURNS = Path(__file__).parent / "scenarios" / "turns"
GOOD = """\
rules: [G3]
title: t
ruleset: geeko
seed: 1
room: {size: 3x3, starts: [r3c1, r3c3], elements: []}
robots:
  - {name: Ant, owner: ann}
  - {name: Bee, owner: ann}
turns:
  - programs: {Ant: [FWD1#490]}
    expect:
      robots: {Ant: {at: r2c1}}
"""


def problems(text: str) -> list[str]:
    try:
        load_turns_scenario(load_yaml(text, "s.yaml"), "s.yaml", Path("."))
    except FormatError as err:
        return [str(problem) for problem in err.problems]
    return []


def test_a_good_file_reads_and_plays():
    assert problems(GOOD) == []
    path = Path("s.yaml")
    scenario = load_turns_scenario(load_yaml(GOOD, str(path)), str(path), Path("."))
    assert [list(turn.orders) for turn in scenario.turns] == [["ann"]]


@pytest.mark.parametrize("change, wanted", [
    (("    expect:", "    expekt:"), "s.yaml:11: turns[0].expekt: unknown key (known: programs, reboots, option_hp, "
                                   "expect, notes)"),
    (("{Ant: [FWD1#490]}", "{Ann: [FWD1#490]}"), "s.yaml:10: turns[0].programs.Ann: no robot of that name"),
    (("{Ant: [FWD1#490]}", "{Ant: [FWD9#490]}"), "s.yaml:10: turns[0].programs.Ant[0]: "),
    (("{name: Bee, owner: ann}", "{name: Bee}"), "s.yaml:8: robots[1].owner: missing: every robot of a multi-turn "
                                                "scenario names its owner (the player)"),
    (("{name: Bee, owner: ann}", "{name: Bee, owner: ann, hp: 9, registers: {8: FWD1#600}}"),
     "s.yaml:8: robots[1].registers: register 8 is not fused at hp 9 (1 damage): registers 9-9 are"),
    (("{name: Bee, owner: ann}", "{name: Bee, owner: ann, at: r4c1}"), "s.yaml:8: robots[1].at: r4c1 is off the"),
    (("      robots: {Ant: {at: r2c1}}", "      winners: [bob]"),
     "s.yaml:12: turns[0].expect.winners: no player 'bob' (players: ann)"),
    (("      robots: {Ant: {at: r2c1}}", "      room: {bob: 2}"),
     "s.yaml:12: turns[0].expect.room.bob: no player 'bob' (players: ann)"),
    (("      robots: {Ant: {at: r2c1}}", "      standings: {ann: {rank: 1}}"),
     "s.yaml:12: turns[0].expect.standings.ann.rank: not a standing field (known: place, turns, rooms_done, flags, "
     "lives, won)"),
    (("      robots: {Ant: {at: r2c1}}", "      filled: {Ant: {nine: FWD1#600}}"),
     "s.yaml:12: turns[0].expect.filled.Ant.nine: not a register number"),
    (("      robots: {Ant: {at: r2c1}}", "      filled: {Ant: {9: FWD9#601}}"),
     "s.yaml:12: turns[0].expect.filled.Ant.9: "),
    (("      robots: {Ant: {at: r2c1}}", "      score: {ann: 1}"),
     "s.yaml:12: turns[0].expect.score: unknown key (known: robots, elements, elements_of, room, standings, "
     "winners, filled)"),
    (("room: {size: 3x3, starts: [r3c1, r3c3], elements: []}", "rooms: [{size: 3x3, elements: []}]"),
     "s.yaml:5: rooms[0].starts: a room played over turns needs its start squares"),
])
def test_a_bad_file_is_refused_naming_file_line_and_field(change, wanted):
    text = GOOD.replace(*change)
    found = problems(text)
    assert any(problem.startswith(wanted) for problem in found), found


def test_nothing_expected_is_refused():
    text = GOOD.replace("    expect:\n      robots: {Ant: {at: r2c1}}\n", "")
    assert problems(text) == ["s.yaml:9: expect: nothing is expected: give an `expect` after a turn or at the end"]


def test_a_deck_that_is_not_a_deck_is_refused():
    text = GOOD.replace("robots:\n", "deck: {order: sorted, cards: [FWD1#490]}\nrobots:\n", 1)
    assert any(p.startswith("s.yaml:6: deck.order: ") for p in problems(text)), problems(text)
    text = GOOD.replace("robots:\n", "deck: decks/none.yaml\nrobots:\n", 1)
    assert any(p.startswith("s.yaml:6: deck: ") for p in problems(text)), problems(text)


def test_the_one_turn_reader_says_what_plays_a_multi_turn_file():
    with pytest.raises(FormatError) as refused:
        load_scenario(load_yaml(GOOD, "s.yaml"), "s.yaml", Path("."))
    assert str(refused.value.problems[0]).startswith("s.yaml:9: turns: a multi-turn scenario: `pbem scenario check`")


def test_a_wrong_expectation_names_the_turn_and_the_field(tmp_path):
    path = tmp_path / "s.yaml"
    path.write_text(GOOD.replace("{Ant: {at: r2c1}}", "{Ant: {at: r1c1}}"))
    assert check_scenario(path) == ["turns[0].robots.Ant.at: expected r1c1, got r2c1"]


def test_scenario_check_plays_the_multi_turn_files_and_run_refuses_them():
    files = sorted(TURNS.glob("*.yaml"))
    assert len(files) >= 3
    checked = CliRunner().invoke(app, ["scenario", "check", *map(str, files)])
    assert checked.exit_code == 0, checked.output
    assert checked.output.count("PASS") == len(files)
    ran = CliRunner().invoke(app, ["scenario", "run", str(files[0])])
    assert ran.exit_code == 1 and "turns: a multi-turn scenario" in ran.output
