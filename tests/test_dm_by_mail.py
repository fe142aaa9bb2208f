"""A Gyulbot and an Ice match played by mail through `pbem run --now` over the real loopback IMAP and SMTP
servers (RULES D1.4, D2.3, D5 rulings).

Actions count at the time the GM's server received them (their `Received:` header), the GM extends a
deadline, and a deadline that passes with nobody acting is applied by the scheduled run, which mails both
players the new position. Every mail about a match carries the picture inline and the text board.
"""
from __future__ import annotations

import json
from email import message_from_bytes, policy

import pytest
from mail_fixtures import mail
from mail_servers import ImapServer, SmtpServer, certificate, use_loopback_servers
from typer.testing import CliRunner

from pbem.cli import app
from pbem.mail.post import match_thread

pytestmark = pytest.mark.slow  # real mail servers: the soak part of the suite

RUNNER = CliRunner()
DAY = "2026-12-01T"
PUZZLE = "{size: 4, walls: [], robots: {red: [r4c1], blue: [r2c3]}, goal: {at: r1c4, colour: red}}"
GYULBOT = f"""\
game: gyulbot
players: [ann, bob]
options: {{rounds: 2, start: {DAY}20:00:00Z}}
puzzles: [{PUZZLE}, {PUZZLE}]
actions: []
"""
ICE = f"""\
game: ice
players: [ann, bob]
options: {{target: 1, start: {DAY}20:00:00Z}}
puzzles:
  - map: ["S....", ".....", ".....", ".....", "....G"]
actions: []
"""


@pytest.fixture
def desk(tmp_path, tmp_path_factory, monkeypatch):
    monkeypatch.chdir(tmp_path)  # the run archives the mail it reads in ./mail-archive
    cert, key = certificate(tmp_path_factory.mktemp("tls"))
    imap, smtp = ImapServer(cert, key), SmtpServer(cert, key).start()
    use_loopback_servers(monkeypatch, tmp_path, cert, imap.port, smtp.port)
    try:
        yield Table(tmp_path, imap, smtp)
    finally:
        imap.stop()
        smtp.stop()


class Table:
    """The GM's desk: the database, the mail servers, and `pbem` run at a given time."""

    def __init__(self, tmp_path, imap, smtp):
        self.url = f"sqlite:///{tmp_path / 'pbem.db'}"
        self.folder = tmp_path
        self.imap, self.smtp = imap, smtp
        self.sent = 0
        self.threads: set[str] = set()  # the first References id of every mail seen

    def pbem(self, *args, now: str | None = None):
        result = RUNNER.invoke(app, ["--db", self.url, *(["--now", DAY + now + "Z"] if now else []),
                                     *[str(a) for a in args]])
        if result.exception is not None and not isinstance(result.exception, SystemExit):
            raise result.exception
        return result

    def new_match(self, name: str, transcript: str) -> None:
        path = self.folder / f"{name}.yaml"
        path.write_text(transcript)
        assert self.pbem("dm", "new", name, "--from", path, "--out", self.folder).exit_code == 0
        for player in ("ann", "bob"):
            made = self.pbem("mail", "dm-player", name, player, f"{player}@example.org", "--secret", f"{player}-secret")
            assert made.exit_code == 0

    def send(self, match: str, player: str, action: str, received: str) -> None:
        """A player's mail, received by the GM's server at `received` (a time of DAY)."""
        body = f"match: {match}\nplayer: {player}\nsecret: {player}-secret\naction: {action}\n"
        data = mail(f"{player} <{player}@example.org>", body, f"<{match}-{player}-{received}@example.org>")
        stamp = f"Received: from mx.example.org by gm.example.org; Tue, 01 Dec 2026 {received} +0000\r\n".encode()
        self.imap.deliver(stamp + data)

    def run(self, now: str) -> dict:
        """`pbem run` (fetch over IMAP, send over SMTP) at `now`: what it did, but the mail it sent."""
        result = self.pbem("run", "--json", now=now)
        assert result.exit_code in (0, 1), result.output
        return {"done": [d for d in json.loads(result.stdout)["done"] if d["what"] != "sent"]}

    def position(self, match: str) -> dict:
        return json.loads(self.pbem("dm", "show", match, "--json", "--out", self.folder).stdout)

    def new_mail(self) -> list[tuple[str, str, str, list[str]]]:
        """(recipient, subject, plain text, picture Content-IDs) of the mail the SMTP server got since the last call."""
        received = self.smtp.messages[self.sent:]
        self.sent += len(received)
        found = []
        for _, _, data in received:
            message = message_from_bytes(data, policy=policy.default)
            text = message.get_body(("plain",)).get_content().replace("\r\n", "\n")
            found.append((message["To"], message["Subject"], text,
                          [p["Content-ID"] for p in message.walk() if p["Content-ID"]]))
            self.threads.add(message["References"].split()[0])
        return found


def test_a_gyulbot_match_by_mail_with_an_extension_and_a_deadline_nobody_meets(desk, tmp_path):
    desk.new_match("g1", GYULBOT)
    # the match starts at 20:00: the run then sends each player the opening mail (rules, secret, position)
    assert [d["what"] for d in desk.run("20:00:00")["done"]] == ["opened", "opened"]
    assert [subject for _, subject, _, _ in desk.new_mail()] == ["[pbem] g1: your Gyulbot match begins"] * 2
    # ann's claim reached the server at 20:01:00 (fetched at 20:03:00): bob's undercut minute ended at 20:02:00,
    # so by the run's time ann must demonstrate by 20:04:00 (D1.4)
    desk.send("g1", "ann", "{claim: 2}", "20:01:00")
    done = desk.run("20:03:00")["done"]
    assert [d["what"] for d in done] == ["fetched", "deadline"]
    assert done[1]["detail"] == "2026-12-01 20:02:00 UTC: no undercut: ann demonstrates 2"
    assert desk.position("g1")["position"]["phase"] == "demo"
    mails = desk.new_mail()
    assert [(to, subject) for to, subject, _, _ in mails] == [
        ("ann@example.org", "[pbem] action accepted: orders"),
        ("bob@example.org", "[pbem] g1: ann has acted"),
        ("ann@example.org", "[pbem] g1: a deadline passed: no undercut: ann demonstrates 2"),
        ("bob@example.org", "[pbem] g1: a deadline passed: no undercut: ann demonstrates 2")]
    ann_now = mails[2][2]
    assert "Deadline: 2026-12-01 20:04:00 UTC, waiting for ann.\nThat is 1 min 00 s from 2026-12-01 20:03:00 UTC, when this mail was written." in ann_now
    assert '{solution: "Red UR"}  at most 2 moves' in ann_now and 'secret: "ann-secret"' in ann_now
    # the GM gives ann two more minutes (recorded, and both players are told)
    assert desk.pbem("dm", "extend", "g1", "120", "--out", tmp_path, now="20:03:30").exit_code == 0
    told = desk.new_mail()  # sent by `dm extend` at once (D5 ruling: the GM's command, on the one clock)
    assert [subject for _, subject, _, _ in told] == [
        "[pbem] g1: the GM extended the deadline by 120 s to 2026-12-01 20:06:00 UTC"] * 2
    assert desk.run("20:04:30")["done"] == []  # 20:04:00 has passed, but the extended deadline is 20:06:00
    assert "Deadline: 2026-12-01 20:06:00 UTC, waiting for ann.\nThat is 2 min 30 s from 2026-12-01 20:03:30 UTC, when this mail was written." in told[0][2]
    desk.send("g1", "ann", '{solution: "Red UR"}', "20:05:00")
    done = desk.run("20:05:30")["done"]
    assert [d["what"] for d in done] == ["fetched"] and done[0]["detail"].startswith("accepted")
    assert desk.position("g1")["scores"] == {"ann": 1, "bob": 0}
    mails = desk.new_mail()
    # round 2 opened at 20:05:00 (the solution's receipt): claims close at 20:15:00
    assert "Deadline: 2026-12-01 20:15:00 UTC, open to both players.\nThat is 9 min 30 s from 2026-12-01 20:05:30 UTC, when this mail was written." \
        in mails[0][2]
    # nobody claims in round 2: the scheduled run applies the deadline and the match ends (ann 1 - bob 0)
    done = desk.run("20:16:00")["done"]
    assert [(d["what"], d["game"]) for d in done] == [("deadline", "g1")]
    final = desk.position("g1")
    assert final["over"] and final["winner"] == "ann" and final["scores"] == {"ann": 1, "bob": 0}
    assert [s["player"] for s in final["submissions"]] == ["ann", "GM", "GM", "ann", "GM"]
    assert [s["payload"] for s in final["submissions"] if s["player"] == "GM"] == [
        {"timeout": True}, {"extend": 120}, {"timeout": True}]
    ended = desk.new_mail()
    assert sorted(to for to, *_ in ended) == ["ann@example.org", "bob@example.org"]
    assert all("Match over: ann wins." in text for _, _, text, _ in ended)
    assert desk.run("20:16:00")["done"] == [] and desk.new_mail() == []  # never twice
    assert desk.threads == {match_thread("g1")}  # every mail about the match is in one thread
    for _, _, text, pictures in told + mails + ended:  # every mail: the picture inline and the text board
        assert pictures == ["<position.png@pbem>"] and "c1  c2  c3  c4" in text and "r4  |" in text


def test_an_ice_match_by_mail_a_late_answer_and_a_silent_buzzer(desk):
    desk.new_match("i1", ICE)
    desk.run("20:00:00")
    assert len(desk.new_mail()) == 2  # the opening mails
    # the snom at r1c1 needs R then D (2 orders); ann buzzes 2 at 20:01:00, so she must present by 20:02:00
    desk.send("i1", "ann", "{claim: 2}", "20:01:00")
    desk.run("20:01:30")
    assert "Deadline: 2026-12-01 20:02:00 UTC, waiting for ann.\nThat is 0 min 30 s from 2026-12-01 20:01:30 UTC, when this mail was written." \
        in desk.new_mail()[0][2]
    # ann's solution reached the server at 20:02:10, after the minute: the deadline is applied first, and
    # her late solution is refused and says why
    desk.send("i1", "ann", '{solution: "RD"}', "20:02:10")
    done = desk.run("20:03:00")["done"]
    assert [d["what"] for d in done] == ["fetched"] and done[0]["detail"].startswith("refused")
    final = desk.position("i1")
    assert final["over"] and final["winner"] == "bob" and final["scores"] == {"ann": 0, "bob": 1}
    mails = desk.new_mail()
    refusal = mails[0][2]
    assert "too late: at 2026-12-01 20:02:00 UTC ann did not present 2 orders: bob scores." in " ".join(
        refusal.split())  # the text part is wrapped at 78 columns
    assert "Your action was recorded as refused" in refusal
    assert [to for to, *_ in mails] == ["ann@example.org", "bob@example.org"]  # bob hears that the deadline passed
    for _, _, text, pictures in mails:
        assert pictures == ["<position.png@pbem>"] and "  1 S...." in text
