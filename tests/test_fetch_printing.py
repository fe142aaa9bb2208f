"""#38 item 4: what `pbem mail fetch` (and `pbem run`) prints of each message ends its line — every kind of refusal
of orders, mail commands and death-match actions, with reasons that hold line breaks (CRLF, CR, LF), trailing
spaces or none at the end — so the summary on stderr never runs into a reason ("…(`name: value`)1 new message(s)
handled") when a GM's terminal or cron mail shows both streams together."""
from __future__ import annotations

import json
import mailbox
import os
import shutil
import subprocess
import sys
from pathlib import Path

import pytest
from mail_fixtures import mail, new_campaign, orders_text
from typer.testing import CliRunner

from pbem.cli import app
from pbem.cli.common import say_lines

ROOT = Path(__file__).resolve().parent.parent
HEADS = ("REFUSED ", "UNKNOWN ", "ACCEPTED ", "PREVIEWED ", "OWN ", "DUPLICATE ")


@pytest.mark.parametrize("reason, printed", [
    ("a `:` is missing after the name (`name: value`)", ["  a `:` is missing after the name (`name: value`)"]),
    ("late: the deadline has passed\r\n", ["  late: the deadline has passed"]),
    ("this is not alice's secret   ", ["  this is not alice's secret"]),
    ("action {move: B2-A9, note: 'long\n    words'}: unknown field 'note'\r\n\r\nsee the rules\rnow",
     ["  action {move: B2-A9, note: 'long", "        words'}: unknown field 'note'", "    see the rules", "    now"]),
    ("odd \x1b[2J key\u2028next", ["  odd \\x1b[2J key", "    next"]),
])
def test_a_reason_is_printed_as_whole_lines_each_ending_its_own(capsys, reason, printed):
    say_lines(reason, "  ")
    out = capsys.readouterr().out
    assert out.endswith("\n") and out.splitlines() == printed


def refusals(hands: dict[str, list[str]]) -> dict[str, tuple[str, str]]:
    """(sender, text) of a message of each kind the GM refuses, as players' mail programs send them (Outlook's
    CRLF, Apple Mail's trailing spaces, a phone's lone CRs)."""
    a = orders_text("alice", hands["alice"])
    action = "match: m1\nplayer: Red\nsecret: red-secret\naction: {move: B2-A2}\n"
    alice = "Alice <alice@example.org>"
    return {
        "yaml-colon": (alice, a.replace("  Zapper:", "  Zapper")),
        "yaml-bracket": (alice, a.replace("]}", "}", 1)),
        "wrong-secret": (alice, a.replace("s-alice", "s-guess").replace("\n", "\r\n")),
        "no-secret": (alice, a.replace("secret: s-alice\n", "")),
        "other-address": ("bob@example.org", a),
        "no-such-game": (alice, a.replace("game: halls", "game: hall").replace("\n", "   \n")),
        "no-such-player": (alice, a.replace("player: alice", "player: alicia").replace("\n", "\r")),
        "wrong-turn": (alice, a.replace("turn: 1", "turn: 5")),
        "unknown-card": (alice, a.replace(hands["alice"][0], "FWD9#999")),
        "no-orders": (alice, "Hello GM,\n\nwhen is the next turn due?\n\nAlice\n"),
        "command": (alice, "game: halls\nplayer: alice\nsecret: s-alice\ncommand: dance\n"),
        "press": (alice, "game: halls\nplayer: alice\nsecret: s-alice\npress: {to: zed, text: hi}\n"),
        "dm-field": (alice, action + "colour: red\n"),
        "dm-roll": (alice, action.replace("{move", "{roll: 6, move")),
        "dm-long": (alice, action.replace("B2-A2}", "B2-A9, note: '" + "a long note " * 12 + "'}")),
        "dm-secret": (alice, action.replace("red-secret", "guess")),
        "dm-turn": ("bob@example.org", action.replace("Red", "Green").replace("red-secret", "green-secret")),
        "stranger": ("stranger@example.org", "hi\n"),
    }


def test_every_refusal_printed_by_mail_fetch_and_run_ends_its_line(tmp_path, monkeypatch):
    monkeypatch.chdir(tmp_path)
    url, hands = new_campaign(tmp_path)
    runner = CliRunner()
    for args in (["dm", "new", "m1", "--game", "takebacktoe", "--player", "Red", "--player", "Green", "--option",
                  "dice=gm", "--out", tmp_path],
                 ["mail", "dm-player", "m1", "Red", "alice@example.org", "--secret", "red-secret"],
                 ["mail", "dm-player", "m1", "Green", "bob@example.org", "--secret", "green-secret"],
                 ["dm", "roll", "m1", "4", "--out", tmp_path]):
        assert runner.invoke(app, ["--db", url, *map(str, args)]).exit_code == 0
    inbox = mailbox.Maildir(str(tmp_path / "inbox"), create=True)
    kinds = refusals(hands)
    for kind, (sender, body) in kinds.items():
        inbox.add(mail(sender, body, f"<{kind}@x>"))
    inbox.add(mail("alice@example.org", "", "<attachment@x>", attachments=(("board.png", "image/png", b"\x89PNG"),)))
    for copy in ("json", "run"):
        shutil.copytree(tmp_path / "inbox", tmp_path / copy)
        shutil.copyfile(tmp_path / "pbem.db", tmp_path / f"{copy}.db")
    listed = runner.invoke(app, ["--db", f"sqlite:///{tmp_path / 'json.db'}", "mail", "fetch", "--maildir",
                                 tmp_path / "json", "--json"])
    handled = json.loads(listed.stdout)
    assert sorted(h["key"].split()[0][1:-3] for h in handled if h["outcome"] in ("refused", "unknown")) \
        == sorted([*kinds, "attachment"])
    # as a GM's terminal (or cron's mail) shows it: both streams in one, from a process of its own
    env = {**os.environ, "PYTHONPATH": str(ROOT), "PBEM_MAIL_CONFIG": ""}
    fetched = subprocess.run([sys.executable, "-m", "pbem", "--db", url, "mail", "fetch", "--maildir",
                              tmp_path / "inbox"], stdout=subprocess.PIPE, stderr=subprocess.STDOUT, env=env,
                             cwd=tmp_path, text=True)
    lines = fetched.stdout.splitlines()
    assert fetched.returncode == 1 and fetched.stdout.endswith("\n")
    assert lines[-1].startswith(f"{len(handled)} new message(s) handled, 0 handled before"), lines[-1]
    assert [line for line in lines if "new message(s) handled" in line] == [lines[-1]]
    assert sum(line.startswith(HEADS) for line in lines) == len(handled)
    for line in lines[:-1]:
        assert line.startswith(HEADS) or line.startswith("  "), line
        assert line == line.rstrip() and "\\n" not in line and "\\r" not in line, line
    printed = [line.strip() for line in lines]
    for h in handled:
        for reason in h["reasons"]:
            assert [part.strip() for part in reason.splitlines() if part.strip()] \
                == printed[printed.index(reason.splitlines()[0].strip()):][:len(reason.splitlines())], reason
    ran = subprocess.run([sys.executable, "-m", "pbem", "--db", f"sqlite:///{tmp_path / 'run.db'}", "--now",
                          "2026-12-01T20:00Z", "run", "--maildir", tmp_path / "run"], stdout=subprocess.PIPE,
                         stderr=subprocess.STDOUT, env=env, cwd=tmp_path, text=True)
    assert ran.stdout.endswith("\n") and ran.stdout.splitlines()[-1].startswith("2026-12-01 20:00 UTC: ")
    assert sum(line.startswith("FETCHED ") for line in ran.stdout.splitlines()) == len(handled), ran.stdout
