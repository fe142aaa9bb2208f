"""Flower Field play (RULES D4.1, D4.2, D4.4, D4.5) in every variant; illegal actions change nothing."""
from __future__ import annotations

import pytest

from pbem.dm import Action, Config, get_game, replay
from pbem.dm.cells import cell_name
from pbem.dm.flowerfield import missed_duplicates
from pbem.engine.vocabulary import Termination

GAME = get_game("flowerfield")
SEED_EXAMPLE = [  # Ann's last move, B2 and F3, makes D2-D3-E3-F3 a duplicate of D3-E3-E4-E5 (seed 004)
    ("Ann", {"plant": ["T D3", "T D5"]}),
    ("Bob", {"plant": ["S C4", "T E4"]}),
    ("Ann", {"plant": ["T E3", "T D2"]}),
    ("Bob", {"plant": ["R C2", "S E5"]}),
    ("Ann", {"plant": ["R B2", "S F3"]}),
]
SEED_CHALLENGE = {"challenge": [["D2", "D3", "E3", "F3"], ["D3", "E3", "E4", "E5"]]}
MISSED_CHALLENGE = {"challenge": [["C4", "D4", "E4", "D3"], ["C4", "D4", "E4", "D5"]]}


def play(moves, variant="genius4", **options):
    config = Config("flowerfield", ("Ann", "Bob"), variant=variant, options=options)
    return replay(config, [Action(p, payload) for p, payload in moves])


def cell(state, name):
    row, col = ord(name[0]) - ord("A"), int(name[1:]) - 1
    return state.board[row * 7 + col]


@pytest.mark.parametrize("variant, centre, letters", [
    ("classic", "P", "RBP"), ("genius4", "R", "RST"), ("grunkle", "Y", "RBY"), ("pan", "R", "RGY"),
    ("primary", ".", "RBY"),
])
def test_d4_1_variants_set_up(variant, centre, letters):
    state = GAME.new_state(Config("flowerfield", ("Ann", "Bob"), variant=variant))
    assert cell(state, "D4") == centre
    assert state.board.count(".") == 49 - (centre != ".")
    assert state.lives == (("Ann", 3), ("Bob", 3))
    data = GAME.render_data(state)
    assert "".join(k["letter"] for k in data["kinds"]) == letters


@pytest.mark.parametrize("word, letter", [
    ("rose", "R"), ("ruby", "R"), ("red", "R"), ("R", "R"), ("ruby rose", "R"),
    ("sunflower", "S"), ("saffron", "S"), ("yellow", "S"), ("s", "S"),
    ("tulip", "T"), ("turquoise", "T"), ("blue", "T"), ("Turquoise Tulip", "T"),
])
def test_d4_1_genius4_names_and_aliases(word, letter):
    outcome = play([("Ann", {"plant": [f"{word} D5"]})])
    assert outcome.errors == [] and cell(outcome.state, "D5") == letter


def test_d4_1_a_kind_of_another_variant_is_refused():
    outcome = play([("Ann", {"plant": ["purple D5"]})])
    assert "not a flower of genius4" in outcome.errors[0][1]
    assert play([("Ann", {"plant": ["green D5"]})], variant="pan").errors == []


def test_plant_cell_and_kind_in_either_order():
    outcome = play([("Ann", {"plant": ["D5 rose", "T C4"]})])
    assert cell(outcome.state, "D5") == "R" and cell(outcome.state, "C4") == "T"


def test_d4_2_one_or_two_flowers_of_any_kinds():
    outcome = play([("Ann", {"plant": ["R D5", "T D3"]}), ("Bob", {"plant": ["S C4"]})])
    assert outcome.errors == [] and outcome.state.to_move == "Ann"


def test_d4_2_three_flowers_are_refused_and_change_nothing():
    start = GAME.new_state(Config("flowerfield", ("Ann", "Bob"), variant="genius4"))
    outcome = play([("Ann", {"plant": ["R D5", "T D3", "S C4"]})])
    assert "one to 2 flowers" in outcome.errors[0][1]
    assert outcome.state == start


def test_d4_2_adjacent_to_a_flower_placed_before_this_turn():
    outcome = play([("Ann", {"plant": ["R D5", "R D6"]})])
    assert outcome.errors == [(0, "D6 is not next to a flower planted before this turn (D4.2)")]
    assert play([("Ann", {"plant": ["R A1"]})]).errors[0][1].startswith("A1 is not next to")


def test_d4_2_occupied_and_repeated_cells_are_refused():
    assert "already holds" in play([("Ann", {"plant": ["R D4"]})]).errors[0][1]
    assert "planted twice" in play([("Ann", {"plant": ["R D5", "T D5"]})]).errors[0][1]


def test_primary_one_tile_a_turn_anywhere_on_the_empty_board():
    assert play([("Ann", {"plant": ["red A1"]}), ("Bob", {"plant": ["B G7"]})], variant="primary").errors == []
    outcome = play([("Ann", {"plant": ["R A1", "R A2"]})], variant="primary")
    assert "one flower per turn" in outcome.errors[0][1]


def test_primary_with_adjacency_still_allows_the_first_tile():
    outcome = play([("Ann", {"plant": ["R A1"]}), ("Bob", {"plant": ["B G7"]})], variant="primary", adjacent=True)
    assert outcome.errors == [(1, "G7 is not next to a flower planted before this turn (D4.2)")]


def test_d4_4_seed_example_challenge_succeeds_and_undoes_the_move():
    before = play(SEED_EXAMPLE).state
    outcome = play(SEED_EXAMPLE + [("Bob", SEED_CHALLENGE)])
    state = outcome.state
    assert outcome.errors == []
    assert state.lives == (("Ann", 2), ("Bob", 3))
    assert cell(state, "B2") == "." and cell(state, "F3") == "."
    assert state.to_move == "Ann"  # Ann moves again
    assert state.board == play(SEED_EXAMPLE[:-1]).state.board != before.board


def test_d4_4_redo_after_a_successful_challenge():
    outcome = play(SEED_EXAMPLE + [("Bob", SEED_CHALLENGE), ("Ann", {"plant": ["R B2", "R F3"]})])
    assert outcome.errors == [] and cell(outcome.state, "F3") == "R" and outcome.state.to_move == "Bob"
    # the redone move no longer makes that pair
    again = play(SEED_EXAMPLE + [("Bob", SEED_CHALLENGE), ("Ann", {"plant": ["R B2", "R F3"]}),
                                 ("Bob", SEED_CHALLENGE)])
    assert again.state.lives == (("Ann", 2), ("Bob", 2)) and again.state.to_move == "Bob"


def test_d4_4_ruling_an_undo_never_reopens_a_plant_already_let_stand():
    # row D fills with roses: Ann's D7 makes D4-D7 a duplicate of D2-D5; Bob lets it stand by planting D1
    # (D1-D4 = D2-D5); Ann's challenge undoes D1, and Bob, moving again, may not go back to Ann's D7
    rows = [("Ann", {"plant": ["R D3", "R D5"]}), ("Bob", {"plant": ["R D2", "R D6"]}), ("Ann", {"plant": ["R D7"]}),
            ("Bob", {"plant": ["R D1"]}), ("Ann", {"challenge": [["D1", "D2", "D3", "D4"], ["D2", "D3", "D4", "D5"]]})]
    undone = play(rows)
    assert undone.errors == [] and cell(undone.state, "D1") == "." and undone.state.lives == (("Ann", 3), ("Bob", 2))
    late = play(rows + [("Bob", {"challenge": [["D4", "D5", "D6", "D7"], ["D2", "D3", "D4", "D5"]]})])
    assert late.errors == [] and late.state.lives == (("Ann", 3), ("Bob", 1))
    assert cell(late.state, "D7") == "R" and late.state.to_move == "Bob"


def test_d4_4_a_real_pair_that_misses_the_latest_move_fails():
    outcome = play(SEED_EXAMPLE + [("Bob", MISSED_CHALLENGE)])
    assert outcome.errors == []
    assert outcome.state.lives == (("Ann", 3), ("Bob", 2))
    assert outcome.state.to_move == "Bob" and cell(outcome.state, "F3") == "S"
    assert "latest move" in outcome.state.event


def test_d4_4_ruling_option_refuses_a_challenge_that_misses_the_latest_move():
    outcome = play(SEED_EXAMPLE + [("Bob", MISSED_CHALLENGE)], missed_latest="refuse")
    assert outcome.errors == [(5, "neither field includes a flower from the opponent's latest move")]
    assert outcome.state == play(SEED_EXAMPLE, missed_latest="refuse").state


@pytest.mark.parametrize("baskets, why", [
    ([["D2", "D3", "E3", "F3"], ["D2", "D3", "E3", "F3"]], "same cells"),
    ([["D2", "D3", "E3", "F3"], ["B2", "C2", "D2", "D3"]], "not duplicates"),
    ([["D2", "D3", "E3", "F3"], ["D3", "E3", "E4", "F4"]], "F4 empty"),
    ([["D2", "D3", "E3", "F3"], ["B2", "C2", "C4", "D4"]], "not connected"),
])
def test_d4_4_failed_challenges_cost_the_challenger_a_life(baskets, why):
    outcome = play(SEED_EXAMPLE + [("Bob", {"challenge": baskets})])
    assert outcome.errors == [] and outcome.state.lives == (("Ann", 3), ("Bob", 2))
    assert why in outcome.state.event and outcome.state.to_move == "Bob"


@pytest.mark.parametrize("challenge, reason", [
    ([["D2", "D3", "E3"], ["D3", "E3", "E4", "E5"]], "four cells"),
    ([["D2", "D3", "E3", "E3"], ["D3", "E3", "E4", "E5"]], "four different cells"),
    ([["D2", "D3", "E3", "F3"]], "two baskets"),
    ([["D2", "D3", "E3", "H3"], ["D3", "E3", "E4", "E5"]], "off the board"),
])
def test_malformed_challenges_are_refused(challenge, reason):
    outcome = play(SEED_EXAMPLE + [("Bob", {"challenge": challenge})])
    assert reason in outcome.errors[0][1]
    assert outcome.state == play(SEED_EXAMPLE).state


def test_baskets_may_be_written_as_strings():
    outcome = play(SEED_EXAMPLE + [("Bob", {"challenge": ["D2-D3-E3-F3", "D3 E3 E4 E5"]})])
    assert outcome.state.lives == (("Ann", 2), ("Bob", 3))


def test_d4_4_giving_up_is_a_failed_challenge():
    outcome = play(SEED_EXAMPLE + [("Bob", {"give_up": True})])
    assert outcome.state.lives == (("Ann", 3), ("Bob", 2)) and outcome.state.to_move == "Bob"


def test_d4_4_no_challenge_before_the_opponent_has_moved():
    outcome = play([("Ann", SEED_CHALLENGE)])
    assert outcome.state.lives == (("Ann", 2), ("Bob", 3))


def test_acting_out_of_turn_is_refused():
    outcome = play([("Bob", {"plant": ["R D5"]})])
    assert outcome.errors == [(0, "it is Ann's turn, not Bob's")]


def test_d4_5_no_lives_left_loses():
    outcome = play([("Ann", {"plant": ["R D5"]})] + [("Bob", {"give_up": True})] * 3)
    assert outcome.result.over and outcome.result.winner == "Ann"
    assert outcome.result.lives == {"Ann": 3, "Bob": 0} and outcome.result.termination == Termination.NO_LIVES
    assert play([("Ann", {"plant": ["R D5"]})] + [("Bob", {"give_up": True})] * 4).errors == [(4, "the game is over: Ann won, Bob has no lives left")]


def test_pass_only_on_a_full_board():
    assert "only for the full board" in play([("Ann", {"pass": True})]).errors[0][1]


def fill_order():
    """Every cell but D4, nearest the centre first, A1 last: each is next to an earlier one."""
    cells = [i for i in range(49) if i != 24]
    cells.sort(key=lambda i: (abs(i // 7 - 3) + abs(i % 7 - 3), -i))
    return [cell_name(i, 7) for i in cells]


def fill(first_moves=()):
    """One R per turn, Ann and Bob alternating, until the board is full; Bob plants A1 last."""
    moves = list(first_moves)
    players = ["Ann", "Bob"]
    for n, name in enumerate(fill_order()):
        moves.append((players[n % 2], {"plant": [f"R {name}"]}))
    return moves


def test_d4_5_full_board_pass_with_equal_lives_goes_to_the_last_planter():
    outcome = play(fill() + [("Ann", {"pass": True})], variant="classic")
    assert outcome.errors == []
    assert outcome.result.over and outcome.result.winner == "Bob"
    assert outcome.result.termination == Termination.BOARD_FULL


def test_d4_5_full_board_plant_is_refused():
    outcome = play(fill() + [("Ann", {"plant": ["R A1"]})], variant="classic")
    assert "board is full" in outcome.errors[0][1]


def test_d4_5_full_board_more_lives_wins():
    moves = fill()
    moves.insert(1, ("Bob", {"give_up": True}))  # Bob 2 lives, Bob still to move
    outcome = play(moves + [("Ann", {"pass": True})], variant="classic")
    assert outcome.errors == [] and outcome.result.winner == "Ann"


def test_d4_5_full_board_failed_challenge_ends_the_game():
    outcome = play(fill() + [("Ann", {"challenge": [["A2", "A3", "A4", "A5"], ["A3", "A4", "A5", "A6"]]})],
                   variant="classic")
    assert outcome.result.over and outcome.result.winner == "Bob"
    assert outcome.result.lives == {"Ann": 2, "Bob": 3} and outcome.result.termination == Termination.BOARD_FULL


def test_d4_5_full_board_successful_challenge_undoes_and_play_goes_on():
    outcome = play(fill() + [("Ann", {"challenge": [["A1", "A2", "A3", "A4"], ["A2", "A3", "A4", "A5"]]})],
                   variant="classic")
    assert not outcome.result.over and outcome.state.to_move == "Bob"
    assert cell(outcome.state, "A1") == "." and outcome.result.lives == {"Ann": 3, "Bob": 2}


def test_primary_successful_challenge_removes_only_the_last_tile():
    moves = [("Ann", {"plant": ["R A1"]}), ("Bob", {"plant": ["R A2"]}), ("Ann", {"plant": ["R A3"]}),
             ("Bob", {"plant": ["R A4"]}), ("Ann", {"plant": ["R A5"]}),
             ("Bob", {"challenge": [["A1", "A2", "A3", "A4"], ["A2", "A3", "A4", "A5"]]})]
    state = play(moves, variant="primary").state
    assert state.board[:7] == "RRRR..." and state.lives == (("Ann", 2), ("Bob", 3))


def test_d4_6_missed_duplicates_report():
    state = play(SEED_EXAMPLE + [("Bob", MISSED_CHALLENGE)]).state
    report = missed_duplicates(state)
    # each pair names the plant that made it as the mails do (SEED_EXAMPLE's Bob's first, Ann's third plant)
    assert {"pair": [["C4", "D3", "D4", "E4"], ["C4", "D4", "D5", "E4"]], "move": 2, "planted": "S C4 T E4",
            "player": "Bob", "missed_by": "Ann"} in report
    assert {"pair": [["D2", "D3", "E3", "F3"], ["D3", "E3", "E4", "E5"]], "move": 5, "planted": "R B2 S F3",
            "player": "Ann", "missed_by": "Bob"} in report


def test_render_data_marks_the_last_move():
    data = GAME.render_data(play(SEED_EXAMPLE).state)
    assert data["last"] == {"player": "Ann", "cells": ["B2", "F3"]}
    assert data["board"][1] == ".R....." and data["to_move"] == "Bob"


def test_options_are_checked():
    with pytest.raises(ValueError, match="unknown Flower Field variant"):
        GAME.new_state(Config("flowerfield", ("Ann", "Bob"), variant="daisy"))
    with pytest.raises(ValueError, match="options.live: unknown option"):
        GAME.new_state(Config("flowerfield", ("Ann", "Bob"), options={"live": 2}))
    with pytest.raises(ValueError, match="missed_latest"):
        GAME.new_state(Config("flowerfield", ("Ann", "Bob"), options={"missed_latest": "maybe"}))
