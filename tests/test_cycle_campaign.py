"""The campaign above the board: G3 gates and room exits, G4 records, G5 reinstatement in transit, B4.6, BotWars."""
from __future__ import annotations

from pbem.engine.campaign import (
    GameSetup,
    PlayerSetup,
    RoomCompleted,
    RoomOpened,
    check_orders,
    missed_orders,
    new_game,
    play_turn,
    result,
    standings,
)
from pbem.engine.cards import Card
from pbem.engine.orders import Checked, Submission
from pbem.engine.vocabulary import Termination
from pbem.formats.decks import read_deck
from pbem.formats.rooms import load_room

GEEKO_DECK = read_deck("decks/geeko.yaml")


def hall(name="Hall"):
    """3x3: a single open gate at r1c1, a pit at r2c3; robots start at r3c1 and r3c3 facing north."""
    return load_room({"name": name, "size": "3x3", "starts": ["r3c1", "r3c3"],
                      "elements": [{"type": "gate", "at": "r1c1", "open": True},
                                   {"type": "pit", "at": "r2c3"}]}, name)


def geeko_game(rooms=None):
    rooms = rooms or tuple(hall(f"Hall {n}") for n in range(1, 6))
    return new_game(GameSetup("t", "geeko", "5", rooms, GEEKO_DECK, (PlayerSetup("alice", ("Zapper", "Spanner")),)))


def cards(*texts):
    return [Card.parse(t) for t in texts]


def orders(**programs):
    return {"alice": Checked(programs={name: cards(*p) for name, p in programs.items()})}


def test_g3_g4_one_gate_robots_leave_in_turn_and_the_next_room_opens_when_both_are_out():
    state = geeko_game()
    # Zapper drives into the gate (stage 2) and leaves; Spanner only turns: one robot out, room 1 stays.
    outcome = play_turn(state, orders(Zapper=["FWD1#500", "FWD1#510"], Spanner=["LF90#70", "RT90#80"]), "5")
    after = outcome.state
    assert after.boards["alice"].robots["Zapper"].left_room
    assert after.players["alice"].room == 1
    assert [(c.robot, c.room, c.turn) for c in after.completions] == [("Zapper", 1, 1)]
    # Turn 2: Spanner (r3c3, facing N) goes west twice and north twice into the free gate.
    assert after.receiving("alice") == ["Spanner"]
    outcome = play_turn(after, orders(Spanner=["LF90#90", "FWD2#700", "RT90#100", "FWD2#710"]), "5")
    after = outcome.state
    assert [(c.robot, c.room, c.turn) for c in after.completions] == [("Zapper", 1, 1), ("Spanner", 1, 2)]
    assert after.players["alice"].room == 2
    board = after.boards["alice"]
    assert board.room.name == "Hall 2"
    assert [(r.name, str(r.at), r.facing.name, r.left_room) for r in board.robots.values()] == [
        ("Zapper", "r3c1", "N", False), ("Spanner", "r3c3", "N", False)]
    assert [type(e).__name__ for _, e in outcome.events if isinstance(e, (RoomCompleted, RoomOpened))] == [
        "RoomCompleted", "RoomOpened"]
    assert after.receiving("alice") == ["Zapper", "Spanner"]
    assert len(after.hands["alice"]) == 18


def test_g5_destroyed_in_room_1_is_back_on_its_start_square_next_turn():
    state = geeko_game()
    after = play_turn(state, orders(Zapper=["LF90#70"], Spanner=["FWD1#500"]), "5").state  # Spanner: pit r2c3
    spanner = after.boards["alice"].robots["Spanner"]
    assert (spanner.mode, str(spanner.at), spanner.facing.name, spanner.hp) == ("real", "r3c3", "N", 10)
    assert after.receiving("alice") == ["Zapper", "Spanner"]


def test_g5_destroyed_in_room_3_spends_two_turns_in_transit_then_stands_on_room_3_start():
    state = geeko_game()
    state.players["alice"].room = 3  # the same hall, as if rooms 1 and 2 were done
    after = play_turn(state, orders(Zapper=["LF90#70"], Spanner=["FWD1#500"]), "5").state
    spanner = after.boards["alice"].robots["Spanner"]
    assert (spanner.mode, spanner.at, after.transit) == ("in-transit", None, {"Spanner": 2})
    assert after.receiving("alice") == ["Zapper"]
    # In transit the other robot's program may have any length (B4.5); Spanner gets no cards.
    after = play_turn(after, orders(Zapper=["RT90#80", "LF90#90", "RT90#100"]), "5").state
    assert after.transit == {"Spanner": 1} and after.receiving("alice") == ["Zapper"]
    after = play_turn(after, orders(Zapper=["UTRN#10"]), "5").state
    spanner = after.boards["alice"].robots["Spanner"]
    assert after.transit == {}
    assert (spanner.mode, str(spanner.at), spanner.hp) == ("real", "r3c3", 10)
    assert after.receiving("alice") == ["Zapper", "Spanner"]


def test_b4_6_geeko_missing_orders_idle_and_the_turn_counts():
    state = geeko_game()
    outcome = play_turn(state, {}, "5")
    assert outcome.state.turn == 2
    assert [str(r.at) for r in outcome.state.boards["alice"].robots.values()] == ["r3c1", "r3c3"]
    assert not any(type(e).__name__ == "CardPlayed" for _, e in outcome.events)
    assert outcome.missed == {"alice": {}}  # recorded with the turn: alice owed orders, her robots idled


def test_b4_6_bot_policy_the_pilot_plays_a_missing_geeko_player_the_same_way_every_time():
    setup = geeko_game().setup
    state = new_game(GameSetup("t", "geeko", "5", setup.rooms, GEEKO_DECK, setup.players,
                               {"missing_orders": "bot"}))
    outcome = play_turn(state, {}, "5")
    # In Hall 1 (gate r1c1, pit r2c3) Zapper, on r3c1 facing N, needs one FWD2: the bot takes it out.
    assert [c.robot for c in outcome.state.completions][:1] == ["Zapper"]
    assert not any(type(e).__name__ == "Destroyed" for _, e in outcome.events)
    played = missed_orders(state, {})["alice"]
    assert played and len(played["Zapper"]) == len(played["Spanner"])  # B4.5 as for a player
    assert missed_orders(state, {}) == missed_orders(state, {})  # deterministic: a replay plays the same
    assert outcome.missed == {"alice": played}  # the turn records what the pilot played
    first = {e.robot: e.card for _, e in outcome.events if type(e).__name__ == "CardPlayed" and e.stage == 1}
    assert first == {robot: program[0] for robot, program in played.items()}


def test_b4_6_geeko_fill_plays_the_players_shared_hand_robot_by_robot():
    """B4.6 as written, with `missing_orders: fill` in Geek-o: the hand is the player's (B4.3), so Zapper takes
    the first nine cards it can use, Spanner the next nine. At the start neither robot can use an upgrade card
    (G7), so the hand is the deck's first 18 basic cards (B4.3 skips the others), counted here from the file."""
    setup = geeko_game().setup
    state = new_game(GameSetup("t", "geeko", "5", setup.rooms, GEEKO_DECK, setup.players,
                               {"missing_orders": "fill"}))
    basic = [c for c in GEEKO_DECK.cards if c.kind in ("UTRN", "LF90", "RT90", "RVS1", "FWD1", "FWD2", "FWD3")]
    played = missed_orders(state, {})["alice"]
    assert played == {"Zapper": basic[:9], "Spanner": basic[9:18]}
    outcome = play_turn(state, {}, "5")
    first = [(e.robot, e.card) for _, e in outcome.events if type(e).__name__ == "CardPlayed" and e.stage == 1]
    assert sorted(first) == sorted([("Zapper", basic[0]), ("Spanner", basic[9])])  # the robots do not idle
    assert outcome.missed == {"alice": {"Zapper": basic[:9], "Spanner": basic[9:18]}}  # recorded with the turn


def botwars_game():
    board = load_room({"name": "Field", "size": "5x5", "starts": ["r5c1", "r5c3", "r5c5"],
                       "elements": [{"type": "flag", "at": "r3c1", "number": 1},
                                    {"type": "flag", "at": "r2c1", "number": 2}]}, "field")
    players = (PlayerSetup("ann", ("Red",)), PlayerSetup("ben", ("Blue",)), PlayerSetup("cy", ("Green",)))
    return new_game(GameSetup("b", "botwars", "9", (board,), read_deck("decks/standard.yaml"), players))


def test_b4_6_botwars_missing_orders_fill_the_registers_from_the_top_of_the_hand():
    state = botwars_game()
    hand = state.hands["Blue"]
    assert len(hand) == 9
    outcome = play_turn(state, {}, "9")
    played = [e.card for key, e in outcome.events if type(e).__name__ == "CardPlayed" and e.robot == "Blue"]
    assert played == hand[:5]
    assert outcome.missed["ben"] == {"Blue": hand[:5]}  # recorded with the turn: five registers (B4.5)


def test_b4_6_only_players_who_owed_orders_and_sent_none_that_counted_are_recorded_as_missed():
    """ann's orders count; ben and cy sent none (fill: the top five cards of each robot's hand, B4.6)."""
    state = botwars_game()
    hands = {robot: list(state.hands[robot]) for robot in ("Blue", "Green")}
    outcome = play_turn(state, {"ann": Checked(programs={"Red": cards("FWD1#500")})}, "9")
    assert outcome.missed == {"ben": {"Blue": hands["Blue"][:5]}, "cy": {"Green": hands["Green"][:5]}}


def test_botwars_flags_in_order_and_the_first_robot_through_the_last_wins():
    state = botwars_game()
    run = Checked(programs={"Red": cards("FWD1#500", "FWD1#510", "FWD1#520", "RT90#80", "RT90#100")})
    outcome = play_turn(state, {"ann": run}, "9")
    red = outcome.state.boards["board"].robots["Red"]
    assert red.next_flag == 3
    assert outcome.state.winners == ["Red"] and outcome.state.is_over
    assert outcome.state.hands == {}
    assert [(row["player"], row["won"], row["flags"], row["place"]) for row in standings(outcome.state)] == [
        ("ann", 1, 2, 1), ("ben", None, 0, 2), ("cy", None, 0, 2)]
    ended = result(outcome.state)
    assert ended is not None and (ended.winners, ended.termination) == (("ann",), Termination.LAST_FLAG)


# Each turn: Zapper drives into the gate and leaves at the end of stage 1; Spanner goes west along row 3 behind
# it, turns north and follows through the freed gate at stage 4 (G3, one gate).
WALK = Checked(programs={"Zapper": cards("FWD2#700", "UTRN#10", "UTRN#20", "UTRN#30"),
                         "Spanner": cards("LF90#70", "FWD2#710", "RT90#80", "FWD2#720")})


def two_player_geeko():
    halls = tuple(hall(f"Hall {n}") for n in range(1, 6))
    return new_game(GameSetup("t", "geeko", "5", halls, GEEKO_DECK,
                              (PlayerSetup("alice", ("Zapper", "Spanner")), PlayerSetup("bob", ("Bolt", "Nut")))))


def test_g1_g3_through_five_rooms_the_turn_count_and_the_standings():
    state = two_player_geeko()
    walk = WALK
    for turn in range(1, 6):
        outcome = play_turn(state, {"alice": walk}, "5")
        state = outcome.state
        assert [(c.robot, c.room, c.turn) for c in state.completions[-2:]] == [
            ("Zapper", turn, turn), ("Spanner", turn, turn)]
    assert state.players["alice"].finished == 5 and not state.is_over  # bob has not moved
    assert [type(e).__name__ for _, e in outcome.events][-1] == "PlayerFinished"
    assert standings(state) == [{"player": "alice", "turns": 5, "rooms_done": 5, "place": 1},
                                {"player": "bob", "turns": None, "rooms_done": 0, "place": 2}]
    assert state.receiving("alice") == [] and "alice" not in state.hands
    # #22: alice has no more turns while bob plays on; the game has no result yet
    assert (state.done_playing("alice"), state.done_playing("bob"), result(state)) == ("finished", None, None)



def test_a_geeko_player_through_the_last_room_keeps_getting_each_turns_report():
    """#38: alice is through (G1) while bob plays on: her "no more turns" mail says each turn's report still
    comes, and it does — bob's board, as a BotWars player out of lives keeps seeing the shared one."""
    from pbem.render.ending import done_note
    from pbem.render.history import outcome_report
    from pbem.render.turn import Recipient, eml_files

    state = two_player_geeko()
    for _ in range(5):
        state = play_turn(state, {"alice": WALK}, "5").state
    assert "You will keep receiving each turn's report" in " ".join(done_note(state.done_playing("alice") or ""))
    outcome = play_turn(state, {}, "5")
    report = outcome_report("t", state, outcome, list(state.players))
    assert [r.title for r in report.for_player("alice")] == ["bob — Hall 1"]
    files = eml_files(report, [Recipient("alice", "alice@example.org"), Recipient("bob", "bob@example.org")])
    assert sorted(files) == ["alice", "bob"]

def test_g3_several_gates_a_robot_waits_locked_without_cards_until_every_gate_is_held():
    twin = load_room({"name": "Twin", "size": "3x3", "starts": ["r3c1", "r3c3"],
                      "elements": [{"type": "gate", "at": "r1c1", "open": True},
                                   {"type": "gate", "at": "r1c3", "open": True}]}, "twin")
    state = geeko_game((twin,) + tuple(hall(f"Hall {n}") for n in range(2, 6)))
    state = play_turn(state, orders(Zapper=["FWD2#700", "UTRN#10"], Spanner=["LF90#70", "RT90#80"]), "5").state
    zapper = state.boards["alice"].robots["Zapper"]
    assert (str(zapper.at), zapper.left_room, state.completions) == ("r1c1", False, [])
    assert state.receiving("alice") == ["Spanner"]  # a waiting robot gets no cards; the other any length
    # #38: a program for it is refused saying why in a player's words, not its mode ("(real)")
    refused = check_orders(state, "alice", Submission({"Zapper": ["FWD1"], "Spanner": []}))
    assert [p.message for p in refused.problems] == [
        "Zapper gets no cards this turn — locked in a gate: waits for the other robot (G3). Leave its program empty"]
    outcome = play_turn(state, orders(Spanner=["FWD2#710"]), "5")
    state = outcome.state
    assert [(c.robot, c.room, c.turn) for c in state.completions] == [("Zapper", 1, 2), ("Spanner", 1, 2)]
    assert state.players["alice"].room == 2 and state.boards["alice"].room.name == "Hall 2"


def test_b10_a_declared_reboot_takes_the_next_turn_restores_hp_and_deals_no_cards_meanwhile():
    state = geeko_game()
    state.boards["alice"].robots["Spanner"].hp = 7
    declared = {"alice": Checked(programs={"Zapper": cards("LF90#70"), "Spanner": cards("RT90#80")},
                                 reboot=["Spanner"])}
    state = play_turn(state, declared, "5").state
    spanner = state.boards["alice"].robots["Spanner"]
    assert (spanner.mode, spanner.hp) == ("rebooting", 10)
    assert state.receiving("alice") == ["Zapper"] and len(state.hands["alice"]) == 9
    state = play_turn(state, orders(Zapper=["RT90#100", "LF90#90", "UTRN#10"]), "5").state
    assert state.boards["alice"].robots["Spanner"].mode == "real"
    assert state.receiving("alice") == ["Zapper", "Spanner"] and len(state.hands["alice"]) == 18


def test_b4_5_b4_7_a_geeko_robot_with_every_register_fused_asks_no_equal_length():
    """Spanner at HP 1 has all nine registers fused (B7.1, Geek-o fuses from the first damage) and gets no cards
    (B4.7): Zapper's program may have any length (B4.5), and `fill` gives Zapper its nine registers."""
    from pbem.engine import campaign

    setup = geeko_game().setup
    state = new_game(GameSetup("t", "geeko", "5", setup.rooms, GEEKO_DECK, setup.players,
                               {"missing_orders": "fill"}))
    state.boards["alice"].robots["Spanner"].hp = 1
    campaign._deal(state, state.setup.rules(), [])  # B12's last step: the hand for Zapper alone (9 cards)
    assert state.needs_program("alice") == ["Zapper"]
    hand = state.hands["alice"]
    assert len(hand) == 9
    assert check_orders(state, "alice", Submission({"Zapper": [str(hand[0])], "Spanner": []})).ok
    assert missed_orders(state, {})["alice"] == {"Zapper": hand}
