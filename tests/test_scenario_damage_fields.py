"""#34: a scenario robot whose `hp`, `mode` and `registers` contradict RULES B7.1 (damage fuses the top registers
first: `geeko` register 9 at 1 damage, `botwars` register 5 at 5 damage) or B10 (`mode: rebooting` is the
rebooting turn: full HP, no fused register) is refused, the problem naming the file, line and field."""
from __future__ import annotations

from pathlib import Path

import pytest

from pbem.formats.scenario import load_scenario
from pbem.formats.yamlfile import FormatError, load_yaml


def scenario(ruleset: str, robot: str) -> str:
    return (f"rules: [B7.1]\ntitle: t\nruleset: {ruleset}\nseed: 1\nroom: {{size: 5x5, elements: []}}\n"
            f"robots:\n  - {robot}\nprograms: {{}}\nexpect: {{robots: {{}}}}\n")


def problems(text: str) -> list[str]:
    try:
        load_scenario(load_yaml(text, "s.yaml"), "s.yaml", Path("."))
    except FormatError as err:
        return [str(problem) for problem in err.problems]
    return []


@pytest.mark.parametrize("ruleset, robot, field, words", [
    # geeko, hp 10 (no damage): nothing is fused, so register 9 cannot hold a fused card
    ("geeko", '{name: Red, at: r1c1, registers: {9: "FWD1#600"}}', "registers",
     "register 9 is not fused at hp 10 (0 damage): none is (B7.1: geeko fuses register 9 first, at 1 damage)"),
    # geeko, hp 8: registers 8 and 9 are fused, 7 is not
    ("geeko", '{name: Red, at: r1c1, hp: 8, registers: {7: "FWD1#600", 9: null}}', "registers",
     "register 7 is not fused at hp 8 (2 damage): registers 8-9 are"),
    # botwars fuses from 5 damage: at hp 6 (4 damage) register 5 is still free
    ("botwars", '{name: Red, at: r1c1, hp: 6, registers: {5: "FWD1#600"}}', "registers",
     "register 5 is not fused at hp 6 (4 damage): none is (B7.1: botwars fuses register 5 first, at 5 damage)"),
    ("botwars", '{name: Red, at: r1c1, hp: 5, registers: {6: "FWD1#600"}}', "registers",
     "no register 6: botwars has registers 1-5"),
    ("geeko", "{name: Red, at: r1c1, hp: 7, mode: rebooting}", "hp", "a rebooting robot has full HP (10)"),
    ("geeko", "{name: Red, at: r1c1, hp: 12}", "hp", "must be 0 to 10"),
])
def test_a_robot_contradicting_b7_1_or_b10_is_refused_naming_the_field(ruleset, robot, field, words):
    found = problems(scenario(ruleset, robot))
    assert len(found) == 1 and found[0].startswith(f"s.yaml:7: robots[0].{field}: ") and words in found[0], found


@pytest.mark.parametrize("ruleset, robot", [
    ("geeko", '{name: Red, at: r1c1, hp: 8, registers: {8: "FWD1#600", 9: null}}'),
    ("geeko", "{name: Red, at: r1c1, hp: 8, registers: {9: null}}"),  # register 8 fused and empty (B7.2 fills it)
    ("botwars", '{name: Red, at: r1c1, hp: 5, registers: {5: "FWD2#700"}}'),
    ("geeko", "{name: Red, at: r1c1, mode: rebooting}"),
])
def test_a_robot_agreeing_with_b7_1_is_read(ruleset, robot):
    assert problems(scenario(ruleset, robot)) == []
