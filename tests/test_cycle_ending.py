"""#22: the end is told. A BotWars game with one life per player (RULES B8.2, `lives: 1`) left to `pbem run`:

- ann starts on a conveyor (r5c1, north) below a pit (r4c1): whatever card she plays in stage 1, she ends in the
  pit (B6: a card north falls in; a turn leaves her on the conveyor, which carries her in; a reverse hits the
  board's fence and the conveyor carries her in) — her only life is gone after turn 1.
- ben starts walled in on r3c3 (walls N, E, S; a laser mounted on its west wall fires through the square), on
  flag 1. No card moves him (B6.1: walls stop him and do no damage), so the laser hits him once a stage
  (B6b.5): 5 stages, 5 damage in turn 1 (HP 10 -> 5); turn 2 runs 4 cards and his fused register 5 (B7.3):
  5 more, HP 0 in stage 5, destroyed with no life left (B8.1). Every robot is out of lives: the game is over,
  and ben, with flag 1 touched, is first in the standings.

Nobody sends orders: B4.6 fills the registers from the hand, and the outcome does not depend on the cards.
"""
from __future__ import annotations

import json
from datetime import datetime, timedelta, timezone
from email import message_from_bytes, policy

import pytest
from sqlmodel import Session, create_engine, select
from typer.testing import CliRunner

from pbem.cli import app
from pbem.render.ending import done_note
from pbem.store.mail import MailOutgoing

RUNNER = CliRunner()
T0 = datetime(2026, 12, 1, 20, 0, tzinfo=timezone.utc)
ROOM = """name: Last Stand
size: 5x5
starts: [r5c1, r3c3]
elements:
  - {type: conveyor, at: r5c1, dir: N}
  - {type: pit, at: r4c1}
  - {type: wall, at: r3c3, side: N}
  - {type: wall, at: r3c3, side: E}
  - {type: wall, at: r3c3, side: S}
  - {type: laser, at: r3c3, wall: W}
  - {type: flag, at: r3c3, number: 1}
  - {type: flag, at: r1c5, number: 2}
"""
GAME = """name: stand
ruleset: botwars
ruleset_options: {lives: 1}
seed: 11
rooms: [stand.yaml]
deck: decks/standard.yaml
players:
  - {name: ann, email: ann@example.org, robots: [Axle]}
  - {name: ben, email: ben@example.org, robots: [Bolt]}
"""


def at(days: float) -> str:
    return (T0 + timedelta(days=days)).isoformat()


@pytest.fixture
def gm(tmp_path, monkeypatch):
    monkeypatch.chdir(tmp_path)
    monkeypatch.delenv("PBEM_MAIL_CONFIG", raising=False)
    (tmp_path / "stand").mkdir()
    (tmp_path / "stand" / "stand.yaml").write_text(ROOM)
    (tmp_path / "stand" / "game.yaml").write_text(GAME)
    (tmp_path / "inbox").mkdir()
    url = f"sqlite:///{tmp_path / 'pbem.db'}"

    def pbem(now: str, *args):
        result = RUNNER.invoke(app, ["--db", url, "--now", now, *map(str, args)])
        assert result.exception is None or isinstance(result.exception, SystemExit), result.exception
        return result
    assert pbem(at(0), "game", "import", tmp_path / "stand").exit_code == 0
    assert pbem(at(0), "game", "set", "stand", "--deadline", "1d", "--remind", "none").exit_code == 0
    return pbem, url


def run(pbem, now: str) -> list[tuple[str, int, str]]:
    result = pbem(now, "run", "--json")
    assert result.exit_code == 0, result.output
    return [(d["what"], d["turn"], d["detail"]) for d in json.loads(result.stdout)["done"]]


def mails(url: str, purpose: str) -> dict[str, str]:
    """recipient -> the text of the mail queued for `purpose`."""
    with Session(create_engine(url)) as session:
        rows = session.exec(select(MailOutgoing).where(MailOutgoing.purpose == purpose)).all()
    return {row.recipient: message_from_bytes(row.data, policy=policy.default).get_body(("plain",)).get_content()
            for row in rows}


def test_a_player_out_of_lives_is_told_and_at_the_end_everyone_gets_the_result(gm, tmp_path):
    pbem, url = gm
    assert run(pbem, at(0)) == [("dealt", 1, "due Wednesday 2 December, 20:00 UTC")]
    assert run(pbem, at(1)) == [("processed", 1, "missing: ann, ben"), ("dealt", 2, "due Thursday 3 December, "
                                                                                     "20:00 UTC"),
                                ("told", 1, "ann: out of lives")]
    shown = json.loads(pbem(at(1), "game", "show", "stand", "--json").stdout)
    assert [(r["name"], r["mode"], r["lives"]) for p in shown["players"] for r in p["robots"]] == [
        ("Axle", "destroyed", 0), ("Bolt", "real", 1)]  # hand-computed above: ann's only life gone
    assert shown["players"][1]["robots"][0]["hp"] == 5  # ben: 5 laser hits
    out = mails(url, "out")
    assert list(out) == ["ann@example.org"]
    assert "All your robots are out of lives (RULES B8.2): you have no more turns to play." in out["ann@example.org"]
    assert "You will keep receiving each turn's report" in out["ann@example.org"]
    ann_report = (tmp_path / "reports" / "stand" / "turn-001" / "mail" / "ann.eml").read_bytes()
    assert b"out of lives" in ann_report and b"out of lives" not in \
        (tmp_path / "reports" / "stand" / "turn-001" / "mail" / "ben.eml").read_bytes()
    assert run(pbem, at(1.5)) == []  # told once

    result = "The game is over: ben wins (every robot is out of lives, and the standings decide)."
    assert run(pbem, at(2)) == [("processed", 2, "missing: ben"), ("told", 2, "ann: the result"),
                                ("told", 2, "ben: the result")]
    end = mails(url, "end")
    assert sorted(end) == ["ann@example.org", "ben@example.org"]
    for text in end.values():
        assert result in " ".join(text.split())  # wrapped at 78 columns
        assert "1. ben: 1 flag touched, 0 lives left" in text and "2. ann: 0 flags touched, 0 lives left" in text
    assert run(pbem, at(3)) == []  # over: nothing more, nothing twice
    status = json.loads(pbem(at(3), "status", "--json").stdout)["games"][0]
    assert status["next"] == "nothing: the game is over"

    # the last report and the site show the end and the winner
    last = tmp_path / "reports" / "stand" / "turn-002"
    assert result in (last / "index.html").read_text()
    for name in ("ann", "ben"):
        mail = message_from_bytes((last / "mail" / f"{name}.eml").read_bytes(), policy=policy.default)
        assert result in " ".join(mail.get_body(("plain",)).get_content().split())  # wrapped at 78 columns
    assert "The game is over" not in (tmp_path / "reports" / "stand" / "turn-001" / "index.html").read_text()
    assert pbem(at(3), "site", "stand", "--out", tmp_path / "site").exit_code == 0
    page = (tmp_path / "site" / "stand" / "index.html").read_text()
    assert result in page and "not yet" not in page
    assert result in (tmp_path / "site" / "stand" / "turn-002" / "index.html").read_text()


def test_a_player_out_of_lives_is_told_press_is_still_open_when_the_game_relays_it(gm):
    """#22: the mail to a player with no more turns says what they may still do: watch (the reports) and, when
    the game's press policy relays press, send it; with press off it says nothing of press."""
    pbem, url = gm
    assert "press" not in done_note("out of lives")[-1]
    assert pbem(at(0), "game", "policy", "stand", "--press", "anonymous").exit_code == 0
    run(pbem, at(0))
    assert ("told", 1, "ann: out of lives") in run(pbem, at(1))
    told = mails(url, "out")["ann@example.org"]
    assert "You will keep receiving each turn's report" in told and "You may still send press" in told


def test_by_hand_mail_send_tells_the_end(gm, tmp_path):
    """A GM who processes by hand: `pbem mail send --game` queues the result with the last reports."""
    pbem, url = gm
    for _ in range(2):
        assert pbem(at(1), "turn", "deal", "stand").exit_code == 0
        assert pbem(at(1), "turn", "process", "stand").exit_code == 0
    sent = pbem(at(1), "mail", "send", "--game", "stand", "--dry-run", "--out", tmp_path / "out", "--json")
    assert sent.exit_code == 0, sent.output
    subjects = sorted((m["recipient"], m["subject"]) for m in json.loads(sent.stdout)["messages"])
    assert ("ann@example.org", "stand: the game is over") in subjects
    assert ("ben@example.org", "stand: the game is over") in subjects
    assert not any("no more turns" in subject for _, subject in subjects)  # the end says it all
    assert json.loads(sent.stdout)["queued"] == 4  # turn 2's two reports and the two results; no sheet
    # the dry run stored nothing: the next `pbem run` tells the result of the game that ended by hand, once
    assert run(pbem, at(1)) == [("told", 2, "ann: the result"), ("told", 2, "ben: the result")]
    assert run(pbem, at(2)) == []


@pytest.mark.slow  # real loopback SMTP and IMAP servers
def test_over_real_servers_the_review_comes_back_unread_and_every_ending_mail_arrives_once(
        gm, tmp_path, tmp_path_factory, monkeypatch):
    """The same game with a review hold, over the loopback servers: the review mail, sent to the GM's own
    address, lands in the GM's IMAP inbox and is read back as pbem's own (never unknown); ann's "no more turns"
    and both results reach their players exactly once."""
    from collections import Counter

    from mail_servers import ImapServer, SmtpServer, certificate, use_loopback_servers

    pbem, url = gm
    assert pbem(at(0), "game", "set", "stand", "--review").exit_code == 0
    cert, key = certificate(tmp_path_factory.mktemp("tls"))
    imap, smtp = ImapServer(cert, key), SmtpServer(cert, key).start()
    try:
        use_loopback_servers(monkeypatch, tmp_path, cert, imap.port, smtp.port)
        delivered = 0

        def to_the_gm() -> None:
            """The GM's mail server puts what was sent to gm@example.org into the GM's inbox."""
            nonlocal delivered
            for _, recipients, data in smtp.messages[delivered:]:
                if "gm@example.org" in recipients:
                    imap.deliver(data)
            delivered = len(smtp.messages)

        def ran(days: float) -> list[str]:
            result = pbem(at(days), "run", "--json")
            assert result.exit_code == 0, result.output
            to_the_gm()
            return [d["what"] for d in json.loads(result.stdout)["done"] if d["what"] != "sent"]

        assert ran(0) == ["dealt"]
        for day in (1, 2.2):  # turn 2 is dealt at the approval of turn 1 (day 1.2): due a day later
            assert ran(day) == ["held"]
            assert ran(day + 0.1) == []  # the review mail came back: read, and not unknown
            approved = pbem(at(day + 0.2), "turn", "approve", "stand", "--json")
            assert approved.exit_code == 0, approved.output
            assert ran(day + 0.3) == []  # sends what the approval queued
        assert json.loads(pbem(at(3), "mail", "unknown", "--json").stdout) == []
        subjects = Counter((to[0], message_from_bytes(data, policy=policy.default)["Subject"])
                           for _, to, data in smtp.messages)
        assert subjects[("ann@example.org", "stand: you have no more turns")] == 1
        assert subjects[("ann@example.org", "stand: the game is over")] == 1
        assert subjects[("ben@example.org", "stand: the game is over")] == 1
        assert subjects[("gm@example.org", "stand: turn 1 is ready for review")] == 1
        assert max(subjects.values()) == 1  # every message once
    finally:
        imap.stop()
        smtp.stop()
