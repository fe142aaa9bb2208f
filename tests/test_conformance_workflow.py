"""The whole GM workflow for every game the registry lists, the test games of `conftest.TEST_GAMES` included (issue
#33): a GM and two players at the desk, everything through the command line with `--now` and the loopback IMAP and
SMTP servers — a new game, the opening mail to each player, a move by mail from Thunderbird (plain text, a
signature) and one from Outlook (the mail it answers pasted unquoted under `-----Original Message-----`), `turn
extend`, `game pause`/`resume`, `game replace`, `game export`/`import`, `replay --verify`, the site page and its
Atom feed, and a late move refused naming the deadline. A new entry in the registry is played here without a line
of this file changing: the players read only their mails (the reply lines offered, a campaign's order file and hand).
"""
from __future__ import annotations

import json
import re
from dataclasses import replace
from datetime import datetime, timedelta
from email.message import EmailMessage
from email.policy import SMTP

import feedparser
import pytest
from dm_desk import DAY, Desk, reply_block
from mail_servers import ImapServer, SmtpServer, certificate, use_loopback_servers
from test_dm_conformance import CONFIGS

from pbem import games
from pbem.formats.transcript import dump_transcript

PLAYERS = ("ann", "bob")
NAME = "g1"
START = datetime.fromisoformat(f"{DAY}08:00:00+00:00")


def at(seconds: int) -> str:
    """The time `seconds` after the start, as the desk takes it."""
    return (START + timedelta(seconds=seconds)).replace(tzinfo=None).isoformat()


@pytest.fixture
def desk(tmp_path, tmp_path_factory, monkeypatch):
    """The GM's desk on the loopback servers: `pbem run` reads the IMAP inbox and sends over SMTP."""
    monkeypatch.chdir(tmp_path)
    cert, key = certificate(tmp_path_factory.mktemp("tls"))
    imap, smtp = ImapServer(cert, key), SmtpServer(cert, key).start()
    use_loopback_servers(monkeypatch, tmp_path, cert, imap.port, smtp.port)
    try:
        yield Desk(tmp_path, imap, smtp)
    finally:
        imap.stop()
        smtp.stop()


class Table:
    """How the GM sets up a game of one kind, and how its players answer a mail (None: it asks nothing of them)."""

    def __init__(self, entry: games.Entry, desk: Desk):
        self.entry, self.desk = entry, desk

    def new(self) -> None:
        raise NotImplementedError

    def answer(self, text: str) -> str | None:
        raise NotImplementedError

    def pbem(self, *args: object, now: str, code: int | None = 0):
        result = self.desk.pbem(*args, now=now)
        assert code is None or result.exit_code == code, result.output
        return result


class CampaignTable(Table):
    """A campaign: `game new` with two robots a player, its turns due in two days; the turn sheet is the opening mail,
    and a player answers it with its order file, one card of their hand in each robot's program."""

    def new(self) -> None:
        seats = [f"--player={p}:{p}@example.org:{p.title()}One,{p.title()}Two" for p in PLAYERS]
        self.pbem("game", "new", NAME, "--ruleset", self.entry.name, "--seed", "7", *seats, now=at(0))
        self.pbem("game", "set", NAME, "--deadline", "2d", now=at(0))

    def answer(self, text: str) -> str | None:
        found = re.search(r"Your order file \(edit the programs and send it back\):\n\n(.*)", text, re.S)
        if found is None:
            return None
        hand = iter(re.findall(r"\b[A-Z0-9]+#\d+\b", text.split("Hand:")[1].split("\n\n")[0]))
        return re.sub(r"\{program: \[\]\}", lambda _: f"{{program: [{next(hand)}]}}", found.group(1))


class MatchTable(Table):
    """A death match: `dm new` from a transcript header (the conformance suite's set-up of the game), each player
    enrolled by mail with a secret; a player answers with the reply lines their mail offers."""

    def new(self) -> None:
        config = replace(CONFIGS[self.entry.name], players=PLAYERS)
        (self.desk.folder / "match.yaml").write_text(dump_transcript(config, []))
        self.pbem("dm", "new", NAME, "--from", self.desk.folder / "match.yaml", "--out", self.desk.folder, now=at(0))
        for player in PLAYERS:
            self.pbem("mail", "dm-player", NAME, player, f"{player}@example.org", "--secret", f"{player}-secret",
                      now=at(0))

    def answer(self, text: str) -> str | None:
        return reply_block(text)


def table(entry: games.Entry, desk: Desk) -> Table:
    return (CampaignTable if entry.kind is games.Kind.CAMPAIGN else MatchTable)(entry, desk)


def thunderbird(player: str, lines: str, number: int) -> bytes:
    """Plain text, the lines typed above a signature."""
    return client_mail(player, "Re: your move", f"Hello GM,\n\n{lines}\nThanks,\n-- \n{player}\n", number)


def outlook(player: str, lines: str, original: str, number: int) -> bytes:
    """Outlook's reply: the lines on top, CRLF, then the mail it answers pasted unquoted under its separator."""
    separator = ("-----Original Message-----\nFrom: Game Master <gm@example.org>\nSent: Tuesday, December 1, 2026 "
                 f"8:00 AM\nTo: {player.title()} <{player}@example.org>\nSubject: {NAME}\n\n")
    return client_mail(player, f"RE: {NAME}", f"{lines}\n{separator}{original}", number)


def client_mail(player: str, subject: str, body: str, number: int) -> bytes:
    message = EmailMessage(policy=SMTP)
    message["From"], message["To"] = f"{player.title()} <{player}@example.org>", "Game Master <gm@example.org>"
    message["Subject"], message["Message-ID"] = subject, f"<w{number}-{player}@example.org>"
    message.set_content(body.replace("\n", "\r\n"), cte="quoted-printable")
    return message.as_bytes()


class Players:
    """What each player has been mailed, read from the outbox as it goes out."""

    def __init__(self, desk: Desk):
        self.desk, self.mail = desk, {}
        self.sent = 0

    def read(self) -> list[tuple[str, str, str]]:
        """(recipient, subject, text) of every mail queued since the last read, each kept as its player's latest."""
        found = self.desk.new_mail()
        for recipient, subject, text in found:
            self.mail.setdefault(recipient.split("@")[0], []).append(text)
        return found

    def told(self) -> list[str]:
        """Who got mail since the last read, sorted."""
        return sorted(recipient.split("@")[0] for recipient, _, _ in self.read())

    def send(self, data: bytes, received: str) -> None:
        self.sent += 1
        self.desk.deliver(data, received)


def status(desk: Desk, now: str) -> dict:
    """The game's line of `pbem status --json`, a campaign's or a match's."""
    found = json.loads(desk.pbem("status", "--json", now=now).stdout)
    return next(line for line in found["games"] + found["matches"] if NAME in (line.get("game"), line.get("match")))


def fetched(done: list[dict]) -> list[str]:
    return [d["detail"] for d in done if d["what"] == "fetched"]


@pytest.mark.parametrize("entry", games.entries(), ids=lambda e: e.name)
def test_the_whole_gm_workflow_by_mail(entry, desk):
    gm, players = table(entry, desk), Players(desk)
    gm.new()
    desk.run(at(0))
    opening = players.read()
    assert sorted({to.split("@")[0] for to, _, _ in opening}) == list(PLAYERS), opening
    assert all(NAME in subject for _, subject, _ in opening)

    # a move by mail from each client; whoever is offered lines answers (a match: the player to move)
    movers = [p for p in PLAYERS if gm.answer(players.mail[p][-1]) is not None]
    first = movers[0]
    players.send(thunderbird(first, gm.answer(players.mail[first][-1]), 1), at(60))
    assert fetched(desk.run(at(70))) == [f"accepted {first}@example.org {first}"]
    players.read()
    second = next(p for p in (*PLAYERS[::-1], first) if gm.answer(players.mail[p][-1]) is not None)
    original = players.mail[second][-1]
    players.send(outlook(second, gm.answer(original), original, 2), at(80))
    assert fetched(desk.run(at(90))) == [f"accepted {second}@example.org {second}"]
    players.read()

    # the GM's controls, each told to both players
    due = datetime.fromisoformat(status(desk, at(100))["due"])
    moved = json.loads(gm.pbem("turn", "extend", NAME, "--by", "1h", "--json", now=at(100)).stdout)
    assert datetime.fromisoformat(moved["due"]) == due + timedelta(hours=1)
    assert players.told() == list(PLAYERS)
    gm.pbem("game", "pause", NAME, now=at(110))
    assert players.told() == list(PLAYERS)
    resumed = json.loads(gm.pbem("game", "resume", NAME, "--json", now=at(130)).stdout)
    assert datetime.fromisoformat(resumed["due"]) == due + timedelta(hours=1, seconds=20)  # the 20 s paused
    assert players.told() == list(PLAYERS)

    # a late move: received a second after the deadline, refused, and the reply names the deadline
    due = datetime.fromisoformat(status(desk, at(150))["due"])
    late = int((due - START).total_seconds()) + 1
    mover = next(p for p in PLAYERS if gm.answer(players.mail[p][-1]) is not None) if entry.kind is games.Kind.MATCH \
        else first  # a campaign's sheet came before the controls' notices: its order file again
    offered = next(text for text in players.mail[mover][::-1] if gm.answer(text) is not None)
    players.send(thunderbird(mover, gm.answer(offered), 3), at(late))
    done = desk.run(at(late + 10))
    assert fetched(done) == [f"refused {mover}@example.org {mover}"], (due, late, players.read())
    reply = next(text for to, _, text in players.read() if to == f"{mover}@example.org")
    assert f"{due:%H:%M}" in reply and "deadline" in reply, reply

    # the site page and its feed, once the deadline has played (a campaign's turn, a match's clock)
    site = desk.folder / "site"
    gm.pbem("site", NAME, "--out", site, now=at(late + 20))
    assert NAME in (site / NAME / "index.html").read_text(encoding="utf-8")
    feed = feedparser.parse((site / NAME / "feed.xml").read_bytes())
    assert not feed.bozo and feed.entries, feed
