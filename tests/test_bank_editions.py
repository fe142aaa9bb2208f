"""A match keeps the puzzles it was made with when pbem's banks grow (issues #34, #33): its option `bank` names the
edition it draws from; a match stored without it (by pbem 1ae419e, before the banks grew) has edition 1 and is dealt
exactly what 1ae419e dealt it, and `pbem dm new` records the current edition.

The pinned hashes are of the round puzzles that 1ae419e's own code deals (obtained by running it from
`git archive 1ae419e` with the helpers below): Gyulbot at moves 8 generated from the seed, at moves 16 and 20 drawn
from its bank of 22 deep puzzles; Ice generated from the seed. The old database holds the rows 1ae419e's `dm new`
and `dm act` wrote (read back from its SQLite file), and `POSITION` is the hash of the position its `dm show --json`
printed for them.
"""
from __future__ import annotations

import hashlib
import json
from datetime import datetime, timezone

import pytest
import sqlalchemy as sa
from cli_process import run_pbem

from pbem.dm import puzzlebank
from pbem.dm.base import Action, Config, get_game, replay
from pbem.dm.gyulbot import bank as gyulbot_bank
from pbem.dm.icemaze import bank as ice_bank
from pbem.dm.icemaze.game import maze_at
from pbem.dm.puzzlebank import EDITION
from pbem.formats.gyulbot import puzzle_data
from pbem.store.db import open_database
from pbem.store.newmatch import MatchWriter

SKIPS = [Action("ann", {"skip": True}), Action("bob", {"skip": True})]  # both skip: the next round (D1.4)
# (options, seed, rounds) -> the hash of the round puzzles 1ae419e dealt
GYULBOT_1AE419E = [
    ({}, 3, 2, "b4e540429532d07ed0ae70a7721247b7469c1c23a566b11f744a7b6fef1fa40f"),
    ({"moves": 16, "rounds": 10}, 11, 10, "e8e7d667ea66ff760dfd6d4227bb25a49ef1ef76f8d1457a9addeff4c28ec235"),
    ({"moves": 20, "rounds": 10}, 4, 10, "9e13b133565142118b89e4ecdc9a7d9d9b2985e76ebd04660a15cdd355a57064"),
]
ICE_1AE419E = "81517b8de424d85bc33bd13537f7d944338b1c63ed392fd61132717575133970"  # seed 4, mazes 1-2


def digest(items: list) -> str:
    return hashlib.sha256(json.dumps(items, sort_keys=True).encode()).hexdigest()


def gyulbot_rounds(options: dict, seed: int, rounds: int) -> list:
    """The puzzles of rounds 1 to `rounds`, each reached by both players skipping the rounds before it."""
    config = Config("gyulbot", ("ann", "bob"), options=options, seed=seed)
    return [replay(config, SKIPS * k).state.puzzle for k in range(rounds)]


@pytest.mark.parametrize("options, seed, rounds, dealt", GYULBOT_1AE419E, ids=["moves-8", "moves-16", "moves-20"])
def test_a_gyulbot_match_stored_without_the_option_gets_the_puzzles_1ae419e_dealt(options, seed, rounds, dealt):
    """#34: below 16 moves generated from the seed, 16-21 drawn from the first 22 banked puzzles, as before the bank
    grew; the current edition deals other rounds (so the option is what tells them apart)."""
    assert digest([puzzle_data(p) for p in gyulbot_rounds(options, seed, rounds)]) == dealt
    assert gyulbot_rounds({**options, "bank": 1}, seed, rounds) == gyulbot_rounds(options, seed, rounds)
    assert digest([puzzle_data(p) for p in gyulbot_rounds({**options, "bank": EDITION}, seed, rounds)]) != dealt


ICE_RECORDS = 300  # the Ice bank's mazes in every edition since 2: it grows only with an edition saying what it held


def test_each_bank_says_what_every_past_edition_held():
    """A new edition (`EDITION` raised) must leave each bank saying what the one before it held: Gyulbot's grew in
    edition 3 (every length 3-21); Ice's has not grown since edition 2, so its editions 2 and 3 are one."""
    assert set(gyulbot_bank.PAST_EDITIONS) == set(range(1, EDITION))
    assert set(ice_bank.PAST_EDITIONS) == {1}
    assert len(puzzlebank.records("pbem.dm.icemaze", ice_bank.FILE)) == ICE_RECORDS, \
        "the Ice bank grew: say in its PAST_EDITIONS what editions 2 to EDITION held (ICE_RECORDS mazes)"


# What main (5cecbc2, bank edition 2) dealt a 10-move match, generated from the seed: seed 5, rounds 1-2
GYULBOT_10_MOVES_EDITION_2 = "5e70cb70abea3ccd6aa9116d12c3a75028c10103aca2e39875985869b8a8b804"


def test_a_10_move_match_stored_by_edition_2_replays_identically_and_a_new_one_draws_from_the_bank():
    """#34 session 11: edition 3 banks every length; a match of edition 2 (or 1) at a length it did not hold is
    still generated from its seed, round by round, as it was played."""
    for edition in (1, 2):
        dealt = gyulbot_rounds({"moves": 10, "bank": edition}, 5, 2)
        assert digest([puzzle_data(p) for p in dealt]) == GYULBOT_10_MOVES_EDITION_2
    drawn = gyulbot_rounds({"moves": 10, "bank": EDITION}, 5, 2)
    assert drawn == [gyulbot_bank.for_round(10, 5, number) for number in (1, 2)]


def test_an_ice_match_stored_without_the_option_gets_the_mazes_1ae419e_generated():
    def mazes(options: dict) -> str:
        state = get_game("ice").new_state(Config("ice", ("ann", "bob"), options=options, seed=4))
        return digest([list(maze_at(state, index).to_rows()) for index in range(2)])

    assert mazes({}) == mazes({"bank": 1}) == ICE_1AE419E != mazes({"bank": EDITION})


@pytest.mark.parametrize("game", ["gyulbot", "ice"])
@pytest.mark.parametrize("value", [0, EDITION + 1, "two", True])
def test_a_bad_edition_is_refused_naming_the_option(tmp_path, game, value):
    result = run_pbem("--db", f"sqlite:///{tmp_path}/m.db", "dm", "new", "m", "--game", game, "--player", "ann",
                      "--player", "bob", "--option", f"bank={json.dumps(value)}", cwd=tmp_path)
    assert result.returncode != 0 and f"options.bank: must be one of {', '.join(map(str, range(1, EDITION + 1)))}" \
        in result.stderr


def stored_options(url: str, name: str) -> dict:
    with open_database(url).connect() as connection:
        setup = connection.execute(sa.text("SELECT setup FROM games WHERE name = :n"), {"n": name}).scalar_one()
    return json.loads(setup)["options"]


@pytest.mark.parametrize("game", ["gyulbot", "ice"])
def test_dm_new_records_the_current_edition_and_a_transcript_taken_over_keeps_its_own(tmp_path, game):
    """A new match reads the same after the banks grow again; an older pbem's transcript plays as it was played."""
    url = f"sqlite:///{tmp_path}/m.db"
    players = ["--player", "ann", "--player", "bob"]
    assert run_pbem("--db", url, "dm", "new", "m1", "--game", game, *players, cwd=tmp_path).returncode == 0
    assert run_pbem("--db", url, "dm", "new", "m2", "--game", game, *players, "--option", "bank=1",
                    cwd=tmp_path).returncode == 0
    (tmp_path / "old.yaml").write_text(f"game: {game}\nplayers: [ann, bob]\nseed: 3\nactions: []\n", encoding="utf-8")
    assert run_pbem("--db", url, "dm", "new", "m3", "--from", "old.yaml", cwd=tmp_path).returncode == 0
    assert stored_options(url, "m1") == {"bank": EDITION}
    assert stored_options(url, "m2") == {"bank": 1}
    assert stored_options(url, "m3") == {}


def test_dm_options_names_the_edition(tmp_path):
    shown = run_pbem("dm", "options", "gyulbot", cwd=tmp_path).stdout
    editions = " | ".join(map(str, range(1, EDITION + 1)))
    assert f"bank (default {EDITION} for a new match, 1 for one stored without it; {editions})" in shown


# The rows 1ae419e's `pbem dm new m --game gyulbot --player ann --player bob --seed 3 --option
# start=2026-12-01T20:00Z` and four `dm act` wrote: ann claims 8 (the puzzle's minimum), bob skips, ann demonstrates
# (ann scores round 1), bob claims 9 in round 2 -- a claim the rules refuse in a demonstration phase, where a wrong
# demonstration on another puzzle would have left round 1.
OLD_ROWS = [
    "INSERT INTO games (id, name, ruleset, seed, setup, created_at) VALUES (1, 'm', 'gyulbot', '3', "
    """'{"game":"gyulbot","options":{"start":"2026-12-01T20:00Z"},"players":["ann","bob"],"puzzles":[],"seed":3,"""
    """"variant":null}', '2026-12-01 20:00:00.000000')""",
    "INSERT INTO players (id, game_id, position, name, email, secret) VALUES (1, 1, 0, 'ann', '', ''), "
    "(2, 1, 1, 'bob', '', '')",
    "INSERT INTO turn_deadlines (id, game_id, turn, dealt_at, due_at, reminded, approved, about) VALUES (1, 1, 0, "
    "'2026-12-01 20:00:00.000000', '2026-12-01 20:04:30.000000', '[]', 0, '{\"effect\": \"no undercut: bob "
    "demonstrates 9\", \"idle\": \"nothing until a player acts\", \"over\": false, \"waiting\": \"ann\"}')",
    *(f"INSERT INTO order_versions (id, game_id, turn, player_id, version, source, text, submission, submitted_at, "
      f"accepted) VALUES ({seq}, 1, 0, {player}, {seq}, 'command', '{payload}', '{payload}', '2026-12-01 {at}', 1)"
      for seq, player, payload, at in [(1, 1, '{"claim":8}', "20:02:00.000000"),
                                        (2, 2, '{"skip":true}', "20:02:20.000000"),
                                        (3, 1, '{"solution":"Green ULUL Red L Green DLU"}', "20:03:00.000000"),
                                        (4, 2, '{"claim":9}', "20:03:30.000000")]),
]
POSITION = "39ab423baed501935e1aaf15667e3df1c20abbee6a703f40a8ba6e9494e4dc4d"  # 1ae419e's dm show, at 20:03:40


def test_a_live_gyulbot_match_stored_by_1ae419e_replays_identically_after_the_upgrade(tmp_path):
    """#33/#34: a running match at the default moves keeps its puzzles: every stored move is accepted again
    (`replay --verify`) and the position is the one 1ae419e showed."""
    url = f"sqlite:///{tmp_path}/old.db"
    with open_database(url).begin() as connection:  # 1ae419e's schema is revision 0011, as today's
        for row in OLD_ROWS:
            connection.exec_driver_sql(row)
    replayed = run_pbem("--db", url, "replay", "m", "--verify", cwd=tmp_path)
    assert replayed.returncode == 0, replayed.stdout + replayed.stderr
    assert "4 accepted moves replayed, every one accepted again" in replayed.stdout
    shown = run_pbem("--db", url, "--now", "2026-12-01T20:03:40Z", "dm", "show", "m", "--json", cwd=tmp_path)
    position = json.loads(shown.stdout)["position"]
    assert (position["round"], position["scores"], position["claimant"]) == (2, {"ann": 1, "bob": 0}, "bob")
    assert hashlib.sha256(json.dumps(position, sort_keys=True).encode()).hexdigest() == POSITION
    assert stored_options(url, "m") == {"start": "2026-12-01T20:00Z"}  # the upgrade wrote nothing into it


@pytest.mark.parametrize("moves", [gyulbot_bank.SHORTEST - 1, gyulbot_bank.LONGEST + 1])
def test_a_new_gyulbot_match_outside_the_banks_lengths_is_refused_naming_the_option(tmp_path, moves):
    """#34: a new match records edition 3, which holds 3-21 moves: another length is refused, naming the option."""
    made = run_pbem("--db", f"sqlite:///{tmp_path}/m.db", "dm", "new", "m", "--game", "gyulbot", "--player", "ann",
                    "--player", "bob", "--option", f"moves={moves}", cwd=tmp_path)
    assert made.returncode == 1 and f"options.moves: must be a whole number from 3 to 21, not {moves}" in made.stderr
    (tmp_path / "t.yaml").write_text(f"game: gyulbot\nplayers: [ann, bob]\noptions: {{moves: {moves}, bank: {EDITION}}}"
                                     "\nactions: []\n", encoding="utf-8")
    taken = run_pbem("--db", f"sqlite:///{tmp_path}/m.db", "dm", "new", "m", "--from", "t.yaml", cwd=tmp_path)
    assert taken.returncode == 1
    assert f"t.yaml:3: options.moves: must be a whole number from 3 to 21, not {moves}" in taken.stderr
    assert "Traceback" not in made.stderr + taken.stderr


STARTED = datetime(2026, 12, 1, 20, tzinfo=timezone.utc)


@pytest.mark.parametrize("edition, moves", [(1, 2), (2, 1)])
def test_a_gyulbot_match_stored_under_an_older_edition_keeps_a_length_it_allowed(tmp_path, edition, moves):
    """Review of #34: editions 1 and 2 generated a length their bank lacked from the seed, at any whole number; a
    match they stored outside 3-21 loads, shows and plays on (the bound is edition 3's, so a new match's)."""
    url = f"sqlite:///{tmp_path}/old.db"
    config = Config("gyulbot", ("ann", "bob"), options={"moves": moves, "bank": edition, "start": "2026-12-01T20:00Z"},
                    seed=3)
    with MatchWriter(url) as writer:  # its rows as that pbem's `dm new` wrote them (the deadline row: its first move's)
        writer.add("m", config, [], STARTED)
        writer.commit()

    def show() -> dict:
        shown = run_pbem("--db", url, "--now", "2026-12-01T20:01:30Z", "dm", "show", "m", "--json", cwd=tmp_path)
        assert shown.returncode == 0, shown.stderr
        return json.loads(shown.stdout)["position"]

    assert (show()["round"], show()["phase"]) == (1, "claims")
    acted = run_pbem("--db", url, "--now", "2026-12-01T20:01:00Z", "dm", "act", "m", f"{{claim: {moves}}}", "--player",
                     "ann", "--at", "2026-12-01T20:01:00Z", cwd=tmp_path)
    assert acted.returncode == 0, acted.stderr
    assert (show()["phase"], show()["claimant"]) == ("undercut", "ann")
    replayed = run_pbem("--db", url, "replay", "m", "--verify", cwd=tmp_path)
    assert replayed.returncode == 0 and "1 accepted moves replayed, every one accepted again" in replayed.stdout
    assert stored_options(url, "m")["moves"] == moves
