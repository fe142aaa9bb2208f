"""The engine's vocabularies are checked where words enter: a misspelt phase, hook, ruleset word or robot mode
is refused with the word named (and the allowed ones), never accepted to mean nothing."""
from __future__ import annotations

import textwrap
from typing import ClassVar

import pytest

from pbem.engine.mechanism import MECHANISMS, Mechanism, register
from pbem.engine.ruleset import BOTWARS, GEEKO, get_ruleset
from pbem.engine.state import Robot
from pbem.engine.vocabulary import DeckOrder, MissingOrders, Mode
from pbem.formats.canonical import to_data
from pbem.formats.scenario import check_scenario


def test_register_refuses_an_unknown_phase_naming_it_and_the_phases():
    class Sprocket(Mechanism):
        type: ClassVar[str] = "sprocket"
        phases: ClassVar[tuple[str, ...]] = ("gear",)

    with pytest.raises(ValueError, match=r"unknown phase 'gear' \(phases: robots move, .*gears") as err:
        register(Sprocket)
    assert "Sprocket (sprocket)" in str(err.value) and "sprocket" not in MECHANISMS


@pytest.mark.parametrize("hook", ["on_entr", "blocks_beams", "hold", "on_pressed", "act_"])
def test_register_refuses_a_misspelt_hook_naming_it(hook):
    cls = type("Bumper", (Mechanism,), {"type": "bumper", hook: lambda self, *args: None})
    with pytest.raises(ValueError, match=f"unknown hook '{hook}' \\(hooks: act, beams, blocks_beam"):
        register(cls)
    assert "bumper" not in MECHANISMS


def test_register_takes_known_phases_hooks_and_own_helpers():
    class Turnstile(Mechanism):
        type: ClassVar[str] = "turnstile"
        phases: ClassVar[tuple[str, ...]] = ("gears", "end of stage", "wrench repairs")

        def on_enter(self, ctx, element, robot, frm, direction, how):
            return self.spins(element)

        def spins(self, element):
            return False

    try:
        register(Turnstile)
        assert isinstance(MECHANISMS["turnstile"], Turnstile)
    finally:
        MECHANISMS.pop("turnstile", None)


@pytest.mark.parametrize("option, value, allowed", [
    ("deck_order", "presett", "shuffled, preset"),
    ("missing_orders", "banana", "fill, idle, bot"),
    ("missing_orders", 1, "fill, idle, bot"),
])
def test_a_ruleset_word_outside_its_vocabulary_is_refused_listing_the_words(option, value, allowed):
    with pytest.raises(ValueError, match=f"ruleset option '{option}' must be one of {allowed}, not {value!r}"):
        get_ruleset("botwars", {option: value})


def test_ruleset_words_become_the_enums():
    assert get_ruleset("botwars", {"deck_order": "preset"}).deck_order is DeckOrder.PRESET
    assert get_ruleset("geeko", {"missing_orders": "fill"}).missing_orders is MissingOrders.FILL
    assert (BOTWARS.deck_order, GEEKO.deck_order) == (DeckOrder.SHUFFLED, DeckOrder.PRESET)  # B4.2, B4.3
    assert (BOTWARS.missing_orders, GEEKO.missing_orders) == (MissingOrders.FILL, MissingOrders.IDLE)  # B4.6


def test_robot_modes_are_the_five_of_b2_2_and_nothing_else():
    assert [m.value for m in Mode] == ["real", "virtual", "destroyed", "rebooting", "in-transit"]
    assert Robot("R", mode="virtual").mode is Mode.VIRTUAL
    assert to_data(Robot("R", mode="in-transit"))["mode"] == "in-transit"  # the stored word stays plain
    with pytest.raises(ValueError, match="mode must be one of real, virtual, destroyed, rebooting, in-transit, "
                                         "not 'zombie'"):
        Robot("R", mode="zombie")


def test_a_scenario_with_a_misspelt_word_is_refused_on_its_line(tmp_path):
    path = tmp_path / "bad.yaml"
    path.write_text(textwrap.dedent("""\
        rules: [B4.3]
        title: misspelt
        ruleset: geeko
        ruleset_options:
          deck_order: presett
        room: {name: Lab, size: 5x5, elements: []}
        robots:
          - {name: Red, at: r3c3, mode: zombie}
        expect: {robots: {Red: {at: r3c3}}}
        """), encoding="utf-8")
    problems = "\n".join(check_scenario(path))
    assert "bad.yaml:5: ruleset_options.deck_order" in problems and "must be one of shuffled, preset, not 'presett'" in problems
    assert "bad.yaml:8: robots[0].mode" in problems and "not 'zombie'" in problems
