"""Rulesets (RULES B1): presets and overrides by name."""
import pytest

from pbem.engine.ruleset import BOTWARS, GEEKO, get_ruleset


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
