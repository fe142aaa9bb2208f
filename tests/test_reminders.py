"""Reminders styled like the other mails (the same page style, inlined), saying in words what will happen to the
player's robots if no orders come (RULES B4.6 under the game's policy), every text line within 78 columns."""
from __future__ import annotations

import email
from email import policy

from mail_fixtures import new_campaign
from typer.testing import CliRunner

from pbem.cli import app
from pbem.engine.campaign import missing_programs
from pbem.gm.schedule import missing_fate
from pbem.mail.notices import reminder
from pbem.render.message import message_bytes
from pbem.store.games import Store, current_state, get_game

RUNNER = CliRunner()


def state_of(url: str, name: str):
    store = Store(url)
    try:
        with store.session() as session:
            return current_state(session, get_game(session, name))
    finally:
        store.close()


def parts(message) -> tuple[str, str]:
    parsed = email.message_from_bytes(message_bytes(message), policy=policy.default)
    return (parsed.get_body(("plain",)).get_content().replace("\r\n", "\n"),
            parsed.get_body(("html",)).get_content())


def test_a_geeko_reminder_says_the_robots_will_stand_still(tmp_path):
    url, _ = new_campaign(tmp_path)
    fate = missing_fate(state_of(url, "halls"), "alice")  # Geek-o: missing orders idle (B4.6)
    text, html = parts(reminder("gm@x.org", "halls", 1, "alice", "alice@example.org",
                                "due Friday 2 January, 20:00 UTC", 24, fate=fate))
    assert "your robots will stand still this turn" in " ".join(text.split()) and "B4.6 decides" not in text
    assert max(len(line) for line in text.splitlines()) <= 78
    assert "font-family" in html and "stand still" in html and "<script" not in html


def test_a_botwars_reminder_names_the_cards_each_robot_will_run(tmp_path):
    db = f"sqlite:///{tmp_path / 'pbem.db'}"
    for command in (["game", "new", "bw", "--ruleset", "botwars", "--player", "alice:alice@x.org:Zapper",
                     "--player", "bob:bob@x.org:Bolt", "--seed", "3"], ["turn", "deal", "bw", "--out",
                                                                         str(tmp_path / "sheets")]):
        assert RUNNER.invoke(app, ["--db", db, "--now", "2026-01-01T12:00:00Z", *command]).exit_code == 0
    state = state_of(db, "bw")
    first = [str(card) for card in state.hands["Zapper"][:5]]  # B4.6 fill: the top of the hand, in order
    assert [str(card) for card in missing_programs(state, "alice")["Zapper"]] == first
    text, _ = parts(reminder("gm@x.org", "bw", 1, "alice", "alice@x.org", "due Friday 2 January, 20:00 UTC", 24,
                             fate=missing_fate(state, "alice")))
    assert "each of your robots will run the first cards of its hand" in " ".join(text.split())
    assert f"  Zapper: {' '.join(first)}" in text
    assert max(len(line) for line in text.splitlines()) <= 78
