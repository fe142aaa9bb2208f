"""Adjudication of the Gyulbot death match (RULES D1.4, D5) through the shared DM interface.

The puzzle: 4x4, red at r4c1, blue at r2c3, red goal at r1c4. Its minimum is 2
("Red UR" or "Red RU"); "Red U" alone does not reach the goal.
"""
from __future__ import annotations

from datetime import datetime, timedelta, timezone

import pytest

from pbem.dm.base import Action, Config, SetupError, get_game, replay
from pbem.engine.vocabulary import Termination
from pbem.formats.gyulbot import parse_puzzle
from pbem.formats.transcript import load_transcript
from pbem.formats.yamlfile import FormatError

PUZZLE = parse_puzzle({"size": 4, "walls": [], "robots": {"red": ["r4c1"], "blue": ["r2c3"]},
                       "goal": {"at": "r1c4", "colour": "red"}})
T0 = datetime(2026, 3, 1, 20, 0, tzinfo=timezone.utc)
GOOD, BAD = "Red UR", "Red U"


def act(player: str, seconds: float | None, **payload) -> Action:
    return Action(player, payload, None if seconds is None else T0 + timedelta(seconds=seconds))


def run(actions, rounds=1, **options):
    config = Config("gyulbot", ("ann", "bob"), options={"rounds": rounds, **options}, puzzles=(PUZZLE,) * 12)
    return replay(config, actions)


def test_d1_4_undercut_demonstrated_scores_b():
    r = run([act("ann", 0, claim=5), act("bob", 30, undercut=2), act("bob", 100, solution=GOOD)])
    assert r.errors == [] and r.result.over and r.result.winner == "bob"
    assert r.result.scores == {"ann": 0, "bob": 1}


def test_d1_4_failed_undercut_scores_a_and_halves_b_next_round():
    # bob's failed undercut is final once he gives up (skip) at 21 s; round 2 opens then and
    # bob's claim window is 5 minutes instead of 10 (D1.4 ruling: the claim window is the answer time)
    failed = [act("ann", 0, claim=3), act("bob", 10, undercut=1), act("bob", 20, solution=BAD), act("bob", 21, skip=True)]
    r = run(failed + [act("bob", 21 + 301, claim=4)], rounds=2)
    assert r.result.scores == {"ann": 1, "bob": 0}
    assert r.errors and r.errors[0][0] == 4 and "halved" in r.errors[0][1]
    r = run(failed + [act("bob", 21 + 299, claim=4)], rounds=2)  # within the halved window the claim stands
    assert r.errors == [] and r.state.claimant == "bob"


def test_d1_4_a_failed_demonstration_may_be_replaced_until_the_deadline():
    # bob undercuts at 30 s; the minute ends at 60 s and his 2 minutes at 180 s (D1.4 ruling)
    replaced = run([act("ann", 0, claim=5), act("bob", 30, undercut=2), act("bob", 40, solution=BAD),
                    act("bob", 100, solution=GOOD)])
    assert replaced.errors == [] and replaced.result.winner == "bob"
    # a failure nobody replaces is scored when the deadline passes, by whatever action comes next
    lapsed = run([act("ann", 0, claim=5), act("bob", 30, undercut=2), act("bob", 40, solution=BAD),
                  act("ann", 181, claim=4)], rounds=2)
    assert lapsed.errors == [] and lapsed.result.scores == {"ann": 1, "bob": 0}
    assert lapsed.state.round == 2 and lapsed.state.halved == "bob" and lapsed.state.claimant == "ann"


def test_d1_4_the_undercut_window_is_never_halved():
    # bob is halved in round 2 (round 2 opens at 21 s), ann claims at 30 s: bob still has the whole minute
    base = [act("ann", 0, claim=3), act("bob", 10, undercut=1), act("bob", 20, solution=BAD), act("bob", 21, skip=True),
            act("ann", 30, claim=4)]
    in_time = run(base + [act("bob", 30 + 45, undercut=2)], rounds=2)
    assert in_time.errors == [] and in_time.state.demonstrator == "bob"
    late = run(base + [act("bob", 30 + 61, undercut=2)], rounds=2)
    assert late.errors and "too late" in late.errors[0][1] and "undercutting is over" in late.errors[0][1]


def test_d1_4_undercut_demonstration_late_scores_a():
    # bob undercuts at 30 s: his 2 minutes start when the minute ends (60 s), so the deadline is 180 s
    on_time = run([act("ann", 0, claim=5), act("bob", 30, undercut=2), act("bob", 180, solution=GOOD)])
    assert on_time.result.winner == "bob"
    late = run([act("ann", 0, claim=5), act("bob", 30, undercut=2), act("bob", 181, solution=GOOD)])
    # D1.4 ruling: the deadline scores the round and ends the match although the late solution is refused
    assert late.result.scores == {"ann": 1, "bob": 0} and late.result.over
    assert [i for i, _ in late.errors] == [2] and late.errors[0][1].startswith("too late: at 2026-03-01 20:03:00 UTC no demonstration of 2 in time: ann scores.")
    assert "bob did not demonstrate 2 in time" in late.state.log[0]


def test_d1_4_no_undercut_a_demonstrates_and_scores():
    # the undercut window ends at 60 s; ann's 2 minutes run to 180 s
    r = run([act("ann", 0, claim=2), act("ann", 170, solution=GOOD)])
    assert r.errors == [] and r.result.scores == {"ann": 1, "bob": 0}


def test_d1_4_a_fails_demonstration_scores_b_without_halving():
    r = run([act("ann", 0, claim=2), act("ann", 70, solution=BAD), act("ann", 100 + 400, claim=3)], rounds=2)
    assert r.result.scores == {"ann": 0, "bob": 1}
    assert r.errors == [] and r.state.halved is None


def test_d1_4_demonstration_longer_than_claim_fails():
    # untimed, so the failed demonstration is final (there is no deadline to replace it before)
    r = run([act("ann", None, claim=1), act("bob", None, skip=True), act("ann", None, solution="Red RU")])
    assert r.errors == [] and r.result.scores == {"ann": 0, "bob": 1}


def test_d1_4_b_declines_and_a_clock_starts_at_once():
    # bob passes at 10 s, so ann's deadline is 130 s, not 180 s
    r = run([act("ann", 0, claim=2), act("bob", 10, skip=True), act("ann", 131, solution=GOOD)])
    assert r.result.scores == {"ann": 0, "bob": 1}
    r = run([act("ann", 0, claim=2), act("bob", 10, skip=True), act("ann", 129, solution=GOOD)])
    assert r.result.scores == {"ann": 1, "bob": 0}


def test_d1_4_a_may_undercut_themself_once_without_halving():
    r = run([act("ann", 0, claim=5), act("ann", 10, undercut=3), act("ann", 20, undercut=2)])
    assert len(r.errors) == 1 and r.errors[0][0] == 2 and "once" in r.errors[0][1]
    assert r.state.claim == 3
    # the self-undercut fails: bob scores and nobody's time is halved next round
    r = run([act("ann", 0, claim=5), act("ann", 10, undercut=1), act("bob", 20, skip=True),
             act("ann", 30, solution=GOOD), act("ann", 31, skip=True)], rounds=2)
    assert r.result.scores == {"ann": 0, "bob": 1} and r.state.halved is None


def test_d1_4_undercut_must_be_lower_and_in_the_window():
    r = run([act("ann", 0, claim=3), act("bob", 10, undercut=3), act("bob", 61, undercut=2)])
    assert [i for i, _ in r.errors] == [1, 2]
    assert "fewer than 3" in r.errors[0][1]
    assert "too late" in r.errors[1][1] and "ann is demonstrating 3" in r.errors[1][1]


def test_d1_4_no_claim_in_ten_minutes_scores_nobody():
    # round 1 opens at the `start` option; nobody claims by 600 s
    r = run([act("ann", 601, claim=2)], rounds=2, start=T0.isoformat())
    assert r.state.round == 2 and r.state.log[0].startswith("round 1: no claim")
    assert r.result.scores == {"ann": 0, "bob": 0} and r.state.claimant == "ann"


def test_d1_4_both_pass_scores_nobody():
    r = run([act("ann", 0, skip=True), act("bob", 5, skip=True)], rounds=2)
    assert r.state.round == 2 and r.result.scores == {"ann": 0, "bob": 0}


def test_d1_4_most_points_after_five_rounds_wins():
    actions = []
    for k, who in enumerate(["ann", "bob", "ann", "ann", "bob"]):
        t = k * 100
        actions += [act(who, t, claim=2), act("ann" if who == "bob" else "bob", t + 1, skip=True),
                    act(who, t + 2, solution=GOOD)]
    r = run(actions, rounds=5)
    assert r.errors == [] and r.result.over and r.result.winner == "ann"
    assert r.result.scores == {"ann": 3, "bob": 2} and r.result.termination == Termination.ROUNDS_PLAYED


def tie_then(tiebreak, extra):
    """Rounds: ann scores, bob scores; then whatever `extra` holds."""
    actions = [act("ann", 0, claim=2), act("bob", 1, skip=True), act("ann", 2, solution=GOOD),
               act("bob", 10, claim=2), act("ann", 11, skip=True), act("bob", 12, solution=GOOD)] + extra
    return run(actions, rounds=2, tiebreak=tiebreak, opponent="ann")


def test_d1_4_tie_goes_to_designated_opponent():
    r = tie_then("opponent", [])
    assert r.result.over and r.result.winner == "ann" and r.result.scores == {"ann": 1, "bob": 1}
    assert r.result.termination == Termination.TIEBREAK


def test_d1_4_tiebreak_round_then_opponent():
    r = tie_then("round", [])
    assert not r.result.over and r.state.round == 3
    won = tie_then("round", [act("bob", 20, claim=2), act("ann", 21, skip=True), act("bob", 22, solution=GOOD)])
    assert won.result.over and won.result.winner == "bob" and won.result.termination == Termination.TIEBREAK
    # nobody claims in the tiebreak round either: the opponent wins
    # (round 3 opened at 12 s; its 10 minutes end at 612 s and bob's late skip is refused)
    still_tied = tie_then("round", [act("bob", 20 + 601, skip=True)])
    assert [i for i, _ in still_tied.errors] == [6] and "too late" in still_tied.errors[0][1]
    assert still_tied.result.over and still_tied.result.winner == "ann"


def test_d1_4_ten_rounds_default_to_a_tiebreak_round():
    state = get_game("gyulbot").new_state(Config("gyulbot", ("ann", "bob"), options={"rounds": 10},
                                                 puzzles=(PUZZLE,) * 10))
    assert state.settings.tiebreak == "round"


def test_illegal_actions_change_nothing():
    game = get_game("gyulbot")
    state = game.new_state(Config("gyulbot", ("ann", "bob"), options={"rounds": 1}, puzzles=(PUZZLE,)))
    for action in [act("carl", 0, claim=2), act("ann", 0, claim=0), act("ann", 0, solution=GOOD),
                   act("ann", 0, claim=2, skip=True), act("ann", 0, undercut=1), act("bob", 0, skip="yes")]:
        assert game.check(state, action) is not None
        with pytest.raises(ValueError):
            game.apply(state, action)
    state = game.apply(state, act("ann", 100, claim=2))
    assert game.check(state, act("bob", 50, undercut=1)).startswith("time stamp")
    assert "neither a colour" in game.check(game.apply(state, act("bob", 101, skip=True)),
                                            act("ann", 102, solution="Purple U"))


def test_unparseable_solution_may_be_sent_again():
    r = run([act("ann", 0, claim=2), act("bob", 1, skip=True), act("ann", 2, solution="Rd UR"),
             act("ann", 3, solution=GOOD)])
    assert [i for i, _ in r.errors] == [2] and r.result.winner == "ann"


def test_actions_without_time_stamps_are_never_late():
    r = run([act("ann", None, claim=2), act("bob", None, skip=True), act("ann", None, solution=GOOD)])
    assert r.errors == [] and r.result.winner == "ann"


def test_match_over_refuses_more_actions():
    r = run([act("ann", 0, claim=2), act("bob", 1, skip=True), act("ann", 2, solution=GOOD), act("bob", 3, claim=1)])
    assert r.errors == [(3, "the match is over")]


def test_bad_options_are_reported_together():
    with pytest.raises(SetupError) as err:
        get_game("gyulbot").new_state(Config("gyulbot", ("ann", "bob"), options={"rounds": 0, "tiebreak": "coin",
                                                                                   "colour": 1}))
    assert [field for field, _ in err.value.problems] == ["options.colour", "options.rounds", "options.tiebreak"]


def test_bad_options_and_puzzles_of_a_transcript_are_reported_together():
    text = ("game: gyulbot\nplayers: [ann, bob]\noptions: {rounds: 0, tiebreak: coin, colour: 1}\n"
            "puzzles:\n  - {size: 4, robots: {red: [r9c9]}, goal: r1c1}\n")
    with pytest.raises(FormatError) as err:
        load_transcript(text, "t.yaml")
    assert sorted(p.field for p in err.value.problems) == [
        "options.colour", "options.rounds", "options.tiebreak", "puzzles[0].robots.red"]


def test_render_data_describes_the_position():
    state = get_game("gyulbot").new_state(Config("gyulbot", ("ann", "bob"), puzzles=(PUZZLE,) * 5))
    data = get_game("gyulbot").render_data(state)
    assert data["rows"] == 4 and data["goal"] == {"at": [1, 4], "colour": "red"}
    assert data["robots"] == [{"colour": "red", "squares": [[4, 1]]}, {"colour": "blue", "squares": [[2, 3]]}]
    assert data["round"] == 1 and data["phase"] == "claims" and data["scores"] == {"ann": 0, "bob": 0}


def test_d1_5_missing_puzzles_are_generated_from_the_seed():
    """A transcript without puzzles gets seeded puzzles of the `moves` minimum (B13: same seed, same puzzle)."""
    from pbem.dm.gyulbot.bfs import bfs_solve

    config = Config("gyulbot", ("ann", "bob"), options={"moves": 3}, seed=11)
    game = get_game("gyulbot")
    first, again = game.new_state(config), game.new_state(config)
    assert first.puzzle == again.puzzle and (first.puzzle.rows, first.puzzle.cols) == (16, 16)
    assert len(bfs_solve(first.puzzle, 3)) == 3


def test_d5_only_the_action_that_crosses_a_deadline_is_called_late():
    """After a deadline has passed and been applied, a later mistake is refused for what it is, not as "too late"
    (the old engine kept labelling every refusal after a clock change as late)."""
    r = run([act("ann", 0, claim=5), act("bob", 61, undercut=2),  # the minute is over: refused as late
             act("bob", 70, undercut=1),  # still wrong, but nothing new passed: a plain refusal
             act("ann", 80, solution=GOOD)], rounds=1)
    assert [i for i, _ in r.errors] == [1, 2]
    assert r.errors[0][1].startswith("too late: at 2026-03-01 20:01:00 UTC no undercut: ann demonstrates 5.")
    assert r.errors[1][1] == "ann is demonstrating 5; undercutting is over"
    assert r.result.winner == "ann"
