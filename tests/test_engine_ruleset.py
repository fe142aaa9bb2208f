"""Rulesets (RULES B1): presets and overrides by name."""

from dataclasses import fields

import pytest

from pbem.engine.ruleset import BOTWARS, GEEKO, Ruleset, get_ruleset


def test_presets_differ_where_rules_say():
    assert (BOTWARS.registers, GEEKO.registers) == (5, 9)
    assert (BOTWARS.fuse_from_damage, GEEKO.fuse_from_damage) == (5, 1)  # B7.1
    assert BOTWARS.virtual and not GEEKO.virtual  # B1, B9
    assert BOTWARS.robot_lasers and not GEEKO.robot_lasers
    assert (BOTWARS.reinstate_damage, GEEKO.reinstate_damage) == (2, 0)  # B8.2
    assert BOTWARS.options_absorb_damage and not GEEKO.options_absorb_damage  # B11
    assert BOTWARS.buzzsaw_threshold == 0.75 and BOTWARS.fence_damage == 2 and BOTWARS.laser_damage == 1


def test_overrides_by_name_and_refusals():
    rules = get_ruleset("geeko", {"fence_damage": 3, "buzzsaw_threshold": 1})
    assert rules.fence_damage == 3 and rules.registers == 9
    with pytest.raises(ValueError, match="unknown ruleset option"):
        get_ruleset("geeko", {"fence_dmg": 3})
    with pytest.raises(ValueError, match="must be like"):
        get_ruleset("botwars", {"virtual": "yes"})
    with pytest.raises(ValueError, match="unknown ruleset"):
        get_ruleset("chess")


@pytest.mark.parametrize("option, value", [
    ("registers_max", -5), ("registers_max", 0), ("max_hp", 0), ("buzzsaw_threshold", 2),
    ("buzzsaw_threshold", -0.1), ("laser_damage", -1), ("fence_damage", -2), ("registers", 10),
    ("registers", 0), ("lives", 0), ("fuse_from_damage", 0), ("robots_per_player", 0), ("wrench_repair", -1),
])
def test_a_numeric_option_outside_its_range_is_refused_by_name(option, value):
    with pytest.raises(ValueError, match=f"'{option}' must be .*not {value}"):
        get_ruleset("botwars", {option: value})


@pytest.mark.parametrize("option, value", [
    ("registers", 9), ("registers", 1), ("max_hp", 1), ("buzzsaw_threshold", 0), ("buzzsaw_threshold", 1),
    ("laser_damage", 0), ("lives", None), ("reinstate_damage", 0), ("fuse_from_damage", 1),
])
def test_a_numeric_option_at_the_edge_of_its_range_is_taken(option, value):
    assert getattr(get_ruleset("botwars", {option: value}), option) == value


def test_every_numeric_field_carries_its_range_and_the_presets_lie_within():
    numeric = [f for f in fields(Ruleset) if not isinstance(f.default, (bool, str))]
    assert numeric and all("range" in f.metadata for f in numeric), [f.name for f in numeric if "range" not in f.metadata]
    for preset in (BOTWARS, GEEKO):
        assert get_ruleset(preset.name, {f.name: getattr(preset, f.name) for f in numeric}) == preset
