"""Nothing from mail drives the GM's terminal (#28): addresses, subjects and names with control characters are
printed escaped by `mail fetch`, `mail unknown`, `run` and `status`."""
from __future__ import annotations

import mailbox
import re

from cli_process import run_pbem
from mail_fixtures import new_campaign, order_mail

from pbem.cli.common import escaped

RAW = re.compile(r"[\x00-\x08\x0b-\x1f\x7f-\x9f\u200e\u200f\u202a-\u202e\u2028\u2029]")
HOSTILE = [
    b"From: x\x1bc@evil.example\r\nMessage-ID: <e1@evil>\r\nSubject: \x1b]0;owned\x07 \xe2\x80\xae\r\n\r\nhi\r\n",
    b"From: \"\x1b[2J\" <bob@example.org>\r\nMessage-ID: <e2@evil>\r\nSubject: =?utf-8?q?=1B[31m?=\r\n\r\n"
    b"game: halls\x1b[1m\r\nturn: 1\r\n",
    b"From: \xe2\x80\xae@evil.example\r\nMessage-ID: <e3@evil>\r\n\r\nhi\r\n",
]


def test_escaped_writes_every_control_character_as_an_escape_and_keeps_the_rest():
    assert escaped("x\x1bc@evil.example") == "x\\x1bc@evil.example"
    assert escaped("a\u202eb\u2028c\x00\x7f\x9b") == "a\\u202eb\\u2028c\\x00\\x7f\\x9b"
    assert escaped("Jürgen\tWürfel 🤖 ok") == "Jürgen\tWürfel 🤖 ok"


def test_mail_fetch_unknown_run_and_status_print_mail_escaped(tmp_path):
    url, hands = new_campaign(tmp_path)
    inbox = mailbox.Maildir(str(tmp_path / "inbox"), create=True)
    for data in HOSTILE:
        inbox.add(data)
    fetched = run_pbem("--db", url, "mail", "fetch", "--maildir", tmp_path / "inbox", cwd=tmp_path)
    assert "x\\x1bc@evil.example" in fetched.stdout + fetched.stderr
    unknown = run_pbem("--db", url, "mail", "unknown", cwd=tmp_path)
    assert "x\\x1bc@evil.example" in unknown.stdout
    assert run_pbem("--db", url, "game", "set", "halls", "--deadline", "1d", cwd=tmp_path).returncode == 0
    runbox = mailbox.Maildir(str(tmp_path / "second"), create=True)
    runbox.add(HOSTILE[0].replace(b"<e1@evil>", b"<e4@evil>"))
    runbox.add(order_mail("bob", hands["bob"], "<e5@bob>").replace(b"Subject: orders", b"Subject: \x1b[5morders"))
    ran = run_pbem("--db", url, "run", "--maildir", tmp_path / "second", cwd=tmp_path)
    assert "x\\x1bc@evil.example" in ran.stdout
    status = run_pbem("--db", url, "status", cwd=tmp_path)
    for result in (fetched, unknown, ran, status):
        assert result.returncode in (0, 1) and "Traceback" not in result.stderr, result.stderr
        assert not RAW.search(result.stdout) and not RAW.search(result.stderr), (result.args, result.stdout)
