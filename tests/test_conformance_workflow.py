"""The whole GM workflow for every game the registry lists, the test games of `conftest.TEST_GAMES` included (issue
#33): a GM and two players at the desk, everything through the command line with `--now`. Each test begins alike —
a new game, the opening mail to each player, a move by mail from Thunderbird (plain text, a signature) and one from
Outlook (the mail it answers pasted unquoted under `-----Original Message-----`) — then, over the loopback IMAP and
SMTP servers, `turn extend`, `game pause`/`resume`, a late move refused naming the deadline, the site page and its
Atom feed; on a Maildir, `game replace` (the newcomer answers from Gmail, quoting), and `game export`/`import` with
`replay --verify`. A new entry in the registry is played here without a line of this file changing: the players
read only their mails (the reply lines offered, a campaign's order file and hand).
"""
from __future__ import annotations

import json
import re
from dataclasses import replace
from datetime import datetime, timedelta
from email.message import EmailMessage
from email.policy import SMTP
from pathlib import Path
from typing import Iterator

import feedparser
import pytest
from dm_desk import DAY, Desk, loopback_desk, reply_block
from test_dm_conformance import CONFIGS
from typer.testing import CliRunner

from pbem import games
from pbem.cli import app
from pbem.engine.ruleset import get_ruleset
from pbem.formats.transcript import dump_transcript

RUNNER = CliRunner()
PLAYERS = ("ann", "bob")
NAME = "g1"
START = datetime.fromisoformat(f"{DAY}08:00:00+00:00")


def at(seconds: int) -> str:
    """The time `seconds` after the start, as the desk takes it."""
    return (START + timedelta(seconds=seconds)).replace(tzinfo=None).isoformat()


@pytest.fixture
def desk(tmp_path, tmp_path_factory, monkeypatch):
    """The GM's desk on the loopback servers: `pbem run` reads the IMAP inbox and sends over SMTP."""
    with loopback_desk(tmp_path, tmp_path_factory, monkeypatch) as desk:
        yield desk


@pytest.fixture
def maildir_desk(tmp_path, monkeypatch):
    """The desk on a Maildir, for the steps past the mail servers (`desk` has them)."""
    monkeypatch.chdir(tmp_path)
    monkeypatch.delenv("PBEM_MAIL_CONFIG", raising=False)
    return Desk(tmp_path)


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
    """A campaign: `game new` with the robots its ruleset gives a player, its turns due in two days; the turn sheet is
    the opening mail, and a player answers it with its order file, each robot's program the first cards of the hand
    (as many as the sheet says it takes, or one)."""

    def new(self) -> None:
        robots = range(get_ruleset(self.entry.name).robots_per_player)
        seats = [f"--player={p}:{p}@example.org:{','.join(f'{p.title()}{n}' for n in robots)}" for p in PLAYERS]
        self.pbem("game", "new", NAME, "--ruleset", self.entry.name, "--seed", "7", *seats, now=at(0))
        self.pbem("game", "set", NAME, "--deadline", "2d", now=at(0))

    def answer(self, text: str) -> str | None:
        found = re.search(r"Your order file \(edit the programs and send it back\):\n\n(.*)", text, re.S)
        if found is None:
            return None
        order = found.group(1)
        shared = self.hand(text, "Hand:")
        for robot, exactly, cards in re.findall(r"^(\w+): real, HP \d+, (exactly|up to) (\d+) cards", text, re.M):
            hand = shared if shared is not None else self.hand(text, f"Hand of {robot}:")
            program = [next(hand) for _ in range(int(cards) if exactly == "exactly" else 1)]
            order = order.replace(f"{robot}: {{program: []}}", f"{robot}: {{program: [{', '.join(program)}]}}")
        return order

    @staticmethod
    def hand(text: str, label: str) -> Iterator[str] | None:
        """The cards the sheet lists after `label` (a player's hand, or one robot's), in order; None: no such list."""
        if label not in text:
            return None
        return iter(re.findall(r"\b[A-Z0-9]+#\d+\b", text.split(label)[1].split("\n\n")[0]))


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

    def read(self) -> list[tuple[str, str, str]]:
        """(recipient, subject, text) of every mail queued since the last read, each kept as its player's latest."""
        found = self.desk.new_mail()
        for recipient, _, text in found:
            self.mail.setdefault(recipient.split("@")[0], []).append(text)
        return found

    def told(self) -> list[str]:
        """Who got mail since the last read, sorted."""
        return sorted(recipient.split("@")[0] for recipient, _, _ in self.read())

    def send(self, data: bytes, received: str) -> None:
        self.desk.deliver(data, received)


def status(desk: Desk, now: str) -> dict:
    """The game's line of `pbem status --json`, a campaign's or a match's."""
    found = json.loads(desk.pbem("status", "--json", now=now).stdout)
    return next(line for line in found["games"] + found["matches"] if NAME in (line.get("game"), line.get("match")))


def fetched(done: list[dict]) -> list[str]:
    return [d["detail"] for d in done if d["what"] == "fetched"]


def gmail(player: str, lines: str, original: str, number: int) -> bytes:
    """Gmail's reply: the lines on top, then "On ... wrote:" and the mail it answers, quoted."""
    quoted = "".join(f"> {line}\n" if line else ">\n" for line in original.splitlines())
    header = "On Tue, 1 Dec 2026 at 08:00, Game Master <gm@example.org> wrote:\n\n"
    return client_mail(player, f"Re: {NAME}", f"{lines}\n{header}{quoted}", number)


def offered(gm: Table, players: Players, player: str) -> str | None:
    """The last mail `player` got that asks for an answer, or None."""
    return next((text for text in players.mail.get(player, [])[::-1] if gm.answer(text) is not None), None)


def begin(entry: games.Entry, desk: Desk) -> tuple[Table, Players, str]:
    """The game set up, its opening mail to each player, a move by mail from each client (whoever is offered lines
    answers: a match's player to move, every campaign player); returns the first to move."""
    gm, players = table(entry, desk), Players(desk)
    gm.new()
    desk.run(at(0))
    opening = players.read()
    assert sorted({to.split("@")[0] for to, _, _ in opening}) == list(PLAYERS), opening
    assert all(NAME in subject for _, subject, _ in opening)
    first = next(p for p in PLAYERS if gm.answer(players.mail[p][-1]) is not None)
    players.send(thunderbird(first, gm.answer(players.mail[first][-1]), 1), at(60))
    assert fetched(desk.run(at(70))) == [f"accepted {first}@example.org {first}"]
    players.read()
    second = next(p for p in (*PLAYERS[::-1], first) if gm.answer(players.mail[p][-1]) is not None)
    original = players.mail[second][-1]
    players.send(outlook(second, gm.answer(original), original, 2), at(80))
    assert fetched(desk.run(at(90))) == [f"accepted {second}@example.org {second}"]
    players.read()
    return gm, players, first


def due(desk: Desk, now: str) -> datetime:
    return datetime.fromisoformat(status(desk, now)["due"])


@pytest.mark.parametrize("entry", games.entries(), ids=lambda e: e.name)
def test_the_gm_workflow_by_mail(entry, desk):
    """Opening, moves, the clock's controls each told to both players, a late move refused naming the deadline, and
    the site page with its feed once the deadline has played (a campaign's turn, a match's clock)."""
    gm, players, first = begin(entry, desk)
    before = due(desk, at(100))
    moved = json.loads(gm.pbem("turn", "extend", NAME, "--by", "1h", "--json", now=at(100)).stdout)
    assert datetime.fromisoformat(moved["due"]) == before + timedelta(hours=1)
    assert players.told() == list(PLAYERS)
    gm.pbem("game", "pause", NAME, now=at(110))
    assert players.told() == list(PLAYERS)
    resumed = json.loads(gm.pbem("game", "resume", NAME, "--json", now=at(130)).stdout)
    assert datetime.fromisoformat(resumed["due"]) == before + timedelta(hours=1, seconds=20)  # the 20 s paused
    assert players.told() == list(PLAYERS)

    deadline = due(desk, at(150))
    late = int((deadline - START).total_seconds()) + 1
    mover = next(p for p in PLAYERS if gm.answer(players.mail[p][-1]) is not None) \
        if entry.kind is games.Kind.MATCH else first  # a campaign's sheet came before the notices: its orders again
    players.send(thunderbird(mover, gm.answer(offered(gm, players, mover)), 3), at(late))
    done = desk.run(at(late + 10))
    assert fetched(done) == [f"refused {mover}@example.org {mover}"], done
    reply = next(text for to, _, text in players.read() if to == f"{mover}@example.org")
    assert f"{deadline:%H:%M}" in reply and "deadline" in reply, reply

    site = json.loads(gm.pbem("site", NAME, "--out", desk.folder / "site", "--json", now=at(late + 20)).stdout)
    [page] = [Path(f) for f in site["files"] if f.endswith("index.html") and Path(f).parent.name == NAME]
    assert NAME in page.read_text(encoding="utf-8")
    feed = feedparser.parse((page.parent / "feed.xml").read_bytes())
    assert not feed.bozo and feed.entries, feed


@pytest.mark.parametrize("entry", games.entries(), ids=lambda e: e.name)
def test_a_seat_given_to_a_newcomer_is_played_by_mail(entry, maildir_desk):
    """`game replace`: carol takes bob's seat with her own secret; she is mailed the position, answers from Gmail
    when it asks her for something, and bob's address no longer plays."""
    desk = maildir_desk
    gm, players, _ = begin(entry, desk)
    replaced = json.loads(gm.pbem("game", "replace", NAME, "bob", "carol:carol@example.org", "--secret",
                                  "carol-secret", "--json", now=at(100)).stdout)
    assert replaced["player"] == "carol"
    told = {to: text for to, _, text in players.read()}
    assert NAME in told["carol@example.org"] and "carol-secret" in told["carol@example.org"]
    mail = offered(gm, players, "carol")
    if mail is not None:
        players.send(gmail("carol", gm.answer(mail), mail, 3), at(110))
        assert fetched(desk.run(at(120)))[0].startswith("accepted carol@example.org")
    stale = offered(gm, players, "bob")
    if stale is not None:
        players.send(thunderbird("bob", gm.answer(stale), 4), at(130))
        assert not fetched(desk.run(at(140)))[0].startswith("accepted")


@pytest.mark.parametrize("entry", games.entries(), ids=lambda e: e.name)
def test_an_exported_game_imports_as_the_same_game_and_replays_as_stored(entry, maildir_desk):
    """`game export`, `game import` into another database, `replay --verify`, after the deadline has played."""
    desk = maildir_desk
    gm, _, _ = begin(entry, desk)
    after = int((due(desk, at(100)) - START).total_seconds()) + 10
    desk.run(at(after))
    gm.pbem("game", "export", NAME, desk.folder / "export", now=at(after))
    other = f"sqlite:///{desk.folder / 'other.db'}"
    imported = RUNNER.invoke(app, ["--db", other, "--now", at(after), "game", "import", str(desk.folder / "export")])
    assert imported.exit_code == 0, imported.output
    listed = [json.loads(RUNNER.invoke(app, ["--db", url, "game", "list", "--json"]).stdout)
              for url in (desk.url, other)]
    assert listed[0] == listed[1] and listed[0][0]["game"] == NAME
    gm.pbem("replay", NAME, "--verify", now=at(after))
