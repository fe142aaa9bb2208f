"""The robot pilot (issue #16): probe-based distances, and legal programs that make progress (B4.4-B4.6, G3)."""
from pbem.engine import BOTWARS, GEEKO, new_board, resolve_turn
from pbem.engine.cards import Card
from pbem.engine.distance import distances, square_goals, steps
from pbem.engine.geometry import Dir, Square
from pbem.engine.planner import plan
from pbem.engine.state import Robot
from pbem.formats.rooms import load_room


def room(size, elements, starts=("r5c1", "r5c5")):
    return load_room({"name": "Test", "size": size, "starts": list(starts), "elements": elements}, "test")


def cards(*texts):
    return [Card.parse(t) for t in texts]


def sq(text):
    return Square.parse(text)


def solo(the_room, at, facing=Dir.N, hp=10, name="A"):
    return new_board(the_room, [Robot(name, "p", sq(at), facing, hp)])


def test_steps_come_from_the_engine_walls_pits_and_teleporters():
    r = room("3x3", [{"type": "wall", "at": "r2c2", "side": "N"}, {"type": "pit", "at": "r3c3"},
                     {"type": "teleporter", "at": "r2c1", "colour": "amber"},
                     {"type": "teleporter", "at": "r1c3", "colour": "blue"}], starts=["r3c1", "r3c2"])
    step = steps(r, new_board(r).elements, GEEKO)
    assert step[(sq("r2c2"), Dir.N)] == sq("r2c2")      # B6.1 the wall: the step does not happen
    assert step[(sq("r3c2"), Dir.E)] is None            # B6.4 the pit destroys
    assert step[(sq("r3c1"), Dir.N)] == sq("r1c3")      # B6.9 into amber, out at blue
    assert step[(sq("r1c1"), Dir.N)] == sq("r1c1")      # B6.2 the perimeter fence


def test_distance_counts_cards_around_a_pit():
    # gate r1c1, pit r2c1 straight ahead of r3c1: RT90, FWD1 (r3c2), LF90, FWD2 (r1c2), LF90, FWD1 = 6 cards;
    # from r1c3 facing W, one FWD2 reaches the gate.
    r = room("3x3", [{"type": "gate", "at": "r1c1", "open": True}, {"type": "pit", "at": "r2c1"}],
             starts=["r3c1", "r3c2"])
    field = distances(r, new_board(r).elements, GEEKO, square_goals([sq("r1c1")]), [sq("r1c1")])
    assert field[(sq("r1c3"), Dir.W)] == 1
    assert field[(sq("r3c1"), Dir.N)] == 6


def legal_and_played(board, hand, ruleset=GEEKO, player=("A",), receiving=("A",), **kw):
    key = "p" if ruleset.shared_hand else None
    hands = {"p": hand} if key else {name: hand for name in receiving}
    chosen = plan(board, list(player), list(receiving), hands, ruleset, seed=1, turn=1, shared_hand=key, **kw)
    assert chosen.checked.ok, chosen.checked.problems
    result = resolve_turn(board, chosen.programs, ruleset, seed=1, turn=1, end_of_turn=())
    return chosen, result.board


def test_geeko_robot_walks_round_the_pit_and_out_of_the_gate():
    r = room("3x3", [{"type": "gate", "at": "r1c1", "open": True}, {"type": "pit", "at": "r2c1"}],
             starts=["r3c1", "r3c2"])
    hand = cards("FWD1#500", "FWD1#510", "FWD2#700", "RT90#80", "LF90#70", "LF90#90", "UTRN#10")
    chosen, after = legal_and_played(solo(r, "r3c1"), hand)
    assert after.robots["A"].left_room  # G3: out through the gate this turn
    assert all(card in hand for card in chosen.programs["A"])


def test_geeko_robot_presses_the_switch_that_opens_the_gate():
    # The gate r1c3 is shut until the pressure switch r3c1 is pressed (B6.7); the robot starts on r3c3 facing N:
    # LF90, FWD2 (presses r3c1), UTRN, FWD2, LF90, FWD2 leaves.
    r = room("3x3", [{"type": "gate", "at": "r1c3", "control": "p1", "open": False},
                     {"type": "switch", "at": "r3c1", "id": "p1", "kind": "pressure"}], starts=["r3c3", "r3c2"])
    hand = cards("FWD2#700", "FWD2#710", "LF90#70", "LF90#90", "RT90#80", "FWD1#500", "UTRN#10", "FWD2#720")
    chosen, after = legal_and_played(solo(r, "r3c3"), hand)
    assert after.elements["p1"] == "on"
    assert after.robots["A"].left_room


def test_geeko_two_robots_get_programs_of_equal_length_from_one_shared_hand():
    r = room("5x5", [{"type": "gate", "at": "r1c3", "open": True}])
    board = new_board(r, [Robot("A", "p", sq("r5c1")), Robot("B", "p", sq("r5c5"))])
    hand = cards("FWD3#800", "FWD3#810", "FWD1#500", "FWD1#510", "RT90#80", "RT90#100", "LF90#70", "LF90#90",
                 "FWD2#700")
    chosen, after = legal_and_played(board, hand, player=("A", "B"), receiving=("A", "B"))
    assert len(chosen.programs["A"]) == len(chosen.programs["B"])  # B4.5
    assert not set(chosen.programs["A"]) & set(chosen.programs["B"])  # B4.4 each card once


def test_botwars_robot_fills_every_free_register_and_touches_the_flag():
    r = room("5x5", [{"type": "flag", "at": "r1c1", "number": 1}], starts=["r5c1", "r5c5"])
    hand = cards("UTRN#10", "LF90#70", "RT90#80", "RVS1#430", "FWD1#500", "FWD1#510", "FWD2#700", "FWD3#800",
                 "FWD1#520")
    chosen, after = legal_and_played(solo(r, "r5c1"), hand, ruleset=BOTWARS)
    assert len(chosen.programs["A"]) == 5  # B4.5: all five free registers
    assert after.robots["A"].next_flag == 2  # FWD3 + FWD1 reach r1c1


def test_damaged_botwars_robot_fills_only_its_free_registers_even_out_of_budget():
    r = room("5x5", [{"type": "flag", "at": "r1c1", "number": 1}], starts=["r5c1", "r5c5"])
    hand = cards("UTRN#10", "LF90#70", "RT90#80", "FWD1#500")
    board = solo(r, "r5c1", hp=4)  # damage 6: register 5 and 4 fused (B7.1 from damage 5)
    board.robots["A"].registers = {4: Card(520, "FWD1"), 5: Card(530, "FWD1")}
    chosen, _ = legal_and_played(board, hand, ruleset=BOTWARS, budget=1)
    assert len(chosen.programs["A"]) == 3


def test_the_plan_is_deterministic():
    r = room("5x5", [{"type": "gate", "at": "r1c3", "open": True}, {"type": "pit", "at": "r3c3"}])
    board = new_board(r, [Robot("A", "p", sq("r5c1")), Robot("B", "p", sq("r5c5"))])
    hand = cards("FWD3#800", "FWD1#500", "FWD1#510", "RT90#80", "LF90#70", "FWD2#700", "UTRN#20", "RVS1#440")
    first = plan(board, ["A", "B"], ["A", "B"], {"p": hand}, GEEKO, seed=3, turn=2, shared_hand="p")
    again = plan(board, ["A", "B"], ["A", "B"], {"p": hand}, GEEKO, seed=3, turn=2, shared_hand="p")
    assert (first.programs, first.reboot) == (again.programs, again.reboot)


def test_a_badly_damaged_robot_declares_a_reboot():
    r = room("5x5", [{"type": "gate", "at": "r1c3", "open": True}])
    board = solo(r, "r5c1", hp=3)  # geeko: damage 7 fuses registers 3..9, two free (B7.1)
    chosen, _ = legal_and_played(board, cards("FWD1#500", "FWD2#700", "RT90#80"))
    assert chosen.reboot == ["A"]  # B10


def test_a_caller_may_cut_the_search_short_and_still_gets_a_legal_program():
    r = room("5x5", [{"type": "flag", "at": "r1c1", "number": 1}], starts=["r5c1", "r5c5"])
    hand = cards("UTRN#10", "LF90#70", "RT90#80", "RVS1#430", "FWD1#500", "FWD1#510", "FWD2#700", "FWD3#800",
                 "FWD1#520")
    chosen, _ = legal_and_played(solo(r, "r5c1"), hand, ruleset=BOTWARS, stop=lambda: True)
    assert len(chosen.programs["A"]) == 5 and chosen.simulated == 1  # B4.5 still holds
