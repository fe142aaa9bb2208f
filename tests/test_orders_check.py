"""Program checks against the dealt hand: RULES B4.4–B4.7, B10 reboot declarations, B11 option HP, G7."""
from __future__ import annotations

from pbem.engine.cards import Card
from pbem.engine.orders import Submission, check_programs
from pbem.engine.ruleset import get_ruleset
from pbem.engine.state import Robot

GEEKO, BOTWARS = get_ruleset("geeko"), get_ruleset("botwars")
HAND = [Card.parse(c) for c in ("FWD1#500", "FWD2#700", "FWD1#540", "RT90#80", "LF90#90", "UTRN#10",
                                "FWD3#800", "RVS1#430", "SLF1#495")]


def geeko(programs, robots=None, receiving=("Zapper", "Spanner"), **kw):
    robots = robots or [Robot("Zapper", "alice"), Robot("Spanner", "alice")]
    return check_programs(Submission(programs, **kw), robots, list(receiving), {"alice": HAND}, GEEKO,
                          shared_hand="alice")


def messages(checked):
    return [(p.path, p.message) for p in checked.problems]


def test_b4_4_a_card_by_number_kind_or_both_and_a_bare_kind_takes_the_first_unused_in_hand_order():
    checked = geeko({"Zapper": ["FWD1", 500, "FWD2#700"], "Spanner": ["FWD3", "RT90", "LF90#90"]})
    assert checked.ok, messages(checked)
    # 500 is named explicitly, so the bare FWD1s take the next ones in hand order: 540, then none left.
    assert [str(c) for c in checked.programs["Zapper"]] == ["FWD1#540", "FWD1#500", "FWD2#700"]
    assert messages(geeko({"Zapper": ["FWD1", "FWD1", "FWD1"], "Spanner": ["RT90", "LF90", "UTRN"]})) == [
        (("robots", "Zapper", "program", 2), "no FWD1 left in your hand (2 dealt)")]


def test_b4_4_every_card_problem_is_reported_with_its_register():
    checked = geeko({"Zapper": [999, "FWD1#700", "RT90#80", "JUMP"], "Spanner": ["RT90#80", "UTRN", "LF90", "X"]})
    assert messages(checked) == [
        (("robots", "Zapper", "program", 0), "card 999 is not in your hand"),
        (("robots", "Zapper", "program", 1), "card 700 is FWD2#700, not FWD1"),
        (("robots", "Zapper", "program", 3), "unknown card kind JUMP (one of FWD1, FWD2, FWD3, RVS1, RVS2, RVS3, "
                                             "LF90, RT90, UTRN, SLF1, SRT1, IDLE)"),
        (("robots", "Spanner", "program", 0), "RT90#80 is already used at Zapper's register 3"),
        (("robots", "Spanner", "program", 3), "not a card: 'X' (write KIND, NUMBER or KIND#NUMBER)"),
    ]
    assert checked.programs == {}


def test_b4_5_geeko_programs_of_equal_length_unless_one_robot_gets_no_cards():
    assert messages(geeko({"Zapper": ["FWD1", "RT90"], "Spanner": ["UTRN"]})) == [
        (("robots", "Spanner", "program"), "1 cards but Zapper has 2: both programs must have the same length (B4.5)")]
    in_transit = [Robot("Zapper", "alice"), Robot("Spanner", "alice", mode="in-transit")]
    assert geeko({"Zapper": ["FWD1", "RT90"]}, in_transit, receiving=["Zapper"]).ok
    assert messages(geeko({"Zapper": ["FWD1"], "Spanner": ["UTRN"]}, in_transit, receiving=["Zapper"])) == [
        (("robots", "Spanner", "program"), "Spanner gets no cards this turn. Leave its program empty")]


def test_b4_5_a_program_is_no_longer_than_the_free_registers():
    hurt = [Robot("Zapper", "alice", hp=2), Robot("Spanner", "alice")]  # 8 damage: registers 2–9 fused (B7.1)
    assert messages(geeko({"Zapper": ["FWD1", "RT90"], "Spanner": ["UTRN", "LF90"]}, hurt)) == [
        (("robots", "Zapper", "program"), "2 cards but Zapper has 1 free registers (B4.5)")]


def test_b4_5_botwars_fills_exactly_the_free_registers():
    robot = Robot("Red", "ann", hp=4)  # 6 damage, fusing from 5: registers 4 and 5 fused, 3 free
    hand = {"Red": HAND[:7]}
    ok = check_programs(Submission({"Red": ["FWD1", "FWD2", "RT90"]}), [robot], ["Red"], hand, BOTWARS)
    short = check_programs(Submission({"Red": ["FWD1", "FWD2"]}), [robot], ["Red"], hand, BOTWARS)
    assert ok.ok
    assert messages(short) == [(("robots", "Red", "program"), "Red must fill all 3 free registers, got 2 cards (B4.5)")]


def test_g7_upgrade_cards_need_the_set_from_computers_in_two_rooms():
    one_room = [Robot("Zapper", "alice", upgrades=["strafe@Intake Hall"]), Robot("Spanner", "alice")]
    two_rooms = [Robot("Zapper", "alice", upgrades=["strafe@Intake Hall", "strafe@Moat"]), Robot("Spanner", "alice")]
    assert messages(geeko({"Zapper": ["SLF1"], "Spanner": ["UTRN"]}, one_room)) == [
        (("robots", "Zapper", "program", 0),
         "Zapper cannot use SLF1#495 yet: it needs the strafe upgrade from computers in 2 rooms (G7)")]
    assert geeko({"Zapper": ["SLF1"], "Spanner": ["UTRN"]}, two_rooms).ok


def test_b10_b11_reboot_names_own_robots_once_and_geeko_refuses_option_hp():
    checked = geeko({"Zapper": [], "Spanner": []}, reboot=["Spanner", "Bolt", "Spanner"], option_hp=6)
    assert messages(checked) == [
        (("reboot", 1), "not one of your robots: 'Bolt'"),
        (("reboot", 2), "Spanner is listed twice"),
        (("option_hp",), "options cannot be given up to cancel damage in this ruleset (B11)")]
    assert geeko({"Zapper": [], "Spanner": []}, reboot=["Spanner"]).reboot == ["Spanner"]


def test_another_player_s_robot_is_refused():
    assert messages(geeko({"Zapper": ["FWD1"], "Spanner": ["UTRN"], "Bob-1": ["RT90"]})) == [
        (("robots", "Bob-1"), "not one of your robots (Zapper, Spanner)")]
