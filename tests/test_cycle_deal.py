"""Dealing: RULES B4.1–B4.3 (Geek-o pre-set deck, one shared hand, skipping, wrapping), B4.2, B7.2."""
from __future__ import annotations

from pbem.engine.cards import Card
from pbem.engine.deal import Deck, deal_preset, deal_shuffled, fused_registers
from pbem.engine.rng import derive_rng
from pbem.engine.ruleset import get_ruleset
from pbem.engine.state import Robot

GEEKO = get_ruleset("geeko", {"registers_max": 2})  # small hands, so the deals can be worked out by hand
CARDS = tuple(Card.parse(c) for c in ("FWD1#500", "SLF1#495", "RT90#80", "FWD2#700", "IDLE#5", "UTRN#10", "LF90#90"))
PRESET = Deck("test", "preset", CARDS)


def names(cards) -> list[str]:
    return [str(c) for c in cards]


def pair(**zapper) -> list[Robot]:
    return [Robot("Zapper", "alice", **zapper), Robot("Spanner", "alice")]


def test_b4_3_one_shared_hand_skipping_cards_no_robot_can_use():
    dealt = deal_preset(PRESET, 0, pair(), ["Zapper", "Spanner"], GEEKO, player="alice")
    # 2 + 2 cards; SLF1 and IDLE need upgrades (G7), so they are set aside.
    assert names(dealt.hands["alice"]) == ["FWD1#500", "RT90#80", "FWD2#700", "UTRN#10"]
    assert dealt.cursor == 6


def test_b4_3_a_card_one_robot_can_use_is_dealt():
    robots = pair(upgrades=["strafe@Intake Hall", "strafe@Moat"])
    dealt = deal_preset(PRESET, 0, robots, ["Zapper", "Spanner"], GEEKO, player="alice")
    assert names(dealt.hands["alice"]) == ["FWD1#500", "SLF1#495", "RT90#80", "FWD2#700"]


def test_b4_1_b4_3_wrapping_skips_cards_in_fused_registers_and_hand_size_counts_damage():
    robots = pair(hp=9, registers={9: CARDS[0]})  # 1 damage: register 9 fused holding FWD1#500; hand 2 - 1
    dealt = deal_preset(PRESET, 6, robots, ["Zapper", "Spanner"], GEEKO, player="alice")
    assert names(dealt.hands["alice"]) == ["LF90#90", "RT90#80", "FWD2#700"]
    assert dealt.cursor == 4


def test_b4_1_robots_that_get_no_cards_add_nothing_to_the_hand():
    dealt = deal_preset(PRESET, 0, pair(mode="in-transit"), ["Spanner"], GEEKO, player="alice")
    assert names(dealt.hands["alice"]) == ["FWD1#500", "RT90#80"]


def test_b7_2_a_fused_empty_register_takes_the_first_usable_card_from_the_cursor_before_the_hand():
    robots = pair(hp=9, registers={9: None})
    dealt = deal_preset(PRESET, 0, robots, ["Zapper", "Spanner"], GEEKO, player="alice")
    assert dealt.fills == {"Zapper": {9: CARDS[0]}}
    assert names(dealt.hands["alice"]) == ["RT90#80", "FWD2#700", "UTRN#10"]


def test_b7_1_geeko_fuses_from_the_first_point_of_damage_and_botwars_from_the_fifth():
    assert fused_registers(Robot("a", hp=7), get_ruleset("geeko")) == [7, 8, 9]
    assert fused_registers(Robot("a", hp=6), get_ruleset("botwars")) == []
    assert fused_registers(Robot("a", hp=4), get_ruleset("botwars")) == [4, 5]


def test_b4_2_botwars_one_seeded_shuffle_dealt_to_robots_in_name_order():
    rules = get_ruleset("botwars")
    deck = Deck("std", "shuffled", tuple(Card.parse(f"FWD1#{n}") for n in range(490, 670, 10)))  # 18 cards
    robots = [Robot("Zed", hp=10), Robot("Amy", hp=10, registers={5: None})]
    robots[1].hp = 4  # 6 damage: registers 4 and 5 fused, 4 empty; hand 9 - 6 = 3
    robots[1].registers = {4: None, 5: deck.cards[0]}
    rng = derive_rng(7, 2, 0, "deal")
    dealt = deal_shuffled(deck, robots, ["Zed", "Amy"], rules, rng)
    pool = [c for c in deck.cards if c != deck.cards[0]]
    derive_rng(7, 2, 0, "deal").shuffle(pool)
    assert dealt.fills == {"Amy": {4: pool[0]}}
    assert dealt.hands == {"Amy": pool[1:4], "Zed": pool[4:13]}
    again = deal_shuffled(deck, robots, ["Zed", "Amy"], rules, derive_rng(7, 2, 0, "deal"))
    assert again.hands == dealt.hands
