"""`pbem game autoplay` (issue #16): bots play through the real turn cycle, a replay verifies what they did."""
from __future__ import annotations

import json

import pytest
from cycle_fixtures import HALL
from typer.testing import CliRunner

from pbem.cli import app


@pytest.fixture
def gm(tmp_path, monkeypatch):
    """`pbem …` in a campaign folder holding five 3x3 halls (gate r1c1 open, pit r2c3, starts r3c1 and r3c3)."""
    monkeypatch.chdir(tmp_path)
    (tmp_path / "halls").mkdir()
    for n in range(1, 6):
        (tmp_path / "halls" / f"{n}.yaml").write_text(HALL.format(n=n))
    runner = CliRunner()

    def run(*args):
        result = runner.invoke(app, ["--db", f"sqlite:///{tmp_path / 'pbem.db'}", *args])
        return result.exit_code, result.stdout, result.stderr
    code, _, err = run("game", "new", "g", "--ruleset", "geeko", "--rooms", "halls", "--seed", "5",
                       "--player", "alice:a@example.org:Zapper,Spanner", "--player", "bob:b@example.org:Bolt,Nut")
    assert code == 0, err
    return run


def test_bots_play_both_players_through_five_rooms_and_the_replay_matches(gm, tmp_path):
    code, out, err = gm("game", "autoplay", "g", "--turns", "40", "--json")
    assert code == 0, err
    result = json.loads(out)
    assert result["over"]  # G1: both players through room 5 well before 40 turns
    rows = {row["player"]: row for row in result["standings"]}
    for row in rows.values():
        assert row["rooms_done"] == 5
        assert row["turns"] >= 5  # G3: a room opens the turn after both robots left the one before
    assert len(result["turns"]) == max(row["turns"] for row in rows.values())
    best = min(row["turns"] for row in rows.values())
    assert all(row["place"] == (1 if row["turns"] == best else 2) for row in rows.values())  # G1: ties share
    assert (tmp_path / "reports" / "g" / "turn-001" / "mail" / "alice.eml").is_file()
    assert gm("replay", "g", "--verify")[0] == 0
    # the listing reads the engine's answer stored with the last turn; a database from before turns.over (NULL)
    # is asked of the engine instead, and both say what the engine says of the current state
    from pbem.store.games import Store, current_state, get_game

    store = Store(f"sqlite:///{tmp_path / 'pbem.db'}")
    with store.session() as session:
        state = current_state(session, get_game(session, "g"))
    assert state.is_over
    expected = [{"game": "g", "ruleset": "geeko", "turn": state.turn, "over": True, "players": ["alice", "bob"]}]
    assert json.loads(gm("game", "list", "--json")[1]) == expected
    with store.engine.begin() as connection:
        connection.exec_driver_sql("UPDATE turns SET over = NULL")
    store.close()
    assert json.loads(gm("game", "list", "--json")[1]) == expected


def test_only_the_named_player_is_played_and_the_other_idles_by_b4_6(gm):
    code, out, err = gm("game", "autoplay", "g", "--turns", "2", "--player", "alice", "--no-reports", "--json")
    assert code == 0, err
    assert [t["bots"] for t in json.loads(out)["turns"]] == [["alice"], ["alice"]]
    code, out, _ = gm("game", "show", "g", "--json")
    robots = {r["name"]: r for p in json.loads(out)["players"] for r in p["robots"]}
    assert (robots["Bolt"]["at"], robots["Nut"]["at"]) == ("r3c1", "r3c3")  # B4.6 geeko: bob's robots idled


def test_an_unknown_player_is_refused(gm):
    code, _, err = gm("game", "autoplay", "g", "--turns", "1", "--player", "carol")
    assert code == 1 and "no player 'carol'" in err


def test_missing_orders_bot_chosen_for_a_game_plays_the_silent_player_and_the_mail_says_so(gm, tmp_path):
    code, _, err = gm("game", "new", "m", "--ruleset", "geeko", "--rooms", "halls", "--seed", "5",
                      "--missing-orders", "bot", "--player", "alice:a@example.org:Zapper,Spanner")
    assert code == 0, err
    assert gm("turn", "deal", "m")[0] == 0
    code, out, err = gm("turn", "process", "m")
    assert code == 0, err
    assert "orders alice: missing (RULES B4.6)" in out
    assert "CardPlayed" in out  # B4.6 `bot`: the robots ran cards although nobody sent orders
    mail = (tmp_path / "reports" / "m" / "turn-001" / "mail" / "alice.eml").read_text()
    assert "played by the bot" in mail.replace("=\n", "")
    assert gm("replay", "m", "--verify")[0] == 0
