"""RULES D2.3 and D5: every outcome of an Ice maze round, adjudicated against action time stamps.

The maze: one snom on r1c1, a goal on r5c5, a rock on r3c3. By hand its minimum
is 2 (RD or DR; no single order reaches the goal); LRD and URD are correct
3-order solutions (the first order moves nothing); RR is not a solution.
"""
from datetime import datetime, timedelta, timezone

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from pbem.dm.base import Action, Config, SetupError, get_game, replay
from pbem.dm.icemaze import Maze, solve
from pbem.engine.vocabulary import Termination
from pbem.formats.icemaze import parse_maze
from pbem.formats.transcript import load_transcript
from pbem.formats.yamlfile import FormatError

MAZE = parse_maze({"map": "S....\n.....\n..#..\n.....\n....G"})
T0 = datetime(2026, 1, 1, 12, 0, tzinfo=timezone.utc)
GAME = get_game("ice")


def config(mazes: int = 25, **options) -> Config:
    return Config("ice", ("ann", "bob"), options=options, puzzles=(MAZE,) * mazes)


def act(player: str, seconds: float | None, **payload) -> Action:
    return Action(player, payload, None if seconds is None else T0 + timedelta(seconds=seconds))


def play(*actions: Action, mazes: int = 25, **options):
    return replay(config(mazes, **options), list(actions))


def passes(player: str, seconds: float | None) -> Action:
    return act(player, seconds, **{"pass": True})


def scores(result) -> tuple[int, int]:
    return result.result.scores["ann"], result.result.scores["bob"]


def test_d2_3_buzzer_correct_and_unanswered_scores_when_the_answer_minute_ends():
    run = play(act("ann", 0, claim=3), act("ann", 30, solution="LRD"), act("bob", 91, claim=2))
    assert run.errors == []
    assert scores(run) == (1, 0)
    # the answer window closed at 90 s; bob's buzz belongs to round 2
    assert run.state.rounds == 1 and run.state.round.maze == 1 and run.state.round.buzzer == 1


def test_d2_3_buzzer_scores_when_the_opponent_passes():
    run = play(act("ann", 0, claim=3), act("ann", 30, solution="LRD"), act("bob", 40, **{"pass": True}))
    assert run.errors == [] and scores(run) == (1, 0) and run.state.rounds == 1


def test_d2_3_opponent_scores_with_a_strictly_shorter_correct_solution():
    run = play(act("ann", 0, claim=3), act("ann", 30, solution="LRD"), act("bob", 50, solution="RD"))
    assert run.errors == [] and scores(run) == (0, 1)


def test_d2_3_equal_length_answer_leaves_the_point_to_the_buzzer():
    run = play(act("ann", 0, claim=3), act("ann", 30, solution="LRD"), act("bob", 50, solution="URD"))
    assert run.errors == [] and scores(run) == (1, 0)


def test_d2_3_shorter_but_wrong_answer_leaves_the_point_to_the_buzzer():
    run = play(act("ann", 0, claim=3), act("ann", 30, solution="LRD"), act("bob", 50, solution="RR"))
    assert run.errors == [] and scores(run) == (1, 0)


def test_d2_3_incorrect_buzzer_gives_the_opponent_the_point_at_once():
    run = play(act("ann", 0, claim=2), act("ann", 30, solution="RR"))
    assert run.errors == [] and scores(run) == (0, 1) and run.state.rounds == 1


def test_d2_3_solution_of_another_length_than_buzzed_is_incorrect():
    # RD solves the maze, but ann buzzed 3
    run = play(act("ann", 0, claim=3), act("ann", 30, solution="RD"))
    assert scores(run) == (0, 1)
    # and longer than buzzed is just as wrong
    run = play(act("bob", 0, claim=2), act("bob", 30, solution="LRD"))
    assert scores(run) == (1, 0)


def test_d2_3_ruling_the_opponents_minute_runs_even_after_a_minimal_solution():
    # RD is the proven minimum (2): the round still waits for bob's minute, from 30 s to 90 s
    run = play(act("ann", 0, claim=2), act("ann", 30, solution="RD"))
    assert scores(run) == (0, 0) and run.state.rounds == 0 and run.state.round.presented == "RD"
    # an answer inside the minute is legal and judged: not shorter, so ann's point; the next maze opens with it
    answered = play(act("ann", 0, claim=2), act("ann", 30, solution="RD"), act("bob", 80, solution="DR"))
    assert answered.errors == [] and scores(answered) == (1, 0) and answered.state.rounds == 1
    assert answered.state.round.maze == 1 and answered.state.round.opened == T0 + timedelta(seconds=80)
    # nobody answers: ann scores when the minute passes, and the next maze opens then, not at her solution
    silent = play(act("ann", 0, claim=2), act("ann", 30, solution="RD"), act("bob", 100, claim=3))
    assert silent.errors == [] and scores(silent) == (1, 0)
    assert silent.state.round.opened == T0 + timedelta(seconds=90) and silent.state.round.buzzer == 1


def test_d2_3_late_buzzer_gives_the_opponent_the_point():
    on_time = play(act("ann", 0, claim=2), act("ann", 60, solution="RD"), act("bob", 70, **{"pass": True}))
    assert on_time.errors == [] and scores(on_time) == (1, 0)
    late = play(act("ann", 0, claim=2), act("ann", 61, solution="RD"))
    # the deadline gives bob the point; ann's late solution is refused and says why
    assert scores(late) == (0, 1) and [i for i, _ in late.errors] == [1]
    assert late.errors[0][1].startswith("too late: at 2026-01-01 12:01:00 UTC ann did not present 2 orders: bob scores.")


def test_d2_3_late_opponent_scores_nothing():
    run = play(act("ann", 10, claim=3), act("ann", 10, solution="LRD"), act("bob", 71, solution="RD"))
    assert scores(run) == (1, 0) and [i for i, _ in run.errors] == [2] and "too late" in run.errors[0][1]


def test_d5_gm_extension_moves_the_deadline():
    run = play(act("ann", 0, claim=2), act("GM", 50, extend=30), act("ann", 80, solution="RD"), passes("bob", 85))
    assert run.errors == [] and scores(run) == (1, 0)
    assert "GM extended the deadline by 30 s" in run.state.history


@pytest.mark.parametrize("claim", [0, 16, -3, "8", 8.5, True, None])
def test_d2_3_anything_but_a_number_from_1_to_15_is_no_buzz(claim):
    before = GAME.new_state(config())
    action = act("ann", 5, claim=claim)
    assert GAME.check(before, action).startswith("not a buzz")
    run = play(action, act("bob", 6, claim=2))
    assert run.errors[0][0] == 0
    assert run.state.round.buzzer == 1  # the first legal buzz was bob's


def test_d2_3_only_the_first_buzz_counts():
    run = play(act("ann", 0, claim=5), act("bob", 1, claim=2))
    assert run.errors == [(1, "ann has already buzzed in this round")]
    assert run.state.round.claim == 5


def test_d2_3_no_buzz_in_ten_minutes_junks_the_round():
    run = play(act("ann", 0, claim=9), act("ann", 5, solution="LLLLLLLLL"), act("bob", 605 + 600, claim=4))
    # round 1: ann's wrong 9 gives bob the point at 5 s; round 2 opens at 5 s and is junked at 605 s
    assert scores(run) == (0, 1)
    assert run.state.rounds == 2 and run.state.round.maze == 2 and run.state.round.buzzer == 1
    assert run.state.history[-1] == "round 2: maze 2: nobody buzzed, round junked"
    in_time = play(act("ann", 0, claim=9), act("ann", 5, solution="LLLLLLLLL"), act("bob", 605, claim=4))
    assert in_time.state.rounds == 1 and in_time.state.round.buzzer == 1


def test_d2_3_first_round_clock_starts_at_the_start_option():
    run = play(act("ann", 601, claim=2), start=T0)
    assert run.state.rounds == 1 and run.state.round.maze == 1 and scores(run) == (0, 0)


def test_d2_3_leader_may_skip_one_maze_when_nobody_has_buzzed():
    lead = [act("ann", 0, claim=2), act("ann", 10, solution="RD"), passes("bob", 15)]  # ann leads 1-0
    run = play(*lead, act("bob", 20, skip=True), act("ann", 21, skip=True), act("ann", 22, skip=True))
    assert run.errors == [
        (3, "only the leader may skip a maze (ann 1 - bob 0)"),
        (5, "ann has already skipped a maze in this match"),
    ]
    assert run.state.round.maze == 2 and run.state.rounds == 1  # a skipped maze is not a round
    run = play(*lead, act("bob", 20, claim=4), act("ann", 21, skip=True))
    assert run.errors == [(4, "a maze can only be skipped before anyone buzzes")]
    assert play(act("ann", 0, skip=True)).errors == [(0, "only the leader may skip a maze (ann 0 - bob 0)")]


def test_d2_3_first_to_seven_wins():
    actions = []
    for round_ in range(7):
        actions += [act("bob", 10 * round_, claim=2), act("bob", 10 * round_ + 5, solution="DR"),
                    passes("ann", 10 * round_ + 6)]
    run = play(*actions, act("ann", 100, claim=2))
    assert run.result.over and run.result.winner == "bob" and scores(run) == (0, 7)
    assert run.result.termination == Termination.TARGET_SCORE
    assert run.errors == [(21, "the match is over")]


def test_d2_3_after_twenty_rounds_the_leader_wins():
    # ann scores round 1 when bob passes at 15 s; rounds 2-20 are junked, every 600 s from then on
    first = [act("ann", 0, claim=2), act("ann", 10, solution="RD"), passes("bob", 15)]
    run = play(*first, act("bob", 15 + 19 * 600 + 1, claim=3))
    assert run.state.rounds == 20 and run.result.over and run.result.winner == "ann"
    assert run.result.termination == Termination.ROUNDS_PLAYED
    unfinished = play(*first, act("bob", 15 + 18 * 600 + 1, claim=3))
    assert unfinished.state.rounds == 19 and not unfinished.result.over and unfinished.result.termination is None


def test_d2_3_level_after_the_last_round_is_a_draw():
    run = play(act("bob", 3 * 600 + 1, claim=3), start=T0, max_rounds=3)
    assert run.result.over and run.result.winner is None and scores(run) == (0, 0)
    assert run.result.termination == Termination.ROUNDS_PLAYED


@pytest.mark.parametrize(
    "actions,reason",
    [
        ([act("ann", 0, solution="RD")], "nobody has buzzed; buzz first with {claim: N}"),
        ([act("ann", 0, claim=2), act("bob", 1, solution="RD")], "ann buzzed and presents first"),
        ([act("ann", 0, claim=3), act("ann", 1, solution="LRD"), act("ann", 2, solution="RD")], "ann has already presented LRD"),
        ([act("ann", 0, claim=2), act("ann", 1, solution="RX")], "'X' in the solution is not an order (L, R, U or D)"),
        ([act("ann", 0, claim=2), act("ann", 1, solution=12)], "a solution is a string of L, R, U, D, not 12"),
        ([act("ann", 10, claim=2), act("bob", 5, claim=3)], "time stamp 2026-01-01T12:00:05+00:00 is earlier than the previous action (2026-01-01T12:00:10+00:00)"),
        ([act("carol", 0, claim=2)], "'carol' does not play in this match (ann and bob)"),
        ([act("bob", 0, undercut=2)], "the Ice maze has no undercut: the opponent answers with a shorter {solution: ...}"),
        ([act("bob", 0, claim=2, skip=True)], "an Ice action is exactly one of claim, solution, skip, pass, timeout, extend; got claim, skip"),
        ([act("ann", 0, extend=30)], "only the GM extends a deadline"),
        ([act("ann", 0, claim=3), act("ann", 1, solution="LRD"), act("ann", 2, **{"pass": True})], "a pass answers the opponent's presented solution"),
    ],
)
def test_illegal_actions_get_a_reason_and_change_nothing(actions, reason):
    *legal, illegal = actions
    before = play(*legal)
    assert GAME.check(before.state, illegal) == reason
    after = play(*actions)
    assert after.errors == [(len(actions) - 1, reason)]
    assert after.state == before.state


def test_d2_4_after_the_transcripts_mazes_the_engine_deals_generated_ones():
    first = [act("ann", 0, claim=2), act("ann", 10, solution="RD"), passes("bob", 15)]
    run = play(*first, mazes=1, size="6x7", moves=5, snoms=1)
    assert run.state.round.maze == 1
    rows = GAME.render_data(run.state)["rows"]
    assert len(rows) == 6 and len(rows[0]) == 7
    maze = Maze.from_rows(rows)
    assert len(maze.snoms) == 1 and solve(maze).moves == 5
    # the same seed deals the same maze; another seed another one
    again = play(*first, mazes=1, size="6x7", moves=5, snoms=1)
    assert GAME.render_data(again.state)["rows"] == rows
    other = replay(Config("ice", ("ann", "bob"), options={"size": "6x7", "moves": 5, "snoms": 1}, seed=9, puzzles=(MAZE,)),
                   first)
    assert GAME.render_data(other.state)["rows"] != rows


def test_timeout_claims_a_passed_deadline_and_nothing_else():
    presented = [act("ann", 0, claim=3), act("ann", 30, solution="LRD")]
    early = play(*presented, act("ann", 60, timeout=True))
    assert early.errors == [(2, "bob still has time until 2026-01-01 12:01:30 UTC (claimed at 2026-01-01 12:01:00 UTC)")]
    own = play(*presented, act("bob", 80, timeout=True))
    assert own.errors == [(2, "a player cannot claim their own time has run out")]
    run = play(*presented, act("ann", 91, timeout=True))
    assert run.errors == [] and scores(run) == (1, 0) and run.state.rounds == 1
    # the GM may claim it too, and a timeout that decides the match ends it
    final = play(*presented, act("GM", 91, timeout=True), target=1)
    assert final.result.over and final.result.winner == "ann"
    # before any clock runs there is nothing to claim
    # before any clock runs the first time stamp opens the round: nothing has passed yet
    assert play(act("bob", 700, timeout=True)).errors == [
        (0, "the running deadline still has time until 2026-01-01 12:21:40 UTC (claimed at 2026-01-01 12:11:40 UTC)")]


def test_untimed_actions_never_run_late():
    run = play(act("ann", None, claim=2), act("ann", None, solution="RD"), passes("bob", None))
    assert run.errors == [] and scores(run) == (1, 0)


def test_render_data_shows_the_current_maze_and_scores():
    run = play(act("ann", 0, claim=2), act("ann", 10, solution="RD"), passes("bob", 15))
    data = GAME.render_data(run.state)
    assert data["rows"] == ["S....", ".....", "..#..", ".....", "....G"]
    assert data["scores"] == [1, 0] and data["title"] == "Ice maze 2"


def test_bad_set_up_is_refused():
    with pytest.raises(SetupError) as caught:
        GAME.new_state(Config("ice", ("ann",), options={"lives": 3, "target": 0, "size": "4x4"}, puzzles=(MAZE,)))
    assert caught.value.problems == [
        ("options.lives", "unknown option (known: target, max_rounds, present_seconds, answer_seconds, junk_seconds,"
                          " moves, snoms, bank, size, start)"),
        ("players", "the Ice maze needs two different players"),
        ("options.target", "must be a whole number of at least 1, not 0"),
        ("options.size", "4x4 is not 5x5 to 20x20"),
    ]


def test_a_bad_maze_in_a_transcript_is_refused_with_its_line():
    text = "game: ice\nplayers: [ann, bob]\npuzzles:\n  - {map: [S...., ....., ....G]}\n  - {map: [S...G]}\n"
    with pytest.raises(FormatError) as caught:
        load_transcript(text, "t.yaml")
    assert [str(p) for p in caught.value.problems] == ["t.yaml:4: puzzles[0].map: 3 rows; a maze has 5 to 20",
                                                       "t.yaml:5: puzzles[1].map: 1 rows; a maze has 5 to 20"]


def test_render_data_after_the_match_shows_the_last_maze_played():
    other = Maze.from_rows(["S...G", ".....", ".....", ".....", "....."])
    cfg = Config("ice", ("ann", "bob"), options={"target": 1}, puzzles=(MAZE, other))
    run = replay(cfg, [act("ann", 0, claim=2), act("ann", 10, solution="RD"), passes("bob", 15)])
    data = GAME.render_data(run.state)
    assert run.result.over and data["title"] == "Ice maze 1"
    assert data["rows"][0] == "S...." and data["lines"][1] == "match over: ann wins"


payload_values = st.one_of(st.none(), st.booleans(), st.integers(-5, 40), st.floats(allow_nan=True), st.text(max_size=20),
                           st.lists(st.integers(), max_size=3), st.dictionaries(st.text(max_size=3), st.integers(), max_size=2))


@settings(max_examples=100, deadline=None)  # 7 s at 300; what a refusal must not change is the same each time
@given(
    player=st.sampled_from(["ann", "bob", "GM", "carol", ""]),
    payload=st.dictionaries(st.sampled_from(["claim", "solution", "skip", "pass", "timeout", "extend", "undercut", "x"]),
                            payload_values, max_size=3),
    seconds=st.one_of(st.none(), st.integers(0, 5000)),
)
def test_hostile_actions_never_crash_and_refusals_change_nothing(player, payload, seconds):
    state = play(act("ann", 0, claim=3), act("ann", 30, solution="LRD")).state
    action = act(player, seconds, **payload)
    reason = GAME.check(state, action)
    assert reason is None or isinstance(reason, str)
    if reason is None:
        GAME.apply(state, action)
    else:
        with pytest.raises(ValueError):
            GAME.apply(state, action)


@pytest.mark.parametrize("seed", [4, 11])
def test_every_round_of_a_match_is_its_own_maze(seed):
    """#34: all 20 rounds a match may last (D2.3) meet 20 distinct mazes."""
    from pbem.dm.base import Config, get_game
    from pbem.dm.icemaze.game import maze_at

    state = get_game("ice").new_state(Config("ice", ("a", "b"), seed=seed))
    assert len({repr(maze_at(state, index)) for index in range(20)}) == 20
