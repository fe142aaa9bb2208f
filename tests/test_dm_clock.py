"""RULES D5: turn timers, reserve time, answer windows and GM extensions, against action time stamps."""
from __future__ import annotations

from datetime import datetime, timedelta, timezone

import pytest

from pbem.dm import Action, Config, get_game, replay
from pbem.dm import clock as clocks
from pbem.engine.vocabulary import Termination

T0 = datetime(2021, 6, 1, 20, 0, tzinfo=timezone.utc)
GRUNKLE = clocks.TimeControl(turn=60, reserve=300, step=30, bonus={"challenge": 60})


def at(seconds: float) -> datetime:
    return T0 + timedelta(seconds=seconds)


def started(control=GRUNKLE):
    return clocks.charge(control, clocks.start(control, ("a", "b")), "b", T0, None)


def test_within_the_turn_limit_costs_no_reserve():
    assert clocks.reserve_used(GRUNKLE, started(), at(60), None) == 0


def test_reserve_is_used_in_whole_steps():
    clock = started()
    assert clocks.reserve_used(GRUNKLE, clock, at(61), None) == 30
    assert clocks.reserve_used(GRUNKLE, clock, at(90), None) == 30
    assert clocks.reserve_used(GRUNKLE, clock, at(91), None) == 60
    after = clocks.charge(GRUNKLE, clock, "a", at(91), None)
    assert after.reserve("a") == 240 and after.reserve("b") == 300 and after.started == at(91)


def test_a_challenge_gets_its_extra_minute():
    clock = started()
    assert clocks.reserve_used(GRUNKLE, clock, at(120), "challenge") == 0
    assert clocks.reserve_used(GRUNKLE, clock, at(121), "challenge") == 30


def test_running_out_of_reserve():
    clock = started()
    assert not clocks.out_of_time(GRUNKLE, clock, "a", at(360), None)  # uses all 300 s
    assert clocks.out_of_time(GRUNKLE, clock, "a", at(361), None)


def test_untimed_actions_and_untimed_games_cost_nothing():
    assert clocks.reserve_used(GRUNKLE, started(), None, None) == 0
    untimed = clocks.TimeControl()
    assert clocks.reserve_used(untimed, started(untimed), at(10_000), None) == 0


def test_gm_extension_moves_the_deadline_and_is_recorded():
    clock = clocks.extend(started(), "a", 120, at(30))
    assert clocks.reserve_used(GRUNKLE, clock, at(180), None) == 0
    assert clock.extensions == (clocks.Extension("a", 120, at(30)),)
    assert clocks.charge(GRUNKLE, clock, "a", at(180), None).extra == 0  # only for that turn


@pytest.mark.parametrize("given, message", [
    ("sometimes", "clock must be"), ({"turns": 5}, "unknown keys"), ({"turn": -1}, "whole number"),
    ({"step": 0}, "at least 1"),
])
def test_clock_options_are_checked(given, message):
    with pytest.raises(ValueError, match=message):
        clocks.TimeControl.from_options({"clock": given}, GRUNKLE)


def test_clock_options_override_the_default():
    assert clocks.TimeControl.from_options({"clock": {"turn": 30}}, GRUNKLE).turn == 30
    assert clocks.TimeControl.from_options({"clock": "off"}, GRUNKLE).turn is None


# --- in a game: Take-Back-Toe has 1 minute a move and a 5-minute bank (seed 001) -------------
# With the GM's dice a turn starts at the GM's roll (D5 ruling): each move below follows its roll.

def tbt(*moves, options=None):
    """Moves as (player, payload, seconds); a payload with a roll is the GM's `{roll: N}` at that time, then the
    move alone at the same time plus `after` seconds when given as (player, payload, seconds, after)."""
    config = Config("takebacktoe", ("Red", "Green"), options={"dice": "gm", **(options or {})})
    actions = []
    for player, payload, seconds, *after in moves:
        payload = dict(payload)
        if player != "GM" and "roll" in payload:
            actions.append(Action("GM", {"roll": payload.pop("roll")}, at(seconds)))
            seconds += after[0] if after else 0
        actions.append(Action(player, payload, at(seconds)))
    return config, actions


def test_a_move_inside_the_bank_is_accepted_and_spends_it():
    config, actions = tbt(("Red", {"roll": 1, "move": "B1-B2"}, 0), ("Green", {"roll": 1, "move": "B3-B4"}, 10, 360))
    outcome = replay(config, actions)
    assert outcome.errors == [] and not outcome.result.over
    assert outcome.state.clock.reserve("Green") == 0 and outcome.state.clock.reserve("Red") == 300


def test_a_move_after_the_bank_is_gone_loses_on_time():
    config, actions = tbt(("Red", {"roll": 1, "move": "B1-B2"}, 0), ("Green", {"roll": 1, "move": "B3-B4"}, 10, 361))
    outcome = replay(config, actions)
    assert outcome.result.winner == "Red" and "Green ran out of time" in outcome.state.ending
    assert outcome.result.termination == Termination.OUT_OF_TIME
    assert outcome.state.stacks[6:8] == (10, 10)  # the late move itself had no effect


def test_d5_ruling_the_gms_delay_is_not_charged_to_the_mover():
    # the GM rolls for Green 4 1/2 minutes after Red's move; Green answers 90 s after the roll: in time, no reserve
    config, actions = tbt(("Red", {"roll": 1, "move": "B1-B2"}, 0), ("Green", {"roll": 1, "move": "B3-B4"}, 270, 90))
    outcome = replay(config, actions)
    assert outcome.errors == [] and not outcome.result.over
    assert outcome.state.clock.reserve("Green") == 300 - 30  # 90 s after the roll: 30 s over the minute


def test_d5_ruling_no_deadline_runs_before_the_gms_roll():
    game = get_game("takebacktoe")
    config, actions = tbt(("Red", {"roll": 1, "move": "B1-B2"}, 0))
    waiting = replay(config, actions).state
    assert game.deadline(waiting) is None and game.waiting(waiting, "Green").startswith("waiting for the GM's roll")
    assert game.waiting(waiting, "Red") is None
    # an hour later the GM rolls: Green's minute and bank start then
    rolled = game.apply(waiting, Action("GM", {"roll": 2}, at(3600)))
    assert game.deadline(rolled).at == at(3600 + 60 + 300) and game.deadline(rolled).waiting == "Green"
    # the GM cannot extend a deadline that is not running
    assert game.check(waiting, Action("GM", {"extend": 60}, at(30))) == "no deadline is running"


def test_d5_ruling_a_roll_that_skips_a_turn_starts_nobodys_clock():
    from dataclasses import replace
    game = get_game("takebacktoe")
    config, _ = tbt()
    state = replace(game.new_state(config), stacks=(1, 2, 0, 0, 2, 2, 2, 2, 1, 2, 0, 0))
    skipped = game.apply(state, Action("GM", {"roll": 5}, at(10)))  # no stack holds 5 (D3.2): Red's turn skipped
    assert skipped.to_move == "Green" and game.deadline(skipped) is None


def test_a_roll_written_in_the_movers_action_was_rolled_when_the_turn_began():
    """A transcript whose rolls were made elsewhere (written in each move): the turn ran from the previous action."""
    config = Config("takebacktoe", ("Red", "Green"), options={"dice": "gm"})
    moves = [Action("Red", {"roll": 1, "move": "B1-B2"}, at(0)), Action("Green", {"roll": 1, "move": "B3-B4"}, at(361))]
    outcome = replay(config, moves)
    assert outcome.result.winner == "Red" and "Green ran out of time" in outcome.state.ending
    in_time = replay(config, moves[:1] + [Action("Green", {"roll": 1, "move": "B3-B4"}, at(360))])
    assert not in_time.result.over and in_time.state.clock.reserve("Green") == 0


def test_d5_ruling_a_move_sent_before_the_roll_is_refused_not_late():
    config, actions = tbt(("Red", {"roll": 1, "move": "B1-B2"}, 0), ("Green", {"move": "B3-B4"}, 1000))
    outcome = replay(config, actions)
    assert outcome.errors == [(2, "the GM has not rolled for this turn yet (pbem dm roll MATCH N)")]
    assert not outcome.result.over


def test_a_late_action_loses_even_when_it_is_illegal():
    config, actions = tbt(("Red", {"roll": 1, "move": "B1-B2"}, 0), ("Green", {"roll": 1, "move": "B2-B1"}, 0, 400))
    assert replay(config, actions).result.winner == "Red"


def test_gm_extension_saves_a_late_move():
    config, actions = tbt(("Red", {"roll": 1, "move": "B1-B2"}, 0), ("GM", {"roll": 1}, 0), ("GM", {"extend": 60}, 100),
                          ("Green", {"move": "B3-B4"}, 400))
    outcome = replay(config, actions)
    assert outcome.errors == [] and not outcome.result.over
    assert outcome.state.clock.extensions == (clocks.Extension("Green", 60, at(100)),)


def test_only_the_gm_extends():
    config, actions = tbt(("Red", {"roll": 1, "move": "B1-B2"}, 0), ("GM", {"roll": 1}, 0), ("Green", {"extend": 60}, 10))
    assert replay(config, actions).errors == [(3, "only the GM extends a deadline")]


def test_the_opponent_claims_a_fallen_flag():
    config, actions = tbt(("Red", {"roll": 1, "move": "B1-B2"}, 0), ("GM", {"roll": 1}, 0),
                          ("Red", {"timeout": True}, 300), ("Red", {"timeout": True}, 361))
    outcome = replay(config, actions)
    assert outcome.errors == [(3, "Green still has time until 2021-06-01 20:06:00 UTC (claimed at 2021-06-01 20:05:00 UTC)")]
    assert outcome.result.winner == "Red"


def test_clock_off_never_times_out():
    config, actions = tbt(("Red", {"roll": 1, "move": "B1-B2"}, 0), ("Green", {"roll": 1, "move": "B3-B4"}, 0, 99_999),
                          options={"clock": "off"})
    assert not replay(config, actions).result.over


def test_flower_field_challenge_gets_the_extra_minute():
    """Classic Flower Field: 2 minutes a turn, 1 more for a challenge, 10 minutes of reserve in 1-minute steps."""
    config = Config("flowerfield", ("Ann", "Bob"))
    actions = [Action("Ann", {"plant": ["R D3"]}, at(0)), Action("Bob", {"give_up": True}, at(180))]
    outcome = replay(config, actions)
    assert outcome.state.clock.reserve("Bob") == 600
    late = [Action("Ann", {"plant": ["R D3"]}, at(0)), Action("Bob", {"plant": ["R D5"]}, at(180))]
    assert replay(config, late).state.clock.reserve("Bob") == 540
    assert get_game("flowerfield").time_control(outcome.state).step == 60
