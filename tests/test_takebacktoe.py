"""Take-Back-Toe (RULES D3): every rule and ruling, and the seed's example game (D3.5)."""
from __future__ import annotations

from dataclasses import replace

import pytest

from pbem.dm import Action, Config, get_game, replay
from pbem.engine.vocabulary import Termination
from pbem.formats.transcript import load_transcript, read_transcript

GAME = get_game("takebacktoe")


def gm(*moves, **options):
    """A GM-dice match of Red (home A, first) and Green; moves as (player, roll, move or None)."""
    config = Config("takebacktoe", ("Red", "Green"), options={"dice": "gm", **options})
    actions = [Action(p, {"roll": roll, **({"move": move} if move else {})}) for p, roll, move in moves]
    return config, actions


def grid(state):
    return [list(state.stacks[r * 4:(r + 1) * 4]) for r in range(3)]


def test_d3_1_start_position():
    state = GAME.new_state(Config("takebacktoe", ("Red", "Green"), options={"dice": "gm"}))
    assert grid(state) == [[0, 0, 0, 0], [10, 10, 10, 10], [0, 0, 0, 0]]
    assert state.to_move == "Red"


def test_d3_5_seed_example_game():
    config, actions = gm(("Red", 4, "B2-A2"), ("Green", 3, "A2-A1"), ("Red", 3, "B3-A3"),
                         ("Green", 6, "B4-C4"), ("Red", 3, "B4-A4"))
    outcome = replay(config, actions)
    assert outcome.errors == []
    assert grid(outcome.state) == [[3, 1, 3, 3], [10, 6, 7, 1], [0, 0, 0, 6]]
    assert outcome.result.over and outcome.result.winner == "Red"
    assert outcome.result.scores == {"Red": 10, "Green": 6} and outcome.result.termination == Termination.THREE_STACKS
    assert [t.player for t in outcome.state.turns].count("Red") == 3  # Red's third turn


def test_d3_5_game_is_not_over_before_reds_third_turn():
    config, actions = gm(("Red", 4, "B2-A2"), ("Green", 3, "A2-A1"), ("Red", 3, "B3-A3"), ("Green", 6, "B4-C4"))
    assert not replay(config, actions).result.over


def test_d3_2_reversing_the_opponents_move_is_refused_and_changes_nothing():
    config, actions = gm(("Red", 4, "B2-A2"), ("Green", 3, "A2-A1"))
    before = replay(config, actions).state
    reversal = Action("Red", {"roll": 3, "move": "A1-A2"})
    assert "reverses" in GAME.check(before, reversal)
    outcome = replay(config, actions + [reversal])
    assert outcome.errors[0][0] == 2 and outcome.state == before


def test_d3_2_a_different_count_between_the_same_cells_is_allowed():
    config, actions = gm(("Red", 4, "B2-A2"), ("Green", 3, "A2-A1"), ("Red", 2, "A1-A2"))
    outcome = replay(config, actions)
    assert outcome.errors == []
    assert grid(outcome.state)[0][:2] == [1, 3]


def test_d3_2_reversing_ones_own_earlier_move_is_allowed():
    config, actions = gm(("Red", 1, "B1-B2"), ("Green", 1, "B3-B4"), ("Red", 1, "B2-B1"))
    assert replay(config, actions).errors == []


@pytest.mark.parametrize("move, reason", [
    ("B1-A2", "not next to"),      # diagonal
    ("B1-B3", "not next to"),      # two cells away
    ("A1-A2", "fewer than"),       # empty stack
    ("B1-D1", "off the board"),
    ("B1", "FROM-TO"),
])
def test_d3_2_move_must_be_exact_and_orthogonal(move, reason):
    state = GAME.new_state(gm()[0])
    assert reason in GAME.check(state, Action("Red", {"roll": 3, "move": move}))


def test_d3_2_cannot_move_more_than_the_stack_holds():
    config, actions = gm(("Red", 4, "B2-A2"))
    state = replay(config, actions).state
    assert "holds 4, fewer than 5" in GAME.check(state, Action("Green", {"roll": 5, "move": "A2-A1"}))


def test_d3_2_no_stack_big_enough_skips_the_turn():
    config, _ = gm()
    state = replace(GAME.new_state(config), stacks=(1, 1, 1, 1, 5, 5, 5, 5, 1, 1, 1, 15))
    skip = Action("Red", {"roll": 6})
    # a roll of 6 can still move from C4 (15): no skip then
    assert "allows a move" in GAME.check(state, skip)
    state = replace(state, stacks=(1, 1, 1, 1, 5, 5, 5, 5, 1, 1, 1, 5))
    assert GAME.check(state, skip) is None
    after = GAME.apply(state, skip)
    assert after.stacks == state.stacks and after.to_move == "Green" and after.turns[-1].move is None
    assert "fewer than" in GAME.check(state, Action("Red", {"roll": 6, "move": "B1-A1"}))


def test_d3_2_engine_dice_skip_automatically():
    """With engine dice, a turn whose roll no stack meets is recorded as skipped, no action needed."""
    low = (1, 2, 0, 0, 2, 2, 2, 2, 1, 2, 0, 0)
    skipped = 0
    for seed in range(30):
        state = replace(GAME.new_state(Config("takebacktoe", ("Red", "Green"), seed=seed)), stacks=low, roll=1)
        after = GAME.apply(state, Action("Red", {"move": "A1-B1"}))
        for turn in after.turns[1:]:
            assert turn.move is None and turn.roll > max(after.stacks)
            skipped += 1
        assert after.roll is None or after.roll <= max(after.stacks)
    assert skipped > 0


def test_b13_engine_dice_depend_only_on_the_seed():
    rolls = lambda seed: [GAME.new_state(Config("takebacktoe", ("Red", "Green"), seed=seed)).roll for _ in range(2)]
    assert rolls(7) == rolls(7)
    firsts = {GAME.new_state(Config("takebacktoe", ("Red", "Green"), seed=s)).roll for s in range(40)}
    assert firsts <= set(range(1, 7)) and len(firsts) > 1


def test_engine_dice_refuse_a_different_roll_and_accept_the_shown_one():
    state = GAME.new_state(Config("takebacktoe", ("Red", "Green"), seed=3))
    wrong = state.roll % 6 + 1
    assert f"the engine rolled {state.roll} for this turn, not" in GAME.check(state, Action("Red", {"roll": wrong, "move": "B1-A1"}))
    assert GAME.check(state, Action("Red", {"roll": state.roll, "move": "B1-A1"})) is None
    assert GAME.check(state, Action("Red", {"move": "B1-A1"})) is None


def test_gm_dice_need_a_roll():
    state = GAME.new_state(gm()[0])
    assert "the GM has not rolled" in GAME.check(state, Action("Red", {"move": "B1-A1"}))
    assert "1 to 6" in GAME.check(state, Action("Red", {"roll": 7, "move": "B1-A1"}))


def test_the_gm_rolls_by_their_own_action_and_the_player_sends_only_the_move():
    config, _ = gm()
    state = GAME.new_state(config)
    assert GAME.check(state, Action("GM", {"roll": 4})) is None
    rolled = GAME.apply(state, Action("GM", {"roll": 4}))
    assert rolled.roll == 4 and rolled.to_move == "Red"
    assert "has rolled 4 already" in GAME.check(rolled, Action("GM", {"roll": 2}))
    assert "the GM rolled 4 for this turn, not 2" in GAME.check(rolled, Action("Red", {"roll": 2, "move": "B2-A2"}))
    moved = GAME.apply(rolled, Action("Red", {"move": "B2-A2"}))
    assert moved.stacks[1] == 4 and moved.stacks[5] == 6 and moved.to_move == "Green" and moved.roll is None
    engine = GAME.new_state(Config("takebacktoe", ("Red", "Green"), seed=3))
    assert "engine's dice" in GAME.check(engine, Action("GM", {"roll": 4}))


def test_a_gm_roll_that_allows_no_move_skips_the_turn_at_once():
    state = replace(GAME.new_state(gm()[0]), stacks=(1, 2, 0, 0, 2, 2, 2, 2, 1, 2, 0, 0))
    skipped = GAME.apply(state, Action("GM", {"roll": 5}))  # no stack holds 5 (D3.2)
    assert skipped.to_move == "Green" and skipped.turns[-1].move is None and skipped.turns[-1].roll == 5
    # the players read it so (the GM's roll mail and the acknowledgements use the game's news)
    assert GAME.news(state, skipped) == ["Red rolled 5: no stack of 5, the turn is skipped"]
    rolled = GAME.apply(skipped, Action("GM", {"roll": 2}))
    assert GAME.news(skipped, GAME.apply(rolled, Action("Green", {"move": "B1-A1"}))) == ["Green moved 2 B1-A1"]


def test_written_rolls_mean_the_gms_dice_unless_the_transcript_says_engine():
    text = "game: takebacktoe\nplayers: [Red, Green]\nactions:\n  - {player: Red, roll: 4, move: B2-A2}\n"
    assert load_transcript(text).config.options == {"dice": "gm"}
    engine = load_transcript(text.replace("players:", "options: {dice: engine}\nplayers:"))
    assert engine.config.options == {"dice": "engine"}
    assert load_transcript(text.replace("roll: 4, ", "")).config.options == {}


def test_acting_out_of_turn_is_refused():
    state = GAME.new_state(gm()[0])
    assert "Red's turn" in GAME.check(state, Action("Green", {"roll": 1, "move": "B1-C1"}))


def test_d3_3_filling_the_opponents_row_makes_the_opponent_win():
    config, actions = gm(("Red", 3, "B1-C1"), ("Green", 3, "B2-C2"), ("Red", 3, "B3-C3"))
    result = replay(config, actions).result
    assert result.winner == "Green"


def test_d3_3_stacks_must_be_non_empty_and_three_equal():
    config, actions = gm(("Red", 3, "B1-A1"), ("Green", 3, "B2-C2"), ("Red", 3, "B3-A3"))
    assert not replay(config, actions).result.over  # A: 3, 0, 3, 0 — two equal stacks only


def test_d3_3_four_equal_stacks_also_win():
    config, _ = gm()
    state = replace(GAME.new_state(config), stacks=(1, 3, 2, 2, 10, 10, 10, 2, 1, 0, 0, 1))
    after = GAME.apply(state, Action("Red", {"roll": 1, "move": "A2-A1"}))
    assert after.stacks[:4] == (2, 2, 2, 2)
    assert after.winner == "Red"


@pytest.mark.parametrize("both_win, winner", [("mover", "Red"), ("opponent", "Green")])
def test_d3_3_ruling_when_both_qualify(both_win, winner):
    """Only reachable from a position set up by hand: one move changes one home row at most."""
    config, _ = gm(both_win=both_win)
    state = replace(GAME.new_state(config), stacks=(2, 2, 0, 0, 10, 10, 10, 4, 3, 3, 3, 0))
    after = GAME.apply(state, Action("Red", {"roll": 2, "move": "B3-A3"}))
    assert after.winner == winner


def _shuttle(turns):
    """Moves that never touch a home row and never reverse the opponent's last move."""
    cycle = [("Red", 1, "B1-B2"), ("Green", 1, "B3-B4"), ("Red", 1, "B2-B1"), ("Green", 1, "B4-B3")]
    return [cycle[i % 4] for i in range(turns)]


def test_d3_4_after_forty_turns_each_a_tie_goes_to_the_starting_player():
    config, actions = gm(*_shuttle(80))
    outcome = replay(config, actions)
    assert outcome.errors == []
    assert outcome.result.over and outcome.result.winner == "Red"
    assert not replay(config, actions[:79]).result.over


def test_d3_4_more_pieces_at_home_wins_at_the_limit():
    config, actions = gm(*_shuttle(79), ("Green", 1, "B3-C3"))
    outcome = replay(config, actions)
    assert outcome.result.winner == "Green" and outcome.result.scores == {"Red": 0, "Green": 1}
    assert "turn limit" in outcome.state.ending and outcome.result.termination == Termination.TURN_LIMIT


def test_d3_4_no_action_after_the_end():
    config, actions = gm(*_shuttle(80), ("Red", 1, "B1-B2"))
    outcome = replay(config, actions)
    assert outcome.errors == [(80, "the game is over: Red won, turn limit: tie goes to the starting player")]


def test_options_are_checked():
    with pytest.raises(ValueError, match="dice"):
        GAME.new_state(Config("takebacktoe", ("Red", "Green"), options={"dice": "loaded"}))
    with pytest.raises(ValueError, match="options.dise: unknown option"):
        GAME.new_state(Config("takebacktoe", ("Red", "Green"), options={"dise": "gm"}))
    with pytest.raises(ValueError, match="two different players"):
        GAME.new_state(Config("takebacktoe", ("Red", "Red")))


SEED_AS_WRITTEN = """\
game: takebacktoe
players: [Red, Green]
actions:
  - {player: Red, roll: 4, move: B2-A2}
  - {player: Green, roll: 3, move: A2-A1}
  - {player: Red, roll: 3, move: B3-A3}
  - {player: Green, roll: 6, move: B4-C4}
  - {player: Red, roll: 3, move: B4-A4}
"""


def test_d3_5_the_seed_example_pasted_as_written_replays_to_reds_win(repo_root):
    for transcript in (load_transcript(SEED_AS_WRITTEN), read_transcript(repo_root / "turns/dm/takebacktoe-example.yaml")):
        outcome = replay(transcript.config, list(transcript.actions))
        assert outcome.errors == [] and outcome.result.winner == "Red"
        assert grid(outcome.state) == [[3, 1, 3, 3], [10, 6, 7, 1], [0, 0, 0, 6]]
