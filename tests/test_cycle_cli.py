"""The command line of the turn cycle: --help everywhere, exit codes 0/1/2, --json, a GM's session end to end."""
from __future__ import annotations

import json

import pytest
from cycle_fixtures import HALL, order
from typer.testing import CliRunner

from pbem.cli import app

COMMANDS = [["init"], ["demo"], ["replay"], ["game", "new"], ["game", "list"], ["game", "show"],
            ["game", "import"], ["game", "export"], ["turn", "deal"], ["turn", "submit"], ["turn", "check"],
            ["turn", "status"], ["turn", "process"], ["turn", "rollback"]]


@pytest.fixture
def gm(tmp_path, monkeypatch):
    """Run `pbem …` in a fresh campaign folder with its own SQLite database; returns (exit code, stdout, stderr)."""
    monkeypatch.chdir(tmp_path)
    for n in range(1, 6):
        (tmp_path / "halls").mkdir(exist_ok=True)
        (tmp_path / "halls" / f"{n}.yaml").write_text(HALL.format(n=n))
    runner = CliRunner()

    def run(*args):
        result = runner.invoke(app, ["--db", f"sqlite:///{tmp_path / 'pbem.db'}", *args])
        return result.exit_code, result.stdout, result.stderr
    return run


@pytest.mark.parametrize("command", COMMANDS, ids=" ".join)
def test_every_command_has_help(command):
    result = CliRunner().invoke(app, [*command, "--help"])
    assert result.exit_code == 0 and "Usage:" in result.output


def test_usage_errors_exit_2_and_refusals_exit_1_with_the_reason(gm):
    assert gm("turn", "status")[0] == 2  # the game's name is missing
    assert gm("game", "new", "x", "--ruleset", "chess", "--player", "a:a@b")[0] == 2
    code, _, err = gm("turn", "status", "nope")
    assert code == 1 and "no database at" in err  # a read-only command does not create one
    code, _, err = gm("turn", "deal", "nope")  # #22: nor does a command that writes (only game new/import)
    assert code == 1 and "no database at" in err and "pbem.db" in err
    assert new_game(gm)[0] == 0
    code, _, err = gm("turn", "status", "nope")
    assert code == 1 and "no game named nope" in err


def new_game(gm):
    return gm("game", "new", "halls", "--ruleset", "geeko", "--rooms", "halls", "--deck", "decks/geeko.yaml",
              "--player", "alice:alice@example.org:Zapper,Spanner", "--player", "bob:bob@example.org", "--seed", "5")


def test_a_gm_session_new_deal_check_submit_status_preview_process_replay_rollback(gm, tmp_path):
    code, out, _ = new_game(gm)
    assert code == 0 and "Game halls created (geeko, seed 5)" in out
    assert gm("game", "new", "halls", "--ruleset", "geeko", "--player", "c:c@d")[0] == 1  # the name is taken
    code, out, _ = gm("turn", "deal", "halls", "--json")
    sheets = json.loads(out)["sheets"]
    assert code == 0 and [s["player"] for s in sheets] == ["alice", "bob"]
    assert (tmp_path / "sheets" / "halls" / "turn-001" / "alice.txt").exists()
    hand = sheets[0]["hands"]["alice"]
    good = tmp_path / "alice.yaml"
    good.write_bytes(b"Dear GM, my orders:\n\n" + order("halls", 1, "alice", {"Zapper": [hand[0]], "Spanner": [hand[1]]}))
    bad = tmp_path / "bob.yaml"
    bad.write_bytes(order("halls", 1, "bob", {"Bolt": ["FWD1#1"], "Nut": []}))
    code, out, _ = gm("turn", "check", "halls", str(good), str(bad))
    assert code == 1 and out.startswith(f"ACCEPTED {good}: alice, turn 1\n") and f"REFUSED {bad}" in out
    code, out, _ = gm("turn", "status", "halls", "--json")
    assert json.loads(out)["waiting_for"] == ["alice", "bob"]  # check stored nothing
    code, out, _ = gm("turn", "submit", "halls", str(good), "--json")
    assert code == 0 and json.loads(out)[0]["version"] == 1
    code, out, _ = gm("turn", "status", "halls")
    assert "alice            orders in (version 1 of 1" in out and "bob              waiting" in out
    preview = json.loads(gm("turn", "process", "halls", "--preview", "--json")[1])
    done = json.loads(gm("turn", "process", "halls", "--json")[1])
    assert preview["preview"] and preview["after_hash"] == done["after_hash"]
    assert done["orders"] == {"alice": 1, "bob": None}
    report = tmp_path / "reports" / "halls" / "turn-001"
    assert {"index.html", "summary.txt", "mail"} <= {p.name for p in report.iterdir()}
    assert sorted(p.name for p in (report / "mail").iterdir()) == ["alice.eml", "bob.eml"]
    code, _, err = gm("turn", "process", "halls")
    assert code == 1 and "turn 2 of halls has not been dealt yet (turn 1 is processed already)" in err
    gm("turn", "deal", "halls")
    gm("turn", "process", "halls")
    code, out, _ = gm("replay", "halls", "--verify", "--json")
    assert code == 0 and json.loads(out)["first_difference"] is None
    assert gm("turn", "rollback", "halls", "--to", "2")[0] == 0
    assert json.loads(gm("game", "show", "halls", "--json")[1])["turn"] == 2
    listed = json.loads(gm("game", "list", "--json")[1])
    assert [(g["game"], g["turn"]) for g in listed] == [("halls", 2)]


def test_game_show_lists_robots_and_standings_and_secrets_only_on_request(gm):
    new_game(gm)
    shown = json.loads(gm("game", "show", "halls", "--json")[1])
    assert [r["name"] for r in shown["players"][0]["robots"]] == ["Zapper", "Spanner"]
    assert [r["name"] for r in shown["players"][1]["robots"]] == ["Bob-1", "Bob-2"]
    assert [(row["player"], row["place"]) for row in shown["standings"]] == [("alice", 1), ("bob", 1)]
    assert "secret" not in shown["players"][0]
    with_secrets = json.loads(gm("game", "show", "halls", "--secrets", "--json")[1])
    assert len(with_secrets["players"][0]["secret"]) == 16


def test_init_makes_a_campaign_folder_with_the_bundled_data(gm, tmp_path):
    code, out, _ = gm("init", "camp")
    assert code == 0 and (tmp_path / "camp" / "decks" / "geeko.yaml").exists()
    assert gm("init", "camp")[0] == 1  # not empty any more


def test_game_new_refuses_bad_names_and_rosters_with_every_reason(gm):
    code, _, err = gm("game", "new", "my game", "--ruleset", "geeko", "--rooms", "halls", "--player", "a b:x@y:Zap")
    assert code == 1
    rule = "letters, digits, '-', '_' or '.', at most 40 characters, starting with a letter or digit"
    assert err.splitlines() == [f"game name 'my game': use {rule}", f"player name 'a b': use {rule}",
                                "player a b: 'x@y' is not a plain mail address (like alice@example.org or "
                                "jürgen@exämple.org: one address, no name or brackets, a dotted domain that IDNA can "
                                "write in ASCII)",
                                "player a b has 1 robots; geeko gives each player 2"]
