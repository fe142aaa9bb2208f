"""#36: the replay benchmark's campaign builder (benchmarks/replay.py, also the site benchmark's) plays only cards
its robots may use: RULES G7, an upgrade card (IDLE, RVS2, RVS3, SLF1, SRT1) only once the robot holds its set's
upgrade from computer squares in two different rooms. Before, it dealt the shared hand's cards out in order and
played IDLE cards a robot could not use yet, and the turn cycle refused the orders (a campaign stopped there)."""
from __future__ import annotations

import sys
from pathlib import Path

from pbem.engine.cards import Card
from pbem.engine.ruleset import get_ruleset
from pbem.engine.state import Robot

sys.path.insert(0, str(Path(__file__).resolve().parent.parent / "benchmarks"))
from replay import legal_programs

GEEKO = get_ruleset("geeko")
HAND = [Card.parse(text) for text in ("IDLE#5", "FWD1#490", "IDLE#15", "LF90#70", "RVS2#80", "FWD2#700")]


def test_a_robot_without_a_set_gets_none_of_its_cards_and_the_other_robot_still_gets_a_full_program():
    plain, idler = Robot("Zapper", "alice"), Robot("Spanner", "alice", upgrades=["idle@Hall 1", "idle@Hall 2"])
    programs = legal_programs(HAND, [plain, idler], 2, GEEKO)
    assert programs == {"Zapper": [Card.parse("FWD1#490"), Card.parse("LF90#70")],
                        "Spanner": [Card.parse("IDLE#5"), Card.parse("IDLE#15")]}


def test_one_room_is_not_enough_for_a_set_g7():
    once = Robot("Zapper", "alice", upgrades=["idle@Hall 1", "idle@Hall 1"])  # the same room twice
    programs = legal_programs(HAND, [once], 4, GEEKO)
    assert programs == {"Zapper": [Card.parse("FWD1#490"), Card.parse("LF90#70"), Card.parse("FWD2#700")]}


def test_programs_shrink_to_what_the_hand_allows_each_robot():
    first, second = Robot("Bolt", "bob"), Robot("Nut", "bob")
    programs = legal_programs(HAND, [first, second], 3, GEEKO)  # three basic cards for two robots: one each
    assert programs == {"Bolt": [Card.parse("FWD1#490")], "Nut": [Card.parse("LF90#70")]}
    assert legal_programs(HAND[:1], [first], 2, GEEKO) == {"Bolt": []}
