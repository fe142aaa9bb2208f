"""Issue #22's done-when, as far as the GM's controls go: a four-week campaign left to `pbem run` every six
hours over the real loopback SMTP and IMAP servers, with a pause and resume, an extension, a replacement, an
address change by mail, an absence played by the robot pilot, press both ways, a broadcast and an observer.

The campaign is a timetable (`HAPPENINGS`: what the GM and the players do, and when) and a list of checks run on
everything the SMTP server received and the database kept; the other parts of issue #22 (overlapping runs, an IMAP
outage across a deadline, a late mail, a robot with no cards, an elimination and the end) add their happenings and
checks the same way.
"""
from __future__ import annotations

import json
from collections import Counter
from dataclasses import dataclass, field
from datetime import datetime, timedelta, timezone
from email import message_from_bytes, policy
from email.message import EmailMessage
from typing import Callable

import pytest
from sqlmodel import Session, create_engine, select
from typer.testing import CliRunner

from cycle_fixtures import order
from mail_fixtures import mail, new_campaign
from mail_servers import ImapServer, SmtpServer, certificate, use_loopback_servers
from pbem.cli import app
from pbem.store.tables import OrderVersion, Player, Turn

RUNNER = CliRunner()
T0 = datetime(2026, 12, 1, 18, 0, tzinfo=timezone.utc)  # a Tuesday
DAYS = 28
TICK = timedelta(hours=6)


def day(n: float) -> datetime:
    return T0 + timedelta(days=n)


def stamp(moment: datetime) -> str:
    return moment.strftime("%a, %d %b %Y %H:%M:%S +0000")


@dataclass
class World:
    """The people of the campaign as they are at a moment: each seat's address and secret, who is silent."""

    url: str
    imap: ImapServer
    address: dict[str, str] = field(default_factory=lambda: {"alice": "alice@example.org", "bob": "bob@example.org"})
    secret: dict[str, str] = field(default_factory=lambda: {"alice": "s-alice", "bob": "s-bob"})
    silent: set[str] = field(default_factory=set)
    answered: dict[tuple[int, str], datetime] = field(default_factory=dict)  # (turn, seat) -> when it was sent
    mailed: list[tuple[str, str]] = field(default_factory=list)  # (sender, Message-ID) of every mail sent to the GM
    paused: list[tuple[datetime, datetime]] = field(default_factory=list)

    def pbem(self, now: datetime, *args: object, code: int | None = 0, input: str | None = None):
        result = RUNNER.invoke(app, ["--db", self.url, "--now", now.isoformat(), *map(str, args)], input=input)
        assert result.exception is None or isinstance(result.exception, SystemExit), result.exception
        assert code is None or result.exit_code == code, result.output
        return result

    def send(self, now: datetime, sender: str, text: str, message_id: str) -> None:
        """A mail to the GM, received by the server a minute later (its `Received:` stamp), fetched by the next run."""
        data = mail(sender, text, message_id)
        self.imap.deliver(f"Received: from mx by imap.gm; {stamp(now + timedelta(minutes=1))}\r\n".encode() + data)
        self.mailed.append((sender, message_id))

    def command(self, now: datetime, seat: str, body: str, tag: str) -> None:
        self.send(now, self.address[seat], f"game: halls\nplayer: {seat}\nsecret: {self.secret[seat]}\n{body}\n",
                  f"<{tag}@{seat}>")

    def answer_sheets(self, now: datetime) -> None:
        """Each seat that is not silent answers its sheet of the dealt turn, once."""
        for sheet in json.loads(self.pbem(now, "turn", "deal", "halls", "--json").stdout)["sheets"]:
            seat, turn = sheet["player"], sheet["turn"]
            if (turn, seat) in self.answered or seat in self.silent:
                continue
            hand = sheet["hands"][seat]
            programs = {r["name"]: hand[i:i + 1] if r["receives_cards"] else [] for i, r in enumerate(sheet["robots"])}
            text = order("halls", turn, seat, programs).decode().replace("robots:", f"secret: {self.secret[seat]}\n"
                                                                                     "robots:")
            self.send(now, self.address[seat], text, f"<halls.{turn}.{seat}.{len(self.mailed)}@x>")
            self.answered[turn, seat] = now


def pause(w: World, now: datetime) -> None:
    w.pbem(now, "game", "pause", "halls")
    w.paused.append((now, day(5)))


def extend(w: World, now: datetime) -> None:
    due = json.loads(w.pbem(now, "status", "--json").stdout)["games"][0]["due"]
    w.pbem(now, "turn", "extend", "halls", "--to", (datetime.fromisoformat(due) + timedelta(days=1)).isoformat())


def replace(w: World, now: datetime) -> None:
    w.pbem(now, "game", "replace", "halls", "bob", "carol:carol@example.net", "--secret", "s-carol")
    w.send(now, "bob@example.org", "game: halls\nplayer: bob\nsecret: s-bob\ncommand: status\n", "<gone@bob>")
    w.address["bob"], w.secret["bob"] = "carol@example.net", "s-carol"


def address_by_mail(w: World, now: datetime) -> None:
    w.command(now, "alice", "address: alice@home.example", "move")


def moved(w: World, now: datetime) -> None:
    w.address["alice"] = "alice@home.example"


def away(w: World, now: datetime) -> None:
    w.pbem(now, "game", "away", "halls", "bob", "--from", day(14).isoformat(), "--to", day(18).isoformat())
    w.silent.add("bob")


HAPPENINGS: list[tuple[datetime, Callable[[World, datetime], None]]] = [
    (day(0), lambda w, now: w.pbem(now, "game", "set", "halls", "--deadline", "2d", "--remind", "12")),
    (day(0), lambda w, now: w.pbem(now, "game", "policy", "halls", "--press", "signed", "--absence", "pilot")),
    (day(0), lambda w, now: w.pbem(now, "game", "observe", "halls", "watcher@example.net")),
    (day(3), pause),
    (day(5), lambda w, now: w.pbem(now, "game", "resume", "halls")),
    (day(6), lambda w, now: w.silent.add("bob")),
    (day(6.25), extend),
    (day(8.25), lambda w, now: w.silent.discard("bob")),  # after the old deadline, before the extended one
    (day(10), replace),
    (day(12), address_by_mail),
    (day(12.25), moved),  # the run at 12.25 fetched the change
    (day(14), away),
    (day(15), lambda w, now: w.command(now, "alice", "press: {to: bob, text: 'Truce on the east conveyor?'}", "p1")),
    (day(18), lambda w, now: w.silent.discard("bob")),
    (day(18.5), lambda w, now: w.command(now, "bob", "press: {to: all, text: 'No truce.'}", "p2")),
    (day(19), lambda w, now: w.command(now, "bob", "command: resend", "resend")),
    (day(19), lambda w, now: w.command(now, "bob", "command: status", "status")),
    (day(19), lambda w, now: w.command(now, "alice", "command: help", "help")),
    (day(20), lambda w, now: w.pbem(now, "mail", "broadcast", "halls", "-", input="Half-time: well played.")),
]


@pytest.mark.slow
def test_four_weeks_of_a_campaign_with_every_gm_control(tmp_path, tmp_path_factory, monkeypatch):
    monkeypatch.chdir(tmp_path)
    url, _ = new_campaign(tmp_path)
    cert, key = certificate(tmp_path_factory.mktemp("tls"))
    imap, smtp = ImapServer(cert, key), SmtpServer(cert, key).start()
    world = World(url, imap)
    try:
        use_loopback_servers(monkeypatch, tmp_path, cert, imap.port, smtp.port)
        happenings = sorted(HAPPENINGS, key=lambda h: h[0])
        moment = T0
        while moment <= day(DAYS):
            for when, happen in [h for h in happenings if h[0] == moment]:
                happen(world, moment)
            result = world.pbem(moment, "run", "--json", code=None)
            assert result.exit_code == 0, result.output
            world.answer_sheets(moment)
            due = datetime.fromisoformat(json.loads(world.pbem(moment, "status", "--json").stdout)["games"][0]["due"])
            moment = min(moment + TICK, *(t for t in [due, *(h[0] for h in happenings)] if t > moment))
    finally:
        imap.stop()
        smtp.stop()
    delivered = [message_from_bytes(data, policy=policy.default) for _, _, data in smtp.messages]
    for check in CHECKS:
        check(world, delivered)


# --- the checks ---------------------------------------------------------------------------------------------

def got(delivered: list[EmailMessage], to: str, subject: str) -> int:
    return sum(1 for m in delivered if m["To"] == to and m["Subject"] == subject)


def every_message_once(w: World, delivered: list[EmailMessage]) -> None:
    ids = Counter(m["Message-ID"] for m in delivered)
    assert max(ids.values()) == 1, [i for i, n in ids.items() if n > 1]


def every_mail_answered_once(w: World, delivered: list[EmailMessage]) -> None:
    replies = Counter((m["To"], m["In-Reply-To"]) for m in delivered if m["In-Reply-To"])
    strangers = {"bob@example.org"}  # bob's address is nobody's after the replacement: never answered
    for sender, message_id in w.mailed:
        assert replies[sender, message_id] == (0 if sender in strangers and message_id == "<gone@bob>" else 1), \
            (sender, message_id)


def turns(w: World) -> tuple[list[Turn], dict[int, str]]:
    engine = create_engine(w.url)
    with Session(engine) as session:
        done = list(session.exec(select(Turn).order_by(Turn.number)).all())
        sources = {v.id: v.source for v in session.exec(select(OrderVersion)).all()}
        by_turn = {}
        for turn in done:
            bob = json.loads(turn.orders).get("bob")
            rows = session.exec(select(OrderVersion).join(Player, Player.id == OrderVersion.player_id)
                                .where(OrderVersion.turn == turn.number, Player.name == "bob",
                                       OrderVersion.version == bob)).all() if bob else []
            by_turn[turn.number] = rows[0].source if rows else ""
    engine.dispose()
    assert sources
    return done, by_turn


def no_order_lost_or_used_late(w: World, delivered: list[EmailMessage]) -> None:
    done, _ = turns(w)
    assert len(done) >= 10
    processed = {t.number: t.processed_at.replace(tzinfo=timezone.utc) for t in done}
    for (turn, seat), sent in w.answered.items():
        if turn in processed:
            used = json.loads(next(t for t in done if t.number == turn).orders)[seat]
            assert used is not None and sent < processed[turn], (turn, seat)
    assert RUNNER.invoke(app, ["--db", w.url, "replay", "halls", "--verify"]).exit_code == 0


def nothing_processed_while_paused(w: World, delivered: list[EmailMessage]) -> None:
    done, _ = turns(w)
    for start, end in w.paused:
        assert not [t.number for t in done if start < t.processed_at.replace(tzinfo=timezone.utc) < end]
    for to in ("alice@example.org", "bob@example.org", "watcher@example.net"):
        assert got(delivered, to, "halls: paused") == 1 and got(delivered, to, "halls: resumed") == 1


def the_extension_was_told_and_counted(w: World, delivered: list[EmailMessage]) -> None:
    extended = [m for m in delivered if m["Subject"].startswith("halls: turn") and "extended" in m["Subject"]]
    assert sorted(m["To"] for m in extended) == ["alice@example.org", "bob@example.org"]
    turn = int(extended[0]["Subject"].split()[2])
    assert (turn, "bob") in w.answered and w.answered[turn, "bob"] >= day(8.25)  # sent after the old deadline


def the_replacement_was_told_and_plays(w: World, delivered: list[EmailMessage]) -> None:
    assert got(delivered, "carol@example.net", "halls: you take over bob") == 1
    assert got(delivered, "bob@example.org", "halls: carol takes over your seat") == 1
    assert got(delivered, "alice@example.org", "halls: carol takes over bob") == 1
    sheets = [m for m in delivered if m["To"] == "carol@example.net" and "cards for bob" in m["Subject"]]
    assert sheets and 's-carol' in sheets[0].get_body(("plain",)).get_content()
    assert not [m for m in delivered if m["To"] == "bob@example.org" and "cards for bob" in m["Subject"]
                and "s-carol" in m.get_body(("plain",)).get_content()]


def the_address_change_was_told_to_both(w: World, delivered: list[EmailMessage]) -> None:
    for to in ("alice@example.org", "alice@home.example"):
        assert got(delivered, to, "halls: address changed") == 1
    assert any(m["To"] == "alice@home.example" and "report for alice" in m["Subject"] for m in delivered)


def the_absence_was_played_by_the_pilot(w: World, delivered: list[EmailMessage]) -> None:
    for to in ("alice@home.example", "carol@example.net"):
        assert got(delivered, to, "halls: bob is away") == 1
    done, bob_source = turns(w)
    away = [t.number for t in done if day(14) <= t.processed_at.replace(tzinfo=timezone.utc) < day(18)
            and (t.number, "bob") not in w.answered]  # carol sent nothing for them: the pilot did
    assert away and all(bob_source[n] == "pilot/bob.yaml" for n in away)
    assert all(bob_source[n] != "pilot/bob.yaml" for n in bob_source if n not in away)


def press_went_both_ways(w: World, delivered: list[EmailMessage]) -> None:
    assert got(delivered, "carol@example.net", "halls: press from alice") == 1
    assert got(delivered, "alice@home.example", "halls: press from bob") == 1
    relayed = [m for m in delivered if m["Subject"] == "halls: press from alice"][0]
    assert "Truce on the east conveyor?" in relayed.get_body(("plain",)).get_content()


def the_mail_commands_were_answered(w: World, delivered: list[EmailMessage]) -> None:
    def reply(tag: str) -> str:
        found = [m for m in delivered if m["In-Reply-To"] == tag]
        assert len(found) == 1, tag
        return found[0].get_body(("plain",)).get_content()
    assert "comes again" in reply("<resend@bob>") and "Orders in:" in reply("<status@bob>")
    assert "command: resend" in reply("<help@alice>") and "press: signed" in reply("<help@alice>")
    sheets = Counter(m["Subject"] for m in delivered
                     if m["To"] == "carol@example.net" and "cards for bob" in m["Subject"])
    assert max(sheets.values()) == 2  # the turn's sheet, and once more on request


def the_broadcast_reached_everyone(w: World, delivered: list[EmailMessage]) -> None:
    for to in ("alice@home.example", "carol@example.net", "watcher@example.net"):
        assert got(delivered, to, "halls: from the game master") == 1


def the_observer_saw_reports_never_sheets(w: World, delivered: list[EmailMessage]) -> None:
    watched = [m["Subject"] for m in delivered if m["To"] == "watcher@example.net"]
    done, _ = turns(w)
    assert sum("report" in s for s in watched) == len(done)
    assert not any("cards for" in s for s in watched)
    assert not any("s-alice" in m.as_string() or "s-carol" in m.as_string() for m in delivered
                   if m["To"] == "watcher@example.net")


CHECKS = [every_message_once, every_mail_answered_once, no_order_lost_or_used_late, nothing_processed_while_paused,
          the_extension_was_told_and_counted, the_replacement_was_told_and_plays, the_address_change_was_told_to_both,
          the_absence_was_played_by_the_pilot, press_went_both_ways, the_mail_commands_were_answered,
          the_broadcast_reached_everyone,
          the_observer_saw_reports_never_sheets]
