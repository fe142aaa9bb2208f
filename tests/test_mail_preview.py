"""See before you send (issue #24): orders mailed with `preview: true` come back as the path of the player's
robots on the board as it stands, other robots still, mechanisms acting, marked as a rehearsal; nothing stored.

Hand-computed on the halls game's Hall 1 (3x3, an open gate at r1c1, a pit at r2c3): alice's Zapper stands on
r3c1 and Spanner on r3c3, both facing N. Zapper runs FWD1, RT90: one square north to r2c1 (B5), then a quarter
turn right, facing E. Spanner runs FWD1, FWD1: one square north into the pit at r2c3 and is destroyed (B6)."""
from __future__ import annotations

import json
import mailbox

from mail_fixtures import mail, new_campaign
from test_mail_fetch import acks, status
from typer.testing import CliRunner

from pbem.cli import app

RUNNER = CliRunner()
ORDERS = """game: halls
turn: 1
player: alice
secret: s-alice
preview: true
robots:
  Zapper: {program: [FWD1#580, RT90#300]}
  Spanner: {program: [FWD1#630, FWD1#640]}
"""


def test_a_preview_by_mail_returns_the_path_and_stores_nothing(tmp_path, monkeypatch):
    monkeypatch.chdir(tmp_path)
    url, _ = new_campaign(tmp_path)
    inbox = mailbox.Maildir(str(tmp_path / "inbox"), create=True)
    inbox.add(mail("alice@example.org", ORDERS, "<p1@x>"))
    result = RUNNER.invoke(app, ["--db", url, "--now", "2026-01-01T13:00:00Z", "mail", "fetch", "--maildir",
                                 str(tmp_path / "inbox"), "--json"])
    [handled] = json.loads(result.stdout)
    assert handled["outcome"] == "previewed"
    [(to, subject, text)] = acks(url)
    assert to == "alice@example.org" and subject == "[pbem: orders previewed] orders"
    assert "A REHEARSAL: nothing was stored" in text
    zapper = text[text.index("  Zapper: r3c1 facing N"):]
    assert "after stage 1 (FWD1#580): r2c1 facing N, HP 10" in zapper
    assert "after stage 2 (RT90#300): r2c1 facing E, HP 10" in zapper
    spanner = text[text.index("  Spanner: r3c3 facing N"):]
    assert "after stage 1 (FWD1#630):" in spanner and "destroyed" in spanner.splitlines()[1]

    def pbem(*args):
        return 0, RUNNER.invoke(app, ["--db", url, *args]).stdout, ""
    assert status(pbem) == {"alice": None, "bob": None}  # nothing stored


def test_a_preview_with_a_card_problem_is_refused_like_any_orders(tmp_path, monkeypatch):
    monkeypatch.chdir(tmp_path)
    url, _ = new_campaign(tmp_path)
    inbox = mailbox.Maildir(str(tmp_path / "inbox"), create=True)
    inbox.add(mail("alice@example.org", ORDERS.replace("FWD1#640", "999"), "<p2@x>"))
    result = RUNNER.invoke(app, ["--db", url, "--now", "2026-01-01T13:00:00Z", "mail", "fetch", "--maildir",
                                 str(tmp_path / "inbox"), "--json"])
    assert [h["outcome"] for h in json.loads(result.stdout)] == ["refused"]


def test_turn_submit_never_stores_a_file_that_asks_for_a_preview(tmp_path):
    url, _ = new_campaign(tmp_path)
    (tmp_path / "alice.yaml").write_text(ORDERS, encoding="utf-8")
    result = RUNNER.invoke(app, ["--db", url, "--now", "2026-01-01T13:00:00Z", "turn", "submit", "halls",
                                 str(tmp_path / "alice.yaml")])
    assert result.exit_code == 1 and "5: preview: asks for a rehearsal only" in result.stdout
    checked = RUNNER.invoke(app, ["--db", url, "turn", "check", "halls", str(tmp_path / "alice.yaml")])
    assert checked.exit_code == 0, checked.stdout
