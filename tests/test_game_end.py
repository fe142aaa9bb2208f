"""`pbem game end NAME` (issue #35): the GM ends a game before its rules do, with a winner, as a draw or
abandoned. Everyone (players and observers) is told in their own words, the end is kept in the game's history
of controls (and by export/import), and the game is closed: no sheet, reminder or turn follows, orders after it
are refused saying when it ended, and `game show`, `status` and the site say so."""
from __future__ import annotations

import json

from mail_fixtures import order_mail
from test_gm_controls import at, campaign, outbox, run, text_of  # noqa: F401 (a fixture)

ENDED = "halls ended on 2026-12-03 20:00 UTC: alice wins (the game master ended it)"


def test_the_gm_ends_a_game_with_a_winner_and_nothing_follows(campaign, tmp_path, monkeypatch):  # noqa: F811
    pbem, hands, inbox, url = campaign
    pbem(at(1), "game", "observe", "halls", "watcher@example.net")
    done = json.loads(pbem(at(2), "game", "end", "halls", "--winner", "alice", "--reason", "bob moved abroad",
                           "--json").stdout)
    assert done == {"game": "halls", "ended": at(2), "how": "winner", "winner": "alice", "reason": "bob moved abroad"}
    told = {row.recipient: " ".join(text_of(row).split()) for row in outbox(url, "control")
            if "the game is over" in row.subject}
    assert told.keys() == {"alice@example.org", "bob@example.org", "watcher@example.net"}
    assert "The game master has ended halls: you win." in told["alice@example.org"]
    assert "The game master has ended halls: alice wins." in told["bob@example.org"]
    assert "alice wins." in told["watcher@example.net"] and "Their reason: bob moved abroad" in told["bob@example.org"]

    history = json.loads(pbem(at(2), "game", "history", "halls", "--json").stdout)
    assert history[-1] | {"at": None} == {"at": None, "kind": "end", "player": "alice", "how": "winner",
                                          "reason": "bob moved abroad"}
    shown = pbem(at(2), "game", "show", "halls").stdout
    assert f"  {ENDED} (bob moved abroad)" in shown
    assert json.loads(pbem(at(2), "game", "show", "halls", "--json").stdout)["ended"]["winner"] == "alice"
    line = pbem(at(3), "status").stdout
    assert f"next: nothing: {ENDED}" in line
    from_rows = pbem(at(3), "status", "--json").stdout
    assert json.loads(from_rows)["games"][0]["ended"] == at(2)
    with monkeypatch.context() as patch:  # the ORM's path says the same
        patch.setattr("pbem.cli.run.quiet_status", lambda *_: None)
        assert pbem(at(3), "status", "--json").stdout == from_rows

    sent = len(outbox(url))
    assert run(pbem, at(4, 1), tmp_path) == [] and run(pbem, at(6), tmp_path) == []  # no reminder, no turn
    assert len(outbox(url)) == sent

    inbox.add(order_mail("alice", hands["alice"], "<late@x>"))
    assert run(pbem, at(6, 1), tmp_path) == []
    [ack] = [row for row in outbox(url, "ack")]
    assert f"orders are no longer taken: {ENDED}" in " ".join(text_of(ack).split())
    (tmp_path / "alice.yaml").write_text(order_mail("alice", hands["alice"], "<x@x>").decode())
    refused = pbem(at(6, 2), "turn", "check", "halls", tmp_path / "alice.yaml", code=1)
    assert "orders are no longer taken" in refused.stdout
    assert ENDED in pbem(at(6, 2), "turn", "process", "halls", code=1).output
    assert ENDED in pbem(at(6, 2), "turn", "deal", "halls", "--out", tmp_path / "s", code=1).output


def test_a_draw_and_an_abandoned_game_are_said_so(campaign, tmp_path):  # noqa: F811
    pbem, _, _, url = campaign
    pbem(at(1), "game", "end", "halls", "--draw")
    told = [" ".join(text_of(row).split()) for row in outbox(url, "control") if "the game is over" in row.subject]
    assert len(told) == 2 and all("The game master has ended halls: a draw: nobody wins." in t for t in told)
    assert "Their reason" not in told[0]
    assert "halls ended on" in pbem(at(1), "game", "end", "halls", "--abandoned", code=1).output  # once only


def test_exactly_one_ending_and_a_real_winner(campaign):  # noqa: F811
    pbem, *_ = campaign
    assert "exactly one of --winner PLAYER, --draw or --abandoned" in pbem(at(1), "game", "end", "halls",
                                                                           code=2).output
    pbem(at(1), "game", "end", "halls", "--draw", "--abandoned", code=2)
    assert "zed is not a player of halls (alice, bob)" in pbem(at(1), "game", "end", "halls", "--winner", "zed",
                                                                code=1).output
    assert "ended" not in pbem(at(1), "game", "show", "halls").stdout


def test_export_and_import_keep_the_end(campaign, tmp_path):  # noqa: F811
    pbem, *_ = campaign
    pbem(at(2), "game", "end", "halls", "--abandoned", "--reason", "no time")
    pbem(at(2), "game", "export", "halls", tmp_path / "out")
    copy = f"sqlite:///{tmp_path / 'copy.db'}"
    from typer.testing import CliRunner

    from pbem.cli import app
    imported = CliRunner().invoke(app, ["--db", copy, "game", "import", str(tmp_path / "out")])
    assert imported.exit_code == 0, imported.output
    shown = json.loads(CliRunner().invoke(app, ["--db", copy, "game", "show", "halls", "--json"]).stdout)
    assert shown["ended"] | {"at": None} == {"at": None, "how": "abandoned", "winner": None, "reason": "no time",
                                             "text": "halls ended on 2026-12-03 20:00 UTC: abandoned, without a "
                                                     "result (the game master ended it)"}


def test_the_site_shows_the_end_and_the_winner_the_gm_named(campaign, tmp_path):  # noqa: F811
    pbem, *_ = campaign
    pbem(at(2), "game", "end", "halls", "--winner", "bob", "--reason", "alice resigned")
    pbem(at(2), "site", "halls", "--out", tmp_path / "site")
    page = (tmp_path / "site" / "halls" / "index.html").read_text()
    assert "halls ended on 2026-12-03 20:00 UTC: bob wins (the game master ended it): alice resigned" in page
    assert "over: bob won" in " ".join((tmp_path / "site" / "index.html").read_text().split())
