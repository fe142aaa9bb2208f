"""One conformance suite over every game `pbem.games` lists (in the spirit of OpenSpiel's generic tests): every
entry's parts resolve; random playouts through `dm.base.Game` (BotWars and Geek-o through their adapter, a few
turns each, and through the store's turn cycle), check/apply agreement, hostile payloads, transcript round trips
(campaigns: export and import), deadlines and time stamps out of order."""
from __future__ import annotations

import json
import random
import subprocess
import sys
from datetime import datetime, timedelta, timezone
from enum import StrEnum
from functools import cache

import nimgame
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from sqlmodel import select

from pbem import games
from pbem.dm import clock
from pbem.dm.base import Action, Config, Result, SetupError, get_game, replay
from pbem.dm.campaign import Orders, get_campaign
from pbem.engine.orders import Submission
from pbem.engine.vocabulary import Termination
from pbem.formats.canonical import state_hash
from pbem.formats.game import DESCRIPTION, read_description
from pbem.formats.gyulbot import parse_puzzle
from pbem.formats.icemaze import parse_maze
from pbem.formats.orders import order_text
from pbem.formats.schedule import due_after, parse_schedule
from pbem.formats.transcript import dump_transcript, load_transcript
from pbem.gm import cycle
from pbem.gm.archive import export_game, import_game
from pbem.gm.setup import create_game
from pbem.resources import resource_dir
from pbem.store.games import Store, load_setup, setup_document
from pbem.store.tables import OrderVersion

PUZZLE = parse_puzzle({"size": 4, "walls": [], "robots": {"red": ["r4c1"], "blue": ["r2c3"]},
                       "goal": {"at": "r1c4", "colour": "red"}})
MAZE = parse_maze({"map": ["S....", ".....", "..#..", ".....", "....G"]})
CONFIGS = {
    "takebacktoe": Config("takebacktoe", ("Red", "Green"), seed=5),
    "flowerfield": Config("flowerfield", ("Ann", "Bob"), variant="grunkle"),
    "gyulbot": Config("gyulbot", ("Ann", "Bob"), options={"rounds": 3}, puzzles=(PUZZLE,) * 4),
    "ice": Config("ice", ("Ann", "Bob"), options={"target": 2, "max_rounds": 4}, puzzles=(MAZE,) * 4),
    "nim": nimgame.SAMPLE,  # the test game of tests/nimgame (registered by conftest.TEST_GAMES)
}
MATCHES = games.names(games.Kind.MATCH)
CAMPAIGNS = games.names(games.Kind.CAMPAIGN)
CAMPAIGN_TURNS = 6  # a campaign's random playout: enough turns to deal, play, miss and time out, kept short
HOSTILE = [{}, {"nonsense": 1}, {"claim": "many"}, {"claim": -3}, {"claim": True}, {"move": None},
           {"move": "Z9-Q1"}, {"plant": 5}, {"plant": [["deep"]]}, {"challenge": [[1]]}, {"challenge": "x"},
           {"solution": 123}, {"solution": ["R"]}, {"roll": True}, {"roll": 99}, {"timeout": "yes"},
           {"extend": -1}, {"extend": 10 ** 30}, {"give_up": "no"}, {"pass": 0}, {"skip": None},
           {"undercut": 2.5}, {"claim": 1, "skip": True}, {"move": "B1-B2" * 1000}]
T0 = datetime(2026, 1, 1, 12, 0, tzinfo=timezone.utc)
SCHEDULE = parse_schedule("2d")


@cache
def campaign_config(name: str) -> Config:
    """The bundled sample game of `name` (turns/NAME/game.yaml): its description is the campaign's set-up."""
    setup = load_setup(setup_document(read_description(resource_dir("turns") / name / DESCRIPTION)))
    return Config(name, tuple(p.name for p in setup.players), puzzles=(setup,))


def config_of(name: str) -> Config:
    return campaign_config(name) if name in CAMPAIGNS else CONFIGS[name]


def test_every_listed_game_is_covered_and_its_parts_resolve():
    assert games.names() == ("botwars", "geeko", "gyulbot", "ice", "takebacktoe", "flowerfield", "nim")
    assert sorted(MATCHES) == sorted(CONFIGS)
    for entry in games.entries():
        rules = games.part(entry.rules)()
        assert rules.name == entry.name and rules.title == entry.title
        for path in (*entry.formats, entry.picture, entry.text):
            assert path is not None and games.part(path) is not None
    assert [get_game(name).name for name in MATCHES] == list(MATCHES)
    with pytest.raises(KeyError, match="unknown game 'botwars'; known: gyulbot, ice, takebacktoe, flowerfield, nim"):
        get_game("botwars")  # `pbem dm` plays death matches only
    assert [get_campaign(name).name for name in CAMPAIGNS] == list(CAMPAIGNS)  # the GM's way to a campaign's rules
    with pytest.raises(KeyError, match="unknown game 'gyulbot'; known: botwars, geeko"):
        get_campaign("gyulbot")


def test_the_rules_found_through_the_list_import_no_layer_above_them():
    """`pbem.games` names render and mail parts as paths: asking it for every game's rules imports only the pure
    layers (engine, dm), never formats, store, render or mail."""
    code = ("import json, sys; from pbem import games; [games.part(e.rules) for e in games.GAMES]; "
            "print(json.dumps(sorted({m.split('.')[1] for m in sys.modules if m.startswith('pbem.')})))")
    found = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True).stdout
    assert set(json.loads(found)) <= {"dm", "engine", "games"}, found


def campaign_playout(name: str, seed: int) -> tuple[list[Orders], object]:
    """A campaign's first turns, each player sending one of the legal orders the adapter lists (the random card
    programs of a player's hand), some players missing some turns; the schedule's deadline plays a turn that
    waits for a missing player (B4.6)."""
    game, rng = games.part(games.entry(name).rules)(), random.Random(seed)
    state = game.new_state(campaign_config(name))
    played, dealt = [], T0
    while state.game.turn <= CAMPAIGN_TURNS and not game.is_over(state):
        turn = state.game.turn
        state = game.scheduled(state, due_after(SCHEDULE, dealt))
        legal = game.legal_actions(state)
        assert all(game.check(state, action) is None for action in legal)
        for player in sorted({action.player for action in legal}):
            if rng.random() < 0.2:
                continue  # this player misses the turn
            action = rng.choice([a for a in legal if a.player == player])
            state = game.apply(state, action)
            played.append(action)
        if state.game.turn == turn:
            dealt = game.deadline(state).at + timedelta(seconds=1)
            state, passed = clock.advance(game, state, dealt)
            assert len(passed) == 1 and state.game.turn == turn + 1
    return played, state


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


@pytest.mark.parametrize("name", CAMPAIGNS)
@pytest.mark.parametrize("seed", range(2))
def test_campaign_playouts_play_every_turn_through_the_one_interface(name, seed):
    game = games.part(games.entry(name).rules)()
    played, state = campaign_playout(name, seed)
    assert state.game.turn > CAMPAIGN_TURNS or game.is_over(state)
    result = game.result(state)
    assert result.over == game.is_over(state) and (result.termination is None) == (not result.over)
    again, _ = campaign_playout(name, seed)  # B13: the same orders play the same game
    assert again == played


@pytest.mark.parametrize("name", CAMPAIGNS)
def test_campaign_turn_cycle_plays_as_the_adapter_and_its_export_imports_the_same_game(name, tmp_path):
    """Through the store's turn cycle (deal, order files submitted, process), with the adapter's random legal
    orders written as order files and a player missing now and then (B4.6): every stored turn ends in the
    adapter's state, hash for hash; the game exported and imported again ends in the same state."""
    game, rng = games.part(games.entry(name).rules)(), random.Random(3)
    state = game.new_state(campaign_config(name))
    title = state.game.setup.name  # the sample's own name (geeko-demo)
    store = Store(f"sqlite:///{tmp_path / 'a.db'}")
    try:
        with store.session() as session:
            create_game(session, read_description(resource_dir("turns") / name / DESCRIPTION), T0)
            session.commit()
            for turn in range(1, 4):
                cycle.deal(session, title)
                for player in state.waiting_for():
                    if rng.random() < 0.2:
                        continue  # this player misses the turn
                    action = rng.choice([a for a in game.legal_actions(state) if a.player == player])
                    text = order_text(title, turn, action.player, action.submission.programs).encode()
                    [sent] = cycle.submit(session, title, [(f"{action.player}.yaml", text)], store=True, at=T0)
                    assert sent.accepted, sent.problems
                    state = game.apply(state, action)
                if state.game.turn == turn:  # someone missed the turn: its deadline plays it
                    state = game.expire(game.scheduled(state, T0), game.deadline(game.scheduled(state, T0)))
                played = cycle.process(session, title, at=T0 + timedelta(hours=turn))
                assert played.after_hash == state_hash(state.game) and state.game.turn == turn + 1
        export_game(store, title, tmp_path / "export")
    finally:
        store.close()
    again = Store(f"sqlite:///{tmp_path / 'b.db'}")
    try:
        imported = import_game(again, tmp_path / "export", at=T0)
        assert imported.turns[-1].after_hash == state_hash(state.game)
    finally:
        again.close()


def test_a_campaigns_result_is_the_engines_outcome_with_its_reason():
    """BotWars (B12): the first robot through the last flag wins its player the game, placed first."""
    game = games.part(games.entry("botwars").rules)()
    state = game.new_state(campaign_config("botwars"))
    assert game.result(state) == Result(False, None)
    second = state.game.setup.players[1]
    state.game.winners.append(second.robots[0])  # as `play_turn` records a robot touching the last flag
    result = game.result(state)
    assert result.over and result.winner == second.name and result.termination == Termination.LAST_FLAG
    assert result.places[second.name] == 1 and sorted(result.places.values())[1] == 2


TOKENS = st.one_of(st.none(), st.booleans(), st.integers(), st.floats(), st.text(max_size=12),
                   st.lists(st.integers(), max_size=2))


@settings(max_examples=60, deadline=None)
@given(name=st.sampled_from(CAMPAIGNS), robot=st.sampled_from([0, 1, None]),
       program=st.lists(TOKENS, max_size=12), reboot=st.lists(st.text(max_size=8), max_size=2),
       option_hp=st.one_of(st.none(), st.integers(), st.text(max_size=3)))
def test_campaign_orders_of_any_shape_are_judged_without_raising(name, robot, program, reboot, option_hp):
    """Whatever the tokens, `check` answers (a reason or None) and `apply` agrees with it."""
    game = games.part(games.entry(name).rules)()
    state = game.new_state(campaign_config(name))
    player = state.game.setup.players[0]
    key = player.robots[robot % len(player.robots)] if robot is not None else "Nobody"
    orders = Orders(player.name, 1, Submission({key: program}, reboot=reboot, option_hp=option_hp))
    reason = game.check(state, orders)
    if reason is None:
        game.apply(state, orders)
    else:
        with pytest.raises(ValueError):
            game.apply(state, orders)


GARBAGE_FILES = [b"", b"\x00\xff\xfe" * 50, b"game: [", b"- just\n- a list\n", b"game: x\nturn: 1\n",
                 b"game: GAME\nturn: one\nplayer: 7\nrobots: {}\n", b"game: GAME\nturn: 1\nplayer: nobody\n",
                 b"game: GAME\nturn: 1\nplayer: PLAYER\nrobots: {ROBOT: {program: [XYZ, 10e99, null]}}\n",
                 b"game: GAME\nturn: 1\nplayer: PLAYER\nrobots: {ROBOT: {program: {a: 1}}}\nreboot: 5\n",
                 b"game: GAME\nturn: 1\nplayer: PLAYER\nrobots:\n" + b"  - x\n" * 2000, b"&a [*a, *a]"]


@pytest.mark.parametrize("name", CAMPAIGNS)
def test_campaign_order_files_of_garbage_are_refused_naming_the_file_and_store_nothing(name, tmp_path):
    """Hostile order files through the turn cycle's door (`pbem turn submit`, mail): each refused with its
    problems, none raising, none stored."""
    setup = campaign_config(name).puzzles[0]
    player, robot = setup.players[0].name, setup.players[0].robots[0]
    store = Store(f"sqlite:///{tmp_path / 'a.db'}")
    try:
        with store.session() as session:
            create_game(session, read_description(resource_dir("turns") / name / DESCRIPTION), T0)
            session.commit()
            cycle.deal(session, setup.name)
            files = [(f"bad-{i}.yaml", data.replace(b"GAME", setup.name.encode()).replace(b"PLAYER", player.encode())
                      .replace(b"ROBOT", robot.encode())) for i, data in enumerate(GARBAGE_FILES)]
            results = cycle.submit(session, setup.name, files, store=True, at=T0)
            assert [r.source for r in results] == [source for source, _ in files]
            assert all(not r.accepted and r.problems for r in results), [r for r in results if r.accepted]
            assert session.exec(select(OrderVersion)).all() == []
    finally:
        store.close()


@pytest.mark.parametrize("name", CAMPAIGNS)
def test_campaign_orders_after_the_deadline_are_refused_and_the_turn_is_played_without_them(name):
    game = games.part(games.entry(name).rules)()
    state = game.scheduled(game.new_state(campaign_config(name)), T0)
    first = game.legal_actions(state)[0]
    late = Orders(first.player, 1, first.submission, T0 + timedelta(seconds=1))
    assert "too late" in game.check(state, late)
    records, after = clock.submit(game, state, late)
    assert [r.clock for r in records] == [True, False] and "too late" in records[-1].reason
    assert "turn 1, and turn 2 is being played" in records[-1].reason
    assert after.game.turn == 2 and game.deadline(after) is None  # played; the next deadline is the schedule's
    extended = game.extend(state, 90, T0)
    assert game.deadline(extended).at == T0 + timedelta(seconds=90) and game.check(extended, late) is None


@pytest.mark.parametrize("name", CAMPAIGNS)
def test_campaign_hostile_orders_are_refused_with_a_reason_and_never_raise(name):
    game = games.part(games.entry(name).rules)()
    state = game.new_state(campaign_config(name))
    player = state.game.setup.players[0]
    robot = player.robots[0]
    garbage = [Submission({robot: ["XYZ", None, True, 10 ** 30]}), Submission({"Nobody": [1]}),
               Submission({robot: [[1]]}), Submission({robot: []}, reboot=["Nobody"]),
               Submission({robot: ["FWD1"] * 50}), "FWD1 FWD2", None]
    for who in (player.name, "nobody"):
        for submission in garbage:
            orders = Orders(who, 1, submission)  # hostile on purpose: not always a Submission
            reason = game.check(state, orders)
            assert isinstance(reason, str) and reason
            with pytest.raises(ValueError):
                game.apply(state, orders)
    with pytest.raises(SetupError, match="set up from one game description"):
        game.new_state(Config(name, ("x", "y")))
    other = campaign_config("geeko" if name == "botwars" else "botwars")
    with pytest.raises(SetupError, match=f"game, not {name}"):
        game.new_state(other)


@pytest.mark.parametrize("name", MATCHES)
@pytest.mark.parametrize("seed", range(3))
def test_random_playouts_reach_the_end_and_replay_from_their_transcript(name, seed):
    game = get_game(name)
    played, state = playout(name, seed)
    assert game.is_over(state) and game.result(state).over
    assert isinstance(game.result(state).termination, StrEnum)  # every ending says why, in the game's own words
    transcript = load_transcript(dump_transcript(CONFIGS[name], played))
    again = replay(transcript.config, list(transcript.actions))
    assert again.errors == [] and again.result == game.result(state)
    assert game.render_data(again.state) == game.render_data(state)


@pytest.mark.parametrize("name", MATCHES)
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


@pytest.mark.parametrize("name", MATCHES)
def test_time_stamps_out_of_order_are_refused_cleanly(name):
    game = get_game(name)
    played, _ = playout(name, 3)
    timed = [Action(a.player, a.payload, T0 + timedelta(seconds=5 * i)) for i, a in enumerate(played[:4])]
    state = game.new_state(CONFIGS[name])
    for action in timed[:3]:
        state = game.apply(state, action)
    earlier = Action(timed[3].player, timed[3].payload, T0 - timedelta(hours=1))
    assert "earlier than the previous" in game.check(state, earlier)


@pytest.mark.parametrize("name", MATCHES)
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


@pytest.mark.parametrize("name", MATCHES)
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


@pytest.mark.parametrize("name", games.names())
def test_every_game_lives_in_the_one_store_and_takes_the_gms_pause_and_resume(name, tmp_path):
    """Issue #33: a campaign and each death match are rows of the same tables — the game with its registry name,
    its seats in turn order, its moves (a match's: every action as played, the position rebuilt from them equal
    to the playout's), its GM controls — and the same `pbem game pause`/`resume` step takes either."""
    from pbem.gm.clock import pause, resume
    from pbem.gm.moves import position, submit
    from pbem.gm.newmatch import new_match
    from pbem.store.controls import history
    from pbem.store.games import get_game as stored_game
    from pbem.store.games import players_of
    from pbem.store.matches import find_match

    store, config = Store(f"sqlite:///{tmp_path / 'pbem.db'}"), config_of(name)
    try:
        with store.session() as session:
            if name in CAMPAIGNS:
                create_game(session, read_description(resource_dir("turns") / name / DESCRIPTION), T0)
                session.commit()
                game_name = read_description(resource_dir("turns") / name / DESCRIPTION).name
                cycle.deal(session, game_name)
                half: list[Action] = []
            else:
                game_name, played = f"{name}-1", playout(name, 0)[0]
                half = played[:len(played) // 2]
                new_match(store.url, game_name, config, get_game(name).new_state(config), [], T0)
                match = find_match(session, game_name)
                for action in half:
                    submit(session, match, action, T0, source="command")
                session.commit()
                stored, rebuilt, accepted = position(session, match)
                assert accepted == half and repr(rebuilt) == repr(replay(stored, half).state)
            game = stored_game(session, game_name)
            assert game.ruleset == name
            assert [p.name for p in players_of(session, game)] == list(config.players)
            moves = session.exec(select(OrderVersion).where(OrderVersion.game_id == game.id)).all()
            assert len(moves) == len(half) and all(m.accepted for m in moves)
            pause(session, game_name, T0 + timedelta(hours=1), "gm@example.org")
            resume(session, game_name, T0 + timedelta(hours=2), "gm@example.org")
            assert [e.kind for e in history(session, game)][-2:] == ["pause", "resume"]
    finally:
        store.close()
