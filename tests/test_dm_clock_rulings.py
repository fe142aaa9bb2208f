"""RULES D5's newer rulings, as held-out-style transcripts with hand-computed outcomes.

Take-Back-Toe's default clock (seed 001): 60 s a turn, then a 300 s reserve spent in 1 s steps. Red (home A)
moves first. The moves below are legal by D3.2 (checked by hand: 4 B2-A2 leaves A2=4, B2=6; 3 B3-C3 leaves
B3=7, C3=3; 3 A2-A1 takes 3 of A2's 4), so only the clock decides.
"""
from __future__ import annotations

from datetime import datetime, timezone

import pytest

from pbem.dm import get_game, replay
from pbem.dm.clock import advance
from pbem.engine.vocabulary import Termination
from pbem.formats.transcript import load_transcript

HEAD = """game: takebacktoe
players: [Red, Green]
actions:
  - {player: Red, at: "2021-06-01T20:00:00Z", roll: 4, move: B2-A2}
  - {player: Green, at: "2021-06-01T20:02:00Z", roll: 3, move: B3-C3}
"""


def play(tail: str):
    transcript = load_transcript(HEAD + tail)
    return transcript.config, replay(transcript.config, list(transcript.actions))


def test_d5_rolls_written_in_moves_plain_the_turn_runs_from_the_previous_action():
    """Green moved at 20:02:00, 120 s after Red: 60 s over the turn, reserve 300 - 60 = 240. Red's roll is written
    in Red's move at 20:09:01, 421 s after Green's: 361 s over the minute, more than Red's 300 s: Red ran out of
    time, Green wins (D5 ruling: the roll carries no time of its own)."""
    _, outcome = play('  - {player: Red, at: "2021-06-01T20:09:01Z", roll: 3, move: A2-A1}\n')
    assert outcome.errors == []
    assert outcome.result.winner == "Green" and outcome.result.termination is Termination.OUT_OF_TIME
    assert outcome.state.clock.reserve("Green") == 240


def test_d5_rolls_written_in_moves_an_extension_between_acts_on_the_running_deadline():
    """Red's turn ran from 20:02:00: deadline 20:02:00 + 60 + 300 = 20:08:00. The GM's 120 s at 20:03:00 act on it
    (to 20:10:00). Red's move at 20:09:01 is 421 s in: 421 - 60 - 120 = 241 s of reserve, leaving 59; play goes on."""
    _, outcome = play('  - {player: GM, at: "2021-06-01T20:03:00Z", extend: 120}\n'
                      '  - {player: Red, at: "2021-06-01T20:09:01Z", roll: 3, move: A2-A1}\n')
    assert outcome.errors == []
    assert not outcome.result.over
    assert outcome.state.clock.reserve("Red") == 59 and outcome.state.clock.reserve("Green") == 240


def test_d5_rolls_written_in_moves_a_timeout_claim_between_acts_on_the_running_deadline():
    """Red's deadline is 20:08:00 (from Green's move at 20:02:00). Green's claim at 20:05:00 is refused: Red still
    has time. The claim at 20:08:01 is after the deadline: Red ran out of time, Green wins; Red's move at 20:08:30
    comes after the end."""
    _, outcome = play('  - {player: Green, at: "2021-06-01T20:05:00Z", timeout: true}\n'
                      '  - {player: Green, at: "2021-06-01T20:08:01Z", timeout: true}\n'
                      '  - {player: Red, at: "2021-06-01T20:08:30Z", roll: 3, move: A2-A1}\n')
    assert outcome.errors[0] == (2, "Red still has time until 2021-06-01 20:08:00 UTC (claimed at "
                                    "2021-06-01 20:05:00 UTC)")
    assert [index for index, _ in outcome.errors] == [2, 4]
    assert outcome.result.winner == "Green" and outcome.result.termination is Termination.OUT_OF_TIME


def test_d5_rolls_written_in_moves_the_gms_timeout_closes_the_running_deadline_now():
    _, outcome = play('  - {player: GM, at: "2021-06-01T20:04:00Z", timeout: true}\n')
    assert outcome.errors == []
    assert outcome.result.winner == "Green" and outcome.result.termination is Termination.OUT_OF_TIME


def test_d5_the_scheduled_run_waits_for_a_roll_the_gm_has_not_entered():
    """With the GM's dice the scheduled run never times out a player whose roll has not come (D5 roll ruling)."""
    config, outcome = play("")
    game = get_game(config.game)
    later = datetime(2021, 6, 2, tzinfo=timezone.utc)
    assert game.deadline(outcome.state) is None and advance(game, outcome.state, later)[1] == []


def test_d5_untimed_actions_pass_no_deadline_between_them():
    """Green's and Red's moves carry no time: no deadline passes between them and nothing is charged, so Green's
    move at 23:00, three hours after the last stamped action, is in time (D5 ruling on untimed transcripts)."""
    transcript = load_transcript("""game: takebacktoe
players: [Red, Green]
actions:
  - {player: Red, at: "2021-06-01T20:00:00Z", roll: 4, move: B2-A2}
  - {player: Green, roll: 3, move: B3-C3}
  - {player: Red, roll: 3, move: A2-A1}
  - {player: Green, at: "2021-06-01T23:00:00Z", roll: 1, move: B1-C1}
""")
    outcome = replay(transcript.config, list(transcript.actions))
    assert outcome.errors == [] and not outcome.result.over
    assert dict(outcome.state.clock.reserves) == {"Red": 300, "Green": 300}


START = datetime(2026, 12, 1, 20, 0, tzinfo=timezone.utc)


@pytest.mark.parametrize("game, options, seconds", [
    ("takebacktoe", {}, 60 + 300),  # engine dice: the first roll is made at the start
    ("flowerfield", {}, 120 + 60 + 600),  # classic: 2 min a turn (+1 min for a challenge), 10 min reserve
])
def test_d5_the_first_movers_clock_runs_from_the_start(game, options, seconds):
    from datetime import timedelta

    from pbem.dm import Config

    rules = get_game(game)
    state = rules.new_state(Config(game, ("ann", "bob"), None, {**options, "start": "2026-12-01T20:00:00Z"}, 1))
    deadline = rules.deadline(state)
    assert deadline is not None and deadline.waiting == "ann" and deadline.at == START + timedelta(seconds=seconds)
    after, passed = advance(rules, state, START + timedelta(seconds=seconds + 1))
    assert passed and rules.result(after).winner == "bob"
    assert rules.result(after).termination is Termination.OUT_OF_TIME


def test_a_start_that_is_not_a_time_stamp_is_refused_naming_the_option():
    from pbem.dm import Config
    from pbem.dm.base import SetupError

    with pytest.raises(SetupError, match="options.start: must be a time stamp"):
        get_game("flowerfield").new_state(Config("flowerfield", ("ann", "bob"), None, {"start": "soon"}))


def test_a_move_after_the_end_is_told_the_deadline_it_missed():
    """ann's deadline passed at 20:06:00 (60 s + 300 s from the 20:00 start); the scheduled run applied it; her move
    at 21:00 is refused with that deadline named, not a bare "the game is over"."""
    from pbem.dm import Action, Config
    from pbem.dm.clock import GM, submit

    rules = get_game("takebacktoe")
    state = rules.new_state(Config("takebacktoe", ("ann", "bob"), None, {"start": "2026-12-01T20:00:00Z"}, 1))
    _, state = submit(rules, state, Action(GM, {"timeout": True}, datetime(2026, 12, 1, 20, 30, tzinfo=timezone.utc)))
    records, _ = submit(rules, state, Action("ann", {"move": "B1-A1"}, datetime(2026, 12, 1, 21, tzinfo=timezone.utc)))
    assert records[-1].reason == ("the game is over: bob won, ann ran out of time (the deadline was "
                                  "2026-12-01 20:06:00 UTC)")
