"""One conformance suite over every registered death-match game (in the spirit of OpenSpiel's generic tests):
random playouts to the end, check/apply agreement, hostile payloads, transcript round trips and time stamps
out of order."""
from __future__ import annotations

import random
from datetime import datetime, timedelta, timezone

import pytest

from pbem.dm import clock
from pbem.dm.base import GAMES, Action, Config, SetupError, get_game, replay
from pbem.engine.vocabulary import Termination
from pbem.formats.gyulbot import parse_puzzle
from pbem.formats.icemaze import parse_maze
from pbem.formats.transcript import dump_transcript, load_transcript

PUZZLE = parse_puzzle({"size": 4, "walls": [], "robots": {"red": ["r4c1"], "blue": ["r2c3"]},
                       "goal": {"at": "r1c4", "colour": "red"}})
MAZE = parse_maze({"map": ["S....", ".....", "..#..", ".....", "....G"]})
CONFIGS = {
    "takebacktoe": Config("takebacktoe", ("Red", "Green"), seed=5),
    "flowerfield": Config("flowerfield", ("Ann", "Bob"), variant="grunkle"),
    "gyulbot": Config("gyulbot", ("Ann", "Bob"), options={"rounds": 3}, puzzles=(PUZZLE,) * 4),
    "ice": Config("ice", ("Ann", "Bob"), options={"target": 2, "max_rounds": 4}, puzzles=(MAZE,) * 4),
}
HOSTILE = [{}, {"nonsense": 1}, {"claim": "many"}, {"claim": -3}, {"claim": True}, {"move": None},
           {"move": "Z9-Q1"}, {"plant": 5}, {"plant": [["deep"]]}, {"challenge": [[1]]}, {"challenge": "x"},
           {"solution": 123}, {"solution": ["R"]}, {"roll": True}, {"roll": 99}, {"timeout": "yes"},
           {"extend": -1}, {"extend": 10 ** 30}, {"give_up": "no"}, {"pass": 0}, {"skip": None},
           {"undercut": 2.5}, {"claim": 1, "skip": True}, {"move": "B1-B2" * 1000}]
T0 = datetime(2026, 1, 1, 12, 0, tzinfo=timezone.utc)


def test_every_registered_game_is_covered():
    get_game("ice")  # importing registers the bundled games
    assert sorted(GAMES) == sorted(CONFIGS)


def playout(name: str, seed: int) -> tuple[list[Action], object]:
    """A random game to its end: each step one of the legal actions, each of which `check` accepts and `apply`
    takes without raising."""
    game, rng = get_game(name), random.Random(seed)
    state, played = game.new_state(CONFIGS[name]), []
    for _ in range(3000):
        if game.is_over(state):
            break
        legal = game.legal_actions(state)
        assert legal, f"{name}: not over, but nothing is legal"
        action = rng.choice(legal)
        assert game.check(state, action) is None and game.result(state).termination is None
        state = game.apply(state, action)
        played.append(action)
    return played, state


@pytest.mark.parametrize("name", sorted(CONFIGS))
@pytest.mark.parametrize("seed", range(3))
def test_random_playouts_reach_the_end_and_replay_from_their_transcript(name, seed):
    game = get_game(name)
    played, state = playout(name, seed)
    assert game.is_over(state) and game.result(state).over
    assert isinstance(game.result(state).termination, Termination)  # every ending says why
    transcript = load_transcript(dump_transcript(CONFIGS[name], played))
    again = replay(transcript.config, list(transcript.actions))
    assert again.errors == [] and again.result == game.result(state)
    assert game.render_data(again.state) == game.render_data(state)


@pytest.mark.parametrize("name", sorted(CONFIGS))
def test_hostile_payloads_are_refused_with_a_reason_and_never_raise(name):
    game = get_game(name)
    played, _ = playout(name, 7)
    state = game.new_state(CONFIGS[name])
    for action in played[:6]:
        for player in (*CONFIGS[name].players, clock.GM, "nobody"):
            for payload in HOSTILE:
                hostile = Action(player, payload)
                reason = game.check(state, hostile)
                if reason is None:  # a few hostile-looking payloads are legal somewhere; then they apply
                    game.apply(state, hostile)
                else:
                    assert isinstance(reason, str) and reason
                    with pytest.raises(ValueError):
                        game.apply(state, hostile)
        state = game.apply(state, action)


@pytest.mark.parametrize("name", sorted(CONFIGS))
def test_time_stamps_out_of_order_are_refused_cleanly(name):
    game = get_game(name)
    played, _ = playout(name, 3)
    timed = [Action(a.player, a.payload, T0 + timedelta(seconds=5 * i)) for i, a in enumerate(played[:4])]
    state = game.new_state(CONFIGS[name])
    for action in timed[:3]:
        state = game.apply(state, action)
    earlier = Action(timed[3].player, timed[3].payload, T0 - timedelta(hours=1))
    assert "earlier than the previous" in game.check(state, earlier)


@pytest.mark.parametrize("name", sorted(CONFIGS))
def test_the_gm_extends_and_closes_deadlines_in_every_game(name):
    """The one clock: once a timed action starts a deadline, the GM's extension moves it by exactly that much,
    and the GM's timeout closes it at once, with the effect the game gives it."""
    game = get_game(name)
    played, _ = playout(name, 11)
    first = next(a for a in played if a.player != clock.GM)
    state = game.apply(game.new_state(CONFIGS[name]), Action(first.player, first.payload, T0))
    deadline = game.deadline(state)
    assert deadline is not None and deadline.at > T0
    extended = game.apply(state, Action(clock.GM, {"extend": 90}, T0 + timedelta(seconds=1)))
    assert game.deadline(extended).at == deadline.at + timedelta(seconds=90)
    closed = game.apply(extended, Action(clock.GM, {"timeout": True}, T0 + timedelta(seconds=2)))
    assert game.render_data(closed) != game.render_data(extended)
    assert game.deadline(closed) is None or game.deadline(closed) != game.deadline(extended)


@pytest.mark.parametrize("name", sorted(CONFIGS))
def test_every_declared_option_refuses_a_bad_value_naming_what_it_may_be(name):
    """Options are declared as data per game and read once; a wrong value is refused with the allowed ones, and an
    unknown option with the known ones."""
    game, config = get_game(name), CONFIGS[name]
    assert game.options and game.new_state(config) is not None
    for option, spec in game.options.items():
        if not (spec.choices or spec.whole):
            continue
        bad = Config(config.game, config.players, config.variant, {**config.options, option: "banana"}, config.seed,
                     config.puzzles)
        with pytest.raises(SetupError) as refused:
            game.new_state(bad)
        ((field, message),) = refused.value.problems
        assert field == f"options.{option}" and "banana" in message
        assert ("whole number" in message) if spec.whole else all(str(c) in message for c in spec.choices)
    unknown = Config(config.game, config.players, config.variant, {**config.options, "colour": 1}, config.seed,
                     config.puzzles)
    with pytest.raises(SetupError, match=f"unknown option \\(known: {', '.join(game.options)}\\)"):
        game.new_state(unknown)
