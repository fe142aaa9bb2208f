"""Every kind of campaign mail fits 78 columns and reads in whole sentences (issues #35 and #38), for BotWars and
Geek-o: a game played through the command line with `--now` gives turn sheets (one player in a time zone of their
own), acknowledgements (accepted, refused, late), reminders, reports, every GM control's mail, press, a broadcast,
the mail commands' replies, and the ends told; each text line of each is checked by `mail_lines_problems`.

The rule a line is checked by (`whole_sentences`): at most 78 columns, and a backticked code span never cut
(each line has an even number of backticks) — the text was wrapped only at spaces outside backticks."""
from __future__ import annotations

import json
import mailbox
import re
from dataclasses import replace
from datetime import datetime, timedelta, timezone
from email import message_from_bytes, policy
from email.message import EmailMessage
from pathlib import Path

import pytest
from mail_fixtures import mail
from sqlmodel import Session, create_engine, select
from typer.testing import CliRunner

from pbem.cli import app
from pbem.engine.campaign import GameResult
from pbem.engine.vocabulary import Termination
from pbem.mail.notices import game_over, no_more_turns
from pbem.render.ending import done_note, ending_lines
from pbem.render.text import WIDTH, fitted, turn_text
from pbem.store.mail import MailOutgoing

RUNNER = CliRunner()
T0 = datetime(2026, 12, 1, 12, 0, tzinfo=timezone.utc)  # a Tuesday


def at(hours: float) -> str:
    return (T0 + timedelta(hours=hours)).isoformat()


def stamp(hours: float) -> str:
    """A `Received:` line for a mail the GM's exchanger took at T0 + hours (RULES D5)."""
    return f"Received: from mx by gm; {(T0 + timedelta(hours=hours)):%a, %d %b %Y %H:%M:%S +0000}\r\n"


def whole_sentences(line: str) -> str | None:
    """Why a line of a mail's text does not read whole, or None."""
    if len(line) > WIDTH:
        return f"{len(line)} columns"
    if line.count("`") % 2:
        return "a code span cut across lines"
    return None


def mail_lines_problems(messages: list[EmailMessage]) -> list[str]:
    problems = []
    for message in messages:
        for line in message.get_body(("plain",)).get_content().splitlines():
            why = whole_sentences(line)
            if why:
                problems.append(f"{message['Subject']}: {why}: {line!r}")
    return problems


class Table:
    """A game at the GM's table: the command line with `--now`, the GM's Maildir, and the players' mail."""

    def __init__(self, folder: Path, ruleset: str):
        self.url, self.folder = f"sqlite:///{folder / 'pbem.db'}", folder
        self.inbox = mailbox.Maildir(str(folder / "inbox"), create=True)
        self.pbem(0, "game", "new", "g", "--ruleset", ruleset, "--player", "ann:ann@x.org::Asia/Tokyo",
                  "--player", "ben:ben@x.org", "--player", "cy:cy@x.org::America/New_York", "--seed", "3",
                  "--deadline", "1d", "--timezone", "Europe/Berlin", "--remind", "12")
        self.secrets: dict[str, str] = {}

    def pbem(self, hours: float, *args: object, code: int | None = 0, input: str | None = None):
        result = RUNNER.invoke(app, ["--db", self.url, "--now", at(hours), *map(str, args)], input=input)
        assert result.exception is None or isinstance(result.exception, SystemExit), result.exception
        assert code is None or result.exit_code == code, result.output
        return result

    def run(self, hours: float) -> None:
        self.pbem(hours, "run", "--maildir", self.folder / "inbox", code=None)

    def sheets(self, hours: float) -> dict[str, dict]:
        sheets = {s["player"]: s for s in json.loads(self.pbem(hours, "turn", "deal", "g", "--json").stdout)["sheets"]}
        for player, sheet in sheets.items():
            self.secrets[player] = re.search(r'secret: "([^"]+)"', sheet["orders"])[1]
        return sheets

    def send(self, hours: float, player: str, body: str, tag: str, sender: str | None = None) -> None:
        data = mail(sender or f"{player}@x.org", body, f"<{tag}@{player}>")
        self.inbox.add(stamp(hours).encode() + data)

    def orders(self, hours: float, player: str, tag: str, *, wrong: bool = False, sender: str | None = None) -> None:
        """The player's sheet's order file with every free register filled from the hand (or, `wrong`, a card
        they do not hold, in every register)."""
        sheet = self.sheets(hours)[player]
        text, used = sheet["orders"], 0
        for robot in sheet["robots"]:
            hand = sheet["hands"].get(robot["name"]) or sheet["hands"].get(player, [])[used:]
            cards = ["FWD3#999"] * 3 if wrong else hand[:robot["free_registers"]] if robot["receives_cards"] else []
            used += len(cards) if player in sheet["hands"] else 0
            text = text.replace(f"{robot['name']}: {{program: []}}", f"{robot['name']}: {{program: [{', '.join(cards)}]}}")
        self.send(hours, player, text, tag, sender)

    def command(self, hours: float, player: str, body: str, tag: str) -> None:
        self.send(hours, player, f"game: g\nplayer: {player}\nsecret: {self.secrets[player]}\n{body}\n", tag)

    def outbox(self) -> list[EmailMessage]:
        engine = create_engine(self.url)
        with Session(engine) as session:
            rows = session.exec(select(MailOutgoing).order_by(MailOutgoing.id)).all()
            messages = [message_from_bytes(r.data, policy=policy.default) for r in rows]
        engine.dispose()
        return messages  # type: ignore[misc]


def play_every_kind_of_mail(folder: Path, ruleset: str) -> list[EmailMessage]:
    """Two turns of a three-player game, with every control and mail command, and the ends told."""
    table = Table(folder, ruleset)
    table.pbem(0, "game", "policy", "g", "--press", "anonymous")
    table.pbem(0, "game", "observe", "g", "watcher@x.org")
    table.run(0)  # the sheets
    table.orders(1, "ann", "a1")
    table.orders(1, "ben", "b1", wrong=True)
    table.send(1, "ben", table.sheets(1)["ben"]["orders"].replace("turn: 1", "turn: 4"), "b2")
    table.command(1, "ann", "command: status", "s1")
    table.command(1, "ben", "command: status", "s2")
    table.command(1, "ann", "command: resend", "r1")
    table.command(1, "ann", "command: help", "h1")
    table.command(1, "ann", "press: {to: all, text: 'Truce on the east conveyor?'}", "p1")
    table.run(2)
    table.run(12)  # the reminders
    table.pbem(13, "turn", "extend", "g", "--by", "2h")
    table.pbem(14, "game", "pause", "g")
    table.pbem(15, "game", "resume", "g")
    table.pbem(16, "game", "away", "g", "cy", "--from", at(30), "--to", at(40))
    table.pbem(16, "game", "address", "g", "ben", "ben@home.example")
    table.pbem(16, "game", "replace", "g", "cy", "dan:dan@x.org")
    table.pbem(16, "mail", "broadcast", "g", "-", input="Half-time: well played, all of you, and thank you for "
               "sending your orders so early in the turn.\n")
    table.orders(29, "ben", "b3", sender="ben@home.example")
    table.run(30)  # turn 1 processed (ben's late orders refused), turn 2 dealt
    table.command(31, "ann", "command: status", "s3")
    table.run(31)
    messages = table.outbox()
    result = GameResult(winners=("ann",), standings=[{"player": "ann", "flags": 2, "lives": 1, "won": 1, "place": 1},
                                                     {"player": "ben", "flags": 0, "lives": 0, "won": None,
                                                      "place": 2}],
                        termination=Termination.LAST_FLAG)
    messages.append(game_over("gm@x.org", "g", "ann", "ann@x.org", ending_lines(result)))
    last = EmailMessage()  # the last turn's report tells the end too (its text part: no board here)
    last["Subject"] = "g: turn 9 report for ann"
    last.set_content(turn_text("g", 9, [], done_note("out of lives"), "ann",
                               ending_lines(replace(result, termination=Termination.ALL_OUT))))
    messages.append(last)
    for reason in ("finished", "out of lives"):
        messages.append(no_more_turns("gm@x.org", "g", "ben", "ben@x.org", done_note(reason, press=True)))
    return messages


@pytest.mark.parametrize("ruleset", ["botwars", "geeko"])
def test_every_kind_of_campaign_mail_fits_78_columns_in_whole_sentences(tmp_path, monkeypatch, ruleset):
    monkeypatch.chdir(tmp_path)
    messages = play_every_kind_of_mail(tmp_path, ruleset)
    kinds = {re.sub(r"\b(ann|ben|cy|dan|\d+)\b", "N", m["Subject"]) for m in messages}
    assert len(kinds) >= 20, sorted(kinds)
    assert mail_lines_problems(messages) == []


def test_the_wrapping_keeps_code_spans_and_a_word_with_its_number_whole():
    long = ("line 5, robots.Hal-2 register 3: card UTRN#40 is already used at Hal-2's register 1 (each card once, "
            "B4.4); a right line: `Hal-2: {program: [UTRN#40, RT90#380, LF90#350, RT90#180]}`")
    lines = fitted([long])
    assert all(whole_sentences(line) is None for line in lines), lines
    assert not any(re.match(r"\s*\d", line) for line in lines[1:]), lines  # no number torn from its word


def said(message: EmailMessage) -> str:
    """The mail's text with its lines joined again."""
    return " ".join(message.get_body(("plain",)).get_content().split())


@pytest.fixture(scope="module")
def botwars_mail(tmp_path_factory) -> list[EmailMessage]:
    folder = tmp_path_factory.mktemp("botwars")
    return play_every_kind_of_mail(folder, "botwars")


def test_words_of_38_the_status_reply_gives_a_players_own_time(botwars_mail):
    """ann plays from Asia/Tokyo: her `command: status` reply gives her time, as her sheets and acks do."""
    (reply,) = [m for m in botwars_mail if m["In-Reply-To"] == "<s1@ann>"]
    assert "due Wednesday 2 December, 13:00 CET (Wednesday 2 December, 21:00 JST your time)." in said(reply)
    (other,) = [m for m in botwars_mail if m["In-Reply-To"] == "<s2@ben>"]
    assert "your time" not in said(other)


def test_words_of_38_anonymous_press_says_whom_an_answer_may_name(botwars_mail):
    press = [m for m in botwars_mail if m["Subject"] == "g: anonymous press"]
    assert press and all("`press: {to: all, text: ...}`" in said(m) and "NAME" not in said(m) for m in press)
    assert all("the author is not named, so `to: all` is the answer that reaches them" in said(m) for m in press)
    assert not any("ann" in said(m).removeprefix("Hello ben,").removeprefix("Hello cy,") for m in press)


def test_words_of_38_a_reminder_subject_has_no_parenthesis_in_a_parenthesis(botwars_mail):
    subjects = [m["Subject"] for m in botwars_mail if "orders still missing" in m["Subject"]]
    assert subjects and all(s.count("(") == 1 == s.count(")") for s in subjects), subjects


def test_words_of_38_standings_count_one_life_and_one_flag(botwars_mail):
    (ending,) = [m for m in botwars_mail if m["Subject"] == "g: the game is over"]
    assert "1. ann: 2 flags touched, 1 life left, through all flags 1st" in said(ending)
    assert "lives left" in said(ending) and "1 lives" not in said(ending)


def test_words_of_38_a_newcomers_sheets_are_for_them_in_the_seat_they_took(botwars_mail):
    """dan took cy's seat: his sheets say so ("cards for dan, in cy's seat"), not "cards for cy"."""
    sheets = [m for m in botwars_mail if m["To"] == "dan@x.org" and "cards for" in m["Subject"]]
    assert [m["Subject"] for m in sheets] == ["g: turn 1 cards for dan, in cy's seat",
                                              "g: turn 2 cards for dan, in cy's seat"]
    assert all(said(m).startswith(f"g, turn {n}: turn sheet for dan, in cy's seat") for n, m in enumerate(sheets, 1))
    assert all("player: cy" in said(m) for m in sheets)  # the orders still name the seat
    reports = [m["Subject"] for m in botwars_mail if m["To"] == "dan@x.org" and "report" in m["Subject"]]
    assert reports == ["g: turn 1 report for dan, in cy's seat"]
