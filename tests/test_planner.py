"""The robot pilot (issue #16): probe-based distances, and legal programs that make progress (B4.4-B4.6, G3)."""
from pathlib import Path

import pytest

from pbem.engine import BOTWARS, GEEKO, new_board, resolve_turn
from pbem.engine.cards import Card
from pbem.engine.distance import distances, square_goals
from pbem.engine.geometry import Dir, Square
from pbem.engine.phases import PHASES
from pbem.engine.planner import plan
from pbem.engine.probes import steps
from pbem.engine.roomcache import forget
from pbem.engine.stage import play_stage
from pbem.engine.state import Board, Robot
from pbem.engine.turn import last_stage, register_sequences
from pbem.engine.vocabulary import Mode, PhaseName
from pbem.formats.rooms import load_room, read_room

ROOMS = Path(__file__).resolve().parent.parent / "rooms"
FLIPPED = {"on": "off", "off": "on", "open": "closed", "closed": "open", "raised": "lowered", "lowered": "raised",
           "active": "inactive", "inactive": "active"}


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


@pytest.mark.parametrize("path", [ROOMS / "botwars" / "foundry.yaml", ROOMS / "geeko" / "3-moat.yaml",
                                  ROOMS / "geeko" / "5-works.yaml", ROOMS / "entry-fee" / "lock-and-key.yaml"])
def test_steps_skip_no_probe_that_matters(path):
    """Steps on open floor are taken without a probe, and probes reused when the states they read are the
    same: the table equals a turn of one FWD1 (robots move, no other phase) from every square and facing, with
    the room's states as they start and then every state flipped."""
    moving = [phase for phase in PHASES if phase.name == PhaseName.ROBOTS_MOVE]
    the_room = read_room(path)
    start = new_board(the_room).elements
    forget()
    for elements in (start, {key: FLIPPED.get(word, word) for key, word in start.items()}):
        table = steps(the_room, elements, GEEKO)
        for (square, facing), there in table.items():
            board = Board(the_room, {"p": Robot("p", "p", square, facing, GEEKO.max_hp)}, dict(elements))
            robot = resolve_turn(board, {"p": [Card(490, "FWD1")]}, GEEKO, seed=0, turn=1, phases=moving,
                                 end_of_turn=()).board.robots["p"]
            assert there == (None if robot.mode == Mode.DESTROYED else robot.at), (square, facing)


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


def test_stages_played_one_by_one_give_the_whole_turn():
    """The pilot simulates stage by stage (`play_stage`); chained, the stages are `resolve_turn` without its
    end of turn: belts, gears, lasers and pushers on Foundry, a fused register run past a short program."""
    foundry = read_room(ROOMS / "botwars" / "foundry.yaml")
    hurt = Robot("C", "q", sq("r6c5"), Dir.E, 6, registers={5: Card(560, "FWD1")})
    board = new_board(foundry, [Robot("A", "p", sq("r12c2")), Robot("B", "p", sq("r4c11"), Dir.W), hurt])
    programs = {"A": cards("FWD3#800", "RT90#80", "FWD2#700", "LF90#70", "FWD1#500"),
                "B": cards("FWD1#510", "FWD1#520", "UTRN#20", "FWD2#710", "RVS1#440"),
                "C": cards("FWD1#530", "LF90#90", "FWD2#720", "RT90#100")}
    whole = resolve_turn(board, programs, BOTWARS, seed=5, turn=3, end_of_turn=()).board
    sequences = register_sequences(board, programs, BOTWARS)
    for stage in range(1, last_stage(sequences) + 1):
        board = play_stage(board, sequences, BOTWARS, seed=5, turn=3, stage=stage)
    assert board.elements == whole.elements
    assert {n: (r.at, r.facing, r.hp, r.mode) for n, r in board.robots.items()} == \
           {n: (r.at, r.facing, r.hp, r.mode) for n, r in whole.robots.items()}
