"""Issue #22's done-when: a four-week BotWars campaign left to `pbem run` every six hours over the real loopback
SMTP and IMAP servers, three runs started together on every tick, with an IMAP outage across a deadline, a late
mail, a robot with no cards, a pause and resume, an extension, a replacement, an address change by mail, an
absence played by the robot pilot, press both ways, a broadcast, an observer, an elimination and the end; then
(#38) the game processed as soon as everyone is in and an absence under the `extend` policy over the last two turns
(each turn due during it extended to its end), and every mail of every kind checked to fit 78 columns in whole
sentences.

The campaign is a timetable (`HAPPENINGS`: what the GM, the players and the mail servers do, and when) and a list
of checks (`CHECKS`) run on everything the SMTP server received and the database kept.

The room is built so that the cards never matter (as in test_cycle_ending), and the outcome is hand-computed:

- alice's Axle (r2c2) and bob's Bolt (r4c4) each stand in a cell walled N, E and S with a laser on its W wall
  (B6.1: a turret's wall is a wall): no card moves them, walls do no damage, and no robot laser leaves its cell.
  Every turn has 5 stages (B4.5 botwars: a program fills the free registers; B7.3: fused ones run too), and each
  laser hits its robot once a stage (B6b.5): 5 damage a turn, until the robot is destroyed at 0 HP (B2.1, B8.1).
  `lives: 5`, `reinstate_damage: 4`: a destroyed robot comes back on its square with 6 HP (B8.2).
- Axle: turn 1 HP 10 -> 5; turn 2 -> 0, destroyed (4 lives left), back with 6; turn 3 6 -> 1: damage 9 has fused
  all five registers (B7.1, register 5 at damage 5 … register 1 at 9), so turn 4 deals it no cards (B4.1: 9 - 9)
  and alice's order is `Axle: {program: []}` (B4.7 ruling); it dies in stage 1 of turn 4, and so on: no cards on
  turns 4, 6, 8 and 10, and the fifth death, in turn 10, is its last life: alice is out (B8.2).
- Bolt ends each turn on a wrench (B12: +1 HP): turn 1 10 -> 5 -> 6; turn 2 6 -> 1 -> 2; turn 3 2 -> 0 in stage
  2, destroyed, back with 6; … it dies in turns 3, 5, 7, 9 and 11. After turn 11 every robot is out of lives:
  the game is over, and bob, who touched flag 1 on his square (B5.9), wins.

Beside it (#38), from the same runs and mail servers:

- `lanes`, Geek-o: five copies of a 2x2 room, an open gate at r1c1 (G3: one gate), the robots starting on r2c1 and
  r2c2 facing north, walls all round but the gate, r2c2 walled north with a conveyor running west. Its deck holds
  only FWD1 cards (B4.3: a pre-set sequence). hal gives each robot two of them: in stage 1 the first drives into
  the gate and leaves the room at the end of the stage (G3), the second bumps its wall and the conveyor carries it
  into the square just freed (B6b.1); in stage 2 it drives into the gate: both are out, the next room opens (G4).
  hal is through the fifth room with turn 5 (G1). ivy sends nothing until turn 6: her robots idle (B4.6, geeko),
  the second blocked by the first; then she plays as hal did and is through with turn 10: the game is over, and
  hal, through in the fewest turns, wins (G1). From turn 6 hal has no more turns, and still gets every report.
- `m`, Take-Back-Toe by mail, from day 20.75: lee's action is received just after the GM's inbox went down (RULES
  D5 outage ruling; the hand-computed clock is in `the_outage_gave_the_match_player_a_full_turn`).
"""
from __future__ import annotations

import json
import re
from collections import Counter
from dataclasses import dataclass, field
from datetime import datetime, timedelta, timezone
from email import message_from_bytes, policy
from email.message import EmailMessage
from pathlib import Path
from typing import Callable

import pytest
from cycle_fixtures import order
from dm_desk import reply_block
from forked_pbem import ForkedPbem
from mail_fixtures import mail
from mail_servers import ImapServer, SmtpServer, certificate, use_loopback_servers
from sqlmodel import Session, create_engine, select
from test_mail_width import mail_lines_problems
from typer.testing import CliRunner

from pbem.cli import app
from pbem.engine.vocabulary import Mode
from pbem.store.tables import Game, OrderVersion, Player, Turn

RUNNER = CliRunner()
T0 = datetime(2026, 12, 1, 18, 0, tzinfo=timezone.utc)  # a Tuesday
DAYS = 28
TICK = timedelta(hours=6)
RUNS = 3  # `pbem run`s started together on every tick
GAME = "cells"
ROOM = """name: Two Cells
size: 5x5
starts: [r2c2, r4c4]
elements:
  - {type: wall, at: r2c2, side: N}
  - {type: wall, at: r2c2, side: E}
  - {type: wall, at: r2c2, side: S}
  - {type: laser, at: r2c2, wall: W}
  - {type: wall, at: r4c4, side: N}
  - {type: wall, at: r4c4, side: E}
  - {type: wall, at: r4c4, side: S}
  - {type: laser, at: r4c4, wall: W}
  - {type: wrench, at: r4c4}
  - {type: flag, at: r4c4, number: 1}
  - {type: flag, at: r1c5, number: 2}
"""
DESCRIPTION = f"""name: {GAME}
ruleset: botwars
ruleset_options: {{lives: 5, reinstate_damage: 4}}
seed: 7
rooms: [cells.yaml]
deck: decks/standard.yaml
players:
  - {{name: alice, email: alice@example.org, robots: [Axle], secret: s-alice}}
  - {{name: bob, email: bob@example.org, robots: [Bolt], secret: s-bob}}
"""
# #38: a Geek-o game beside it, `lanes` (hand-computed below), and a Take-Back-Toe match by mail, `m`.
LANES = "lanes"
LANE = """name: Lane
size: 2x2
starts: [r2c1, r2c2]
elements:
  - {type: gate, at: r1c1, open: true}
  - {type: conveyor, at: r2c2, dir: W}
  - {type: wall, at: r1c1, side: W}
  - {type: wall, at: r2c1, side: W}
  - {type: wall, at: r2c1, side: S}
  - {type: wall, at: r2c2, side: S}
  - {type: wall, at: r2c2, side: E}
  - {type: wall, at: r2c2, side: N}
  - {type: wall, at: r1c2, side: E}
  - {type: wall, at: r1c2, side: N}
"""
FORWARD = "name: Forward\norder: preset\ncards:\n" + "".join(f"  - FWD1#{n}\n" for n in range(10, 1000, 10))
LANES_DESCRIPTION = f"""name: {LANES}
ruleset: geeko
seed: 7
rooms: [lane.yaml, lane.yaml, lane.yaml, lane.yaml, lane.yaml]
deck: forward.yaml
players:
  - {{name: hal, email: hal@example.org, robots: [Hex, Hub], secret: s-hal}}
  - {{name: ivy, email: ivy@example.org, robots: [Ink, Ion], secret: s-ivy}}
"""
LANES_OUT, LANES_LAST = 5, 10  # hal through the fifth room at turn 5; ivy, silent for five turns, at turn 10
MATCH = "m"
NO_CARDS = {4, 6, 8, 10}  # the turns Axle starts with every register fused (hand-computed above)
OUT, LAST = 10, 11  # the turn alice loses her last life, the turn the game ends
WINNER = "The game is over: bob wins"


def day(n: float) -> datetime:
    return T0 + timedelta(days=n)


def stamp(moment: datetime) -> str:
    return moment.strftime("%a, %d %b %Y %H:%M:%S +0000")


@dataclass
class Sent:
    """An order mail a player sent: for which turn and seat, its Message-ID, when, and the programs in it."""

    game: str
    turn: int
    seat: str
    message_id: str
    at: datetime
    programs: dict[str, list[str]]


@dataclass
class World:
    """The campaign as it is at a moment: the mail servers, each seat's address and secret, who is silent, and
    everything sent to the GM."""

    url: str
    folder: Path
    runs: ForkedPbem
    tls: tuple[Path, Path]  # the servers' certificate and key
    imap: ImapServer | None
    imap_port: int
    smtp: SmtpServer
    seats: dict[str, tuple[str, ...]] = field(default_factory=lambda: {GAME: ("alice", "bob"), LANES: ("hal", "ivy")})
    address: dict[str, str] = field(default_factory=lambda: {"alice": "alice@example.org", "bob": "bob@example.org",
                                                             "hal": "hal@example.org", "ivy": "ivy@example.org"})
    secret: dict[str, str] = field(default_factory=lambda: {"alice": "s-alice", "bob": "s-bob", "hal": "s-hal",
                                                            "ivy": "s-ivy"})
    silent: set[str] = field(default_factory=set)
    answered: dict[tuple[int, str], datetime] = field(default_factory=dict)  # (turn, seat) -> when it was sent
    orders: list[Sent] = field(default_factory=list)  # every order mail, in time or late
    no_cards: set[int] = field(default_factory=set)  # the turns alice's sheet dealt her robot no cards
    mailed: list[tuple[str, str]] = field(default_factory=list)  # (sender, Message-ID) of every mail sent to the GM
    held: list[bytes] = field(default_factory=list)  # mail the GM's mail exchanger keeps while the inbox is down
    paused: list[tuple[datetime, datetime]] = field(default_factory=list)
    outages: list[tuple[datetime, datetime | None]] = field(default_factory=list)
    done: list[tuple[datetime, dict]] = field(default_factory=list)  # what every run did, when

    def pbem(self, now: datetime, *args: object, code: int | None = 0, input: str | None = None):
        result = RUNNER.invoke(app, ["--db", self.url, "--now", now.isoformat(), *map(str, args)], input=input)
        assert result.exception is None or isinstance(result.exception, SystemExit), result.exception
        assert code is None or result.exit_code == code, result.output
        return result

    def run(self, now: datetime) -> None:
        """RUNS `pbem run`s started together, as cron ticks overlapping a slow run would: each does its share, or
        waits for the other and finds it done; while the inbox is down every one of them says so and waits."""
        down = self.imap is None
        answers = self.runs.together(*[["--db", self.url, "--now", now.isoformat(), "run", "--json"]] * RUNS)
        for code, out, err in answers:
            assert code == (1 if down else 0), (now, code, out, err)
            done = json.loads(out)["done"]
            assert down == any(d["what"] == "problem" and "cannot read the inbox" in d["detail"] for d in done), done
            self.done += [(now, d) for d in done]

    def delivered(self) -> list[EmailMessage]:
        """Every mail the SMTP server received so far, in order."""
        return [message_from_bytes(data, policy=policy.default) for _, _, data in self.smtp.messages]

    def statuses(self, now: datetime) -> dict[str, dict]:
        return {g["game"]: g for g in json.loads(self.pbem(now, "status", "--json").stdout)["games"]}

    def status(self, now: datetime) -> dict:
        return self.statuses(now)[GAME]

    def send(self, now: datetime, sender: str, text: str, message_id: str) -> None:
        """A mail to the GM, received by the GM's mail exchanger a minute later (its `Received:` stamp, RULES D5),
        in the inbox at once or, while the inbox is down, once it is back; fetched by the next run."""
        data = f"Received: from mx by imap.gm; {stamp(now + timedelta(minutes=1))}\r\n".encode() \
            + mail(sender, text, message_id)
        if self.imap is None:
            self.held.append(data)
        else:
            self.imap.deliver(data)
        self.mailed.append((sender, message_id))

    def command(self, now: datetime, seat: str, body: str, tag: str) -> None:
        self.send(now, self.address[seat], f"game: {GAME}\nplayer: {seat}\nsecret: {self.secret[seat]}\n{body}\n",
                  f"<{tag}@{seat}>")

    def sheets(self, now: datetime, game: str = GAME) -> list[dict]:
        return json.loads(self.pbem(now, "turn", "deal", game, "--json").stdout)["sheets"]

    def answer(self, now: datetime, sheet: dict) -> Sent:
        """The seat's orders for the sheet's turn: in BotWars every free register filled from the robot's hand
        (B4.5), a robot that gets no cards given an empty program (B4.7 ruling); in Geek-o two cards of the shared
        hand for each robot (B4.3: programs of equal length)."""
        game, seat, turn = sheet["game"], sheet["player"], sheet["turn"]
        if seat in sheet["hands"]:  # Geek-o: one hand for both robots
            programs = {r["name"]: sheet["hands"][seat][2 * n:2 * n + 2] for n, r in enumerate(sheet["robots"])}
        else:
            programs = {r["name"]: sheet["hands"][r["name"]][:r["free_registers"]] if r["receives_cards"] else []
                        for r in sheet["robots"]}
        if seat == "alice" and not any(r["receives_cards"] for r in sheet["robots"]):
            self.no_cards.add(turn)
        text = order(game, turn, seat, programs).decode().replace("robots:", f"secret: {self.secret[seat]}\nrobots:")
        sent = Sent(game, turn, seat, f"<{game}.{turn}.{seat}.{len(self.mailed)}@x>", now, programs)
        self.send(now, self.address[seat], text, sent.message_id)
        self.orders.append(sent)
        return sent

    def answer_sheets(self, now: datetime, game: str, turn: int) -> None:
        """Each seat of the game that is not silent answers its sheet of the dealt turn, once."""
        if all((turn, seat) in self.answered or seat in self.silent for seat in self.seats[game]):
            return  # nothing to answer: no sheets asked for (they are drawn each time)
        for sheet in self.sheets(now, game):
            if (sheet["turn"], sheet["player"]) not in self.answered and sheet["player"] not in self.silent:
                self.answer(now, sheet)
                self.answered[sheet["turn"], sheet["player"]] = now


def pause(w: World, now: datetime) -> None:
    w.pbem(now, "game", "pause", GAME)
    w.paused.append((now, day(5)))


def extend(w: World, now: datetime) -> None:
    due = w.status(now)["due"]
    w.pbem(now, "turn", "extend", GAME, "--to", (datetime.fromisoformat(due) + timedelta(days=1)).isoformat())


def replace(w: World, now: datetime) -> None:
    w.pbem(now, "game", "replace", GAME, "bob", "carol:carol@example.net", "--secret", "s-carol")
    w.send(now, "bob@example.org", f"game: {GAME}\nplayer: bob\nsecret: s-bob\ncommand: status\n", "<gone@bob>")
    w.address["bob"], w.secret["bob"] = "carol@example.net", "s-carol"


def address_by_mail(w: World, now: datetime) -> None:
    w.command(now, "alice", "address: alice@home.example", "move")


def moved(w: World, now: datetime) -> None:
    w.address["alice"] = "alice@home.example"


def away(w: World, now: datetime) -> None:
    w.pbem(now, "game", "away", GAME, "bob", "--from", day(14).isoformat(), "--to", day(18).isoformat())
    w.silent.add("bob")


def away_under_extend(w: World, now: datetime) -> None:
    """#38: from now on a turn is processed once everyone is in, and bob (carol's seat) is away until day 27 under
    the `extend` policy: turn 10, running, and turn 11, dealt when turn 10 is processed early today, both fall due
    during the absence and are each extended to its end."""
    w.pbem(now, "game", "set", GAME, "--process", "all-in")
    w.pbem(now, "game", "policy", GAME, "--absence", "extend")
    w.pbem(now, "game", "away", GAME, "bob", "--from", now.isoformat(), "--to", day(27).isoformat())


def inbox_down(w: World, now: datetime) -> None:
    """The GM's IMAP server stops (connections to its port refused); mail sent meanwhile waits at the mail
    exchanger."""
    assert w.imap is not None
    w.imap.stop(keep_port=True)
    w.imap = None
    w.outages.append((now, None))


def inbox_up(w: World, now: datetime) -> None:
    """The IMAP server is back on its port, with the mail that came in while it was down."""
    w.imap = ImapServer(*w.tls, port=w.imap_port)
    w.imap.deliver(*w.held)
    w.held.clear()
    w.outages[-1] = (w.outages[-1][0], now)


def carol_answers_while_the_inbox_is_down(w: World, now: datetime) -> None:
    """In time for turn 9 (due day 21), into a mail exchanger that cannot hand it on yet: it must count."""
    (sheet,) = [s for s in w.sheets(now) if s["player"] == "bob"]
    w.answer(now, sheet)
    w.answered[sheet["turn"], "bob"] = now


def alice_answers_late(w: World, now: datetime) -> None:
    """Half an hour after turn 9's deadline, while the turn still waits for the inbox: refused (B4.7)."""
    (sheet,) = [s for s in w.sheets(now) if s["player"] == "alice"]
    w.answer(now, sheet)


def ivy_plays_on(w: World, now: datetime) -> None:
    """hal went through the fifth room with turn 5, processed now: he has no more turns; ivy answers from turn 6."""
    w.silent.discard("ivy")
    w.silent.add("hal")


def match_by_mail(w: World, now: datetime) -> None:
    """A Take-Back-Toe match from day 20.75, by mail: 2 h a turn and a 4 h reserve (D5), lee to move first."""
    w.pbem(now, "dm", "new", MATCH, "--game", "takebacktoe", "--player", "lee", "--player", "kim", "--seed", "1",
           "--option", f"start={day(20.75).isoformat()}", "--option", "clock={turn: 7200, reserve: 14400}",
           "--out", w.folder / "matches")
    for player in ("lee", "kim"):
        w.pbem(now, "mail", "dm-player", MATCH, player, f"{player}@example.org", "--secret", f"s-{player}")


def act(w: World, now: datetime, player: str, subject: str) -> None:
    """The player answers the last match mail with `subject` in its subject with the lines it offers, if any (none:
    the match is over, `the_outage_gave_the_match_player_a_full_turn` says why)."""
    (last, *_) = [m for m in reversed(w.delivered()) if m["To"] == f"{player}@example.org" and subject in m["Subject"]]
    body = reply_block(text(last).replace("\r\n", "\n"))
    if body is not None:
        w.send(now, f"{player}@example.org", body, f"<{MATCH}.{player}.{len(w.mailed)}@x>")


HAPPENINGS: list[tuple[datetime, Callable[[World, datetime], None]]] = [
    (day(0), lambda w, now: w.pbem(now, "game", "set", GAME, "--deadline", "2d", "--remind", "12")),
    (day(0), lambda w, now: w.pbem(now, "game", "set", LANES, "--deadline", "2d", "--remind", "12")),
    (day(0), lambda w, now: w.silent.add("ivy")),
    (day(2 * LANES_OUT), ivy_plays_on),
    (day(0), lambda w, now: w.pbem(now, "game", "policy", GAME, "--press", "signed", "--absence", "pilot")),
    (day(0), lambda w, now: w.pbem(now, "game", "observe", GAME, "watcher@example.net")),
    (day(3), pause),
    (day(5), lambda w, now: w.pbem(now, "game", "resume", GAME)),
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
    (day(19), lambda w, now: w.silent.update({"alice", "bob"})),  # turn 9, dealt now, is answered below
    (day(20), lambda w, now: w.pbem(now, "mail", "broadcast", GAME, "-", input="Half-time: well played.")),
    (day(20.5), match_by_mail),
    (day(20.8), inbox_down),
    (day(20.85), lambda w, now: act(w, now, "lee", f"[pbem] {MATCH}: ")),  # into the held mail: its stamp counts (D5)
    (day(20.9), carol_answers_while_the_inbox_is_down),
    (day(21) + timedelta(minutes=30), alice_answers_late),
    (day(21.25), inbox_up),
    (day(21.25), lambda w, now: w.silent.clear()),
    (day(21.3), lambda w, now: act(w, now, "kim", "lee has acted")),
    (day(22), away_under_extend),
]


@pytest.mark.slow
def test_four_weeks_of_a_campaign_with_every_gm_control(tmp_path, tmp_path_factory, monkeypatch):
    monkeypatch.chdir(tmp_path)
    (tmp_path / GAME).mkdir()
    (tmp_path / GAME / "cells.yaml").write_text(ROOM)
    (tmp_path / GAME / "game.yaml").write_text(DESCRIPTION)
    url = f"sqlite:///{tmp_path / 'pbem.db'}"
    cert, key = certificate(tmp_path_factory.mktemp("tls"))
    imap, smtp = ImapServer(cert, key), SmtpServer(cert, key).start()
    use_loopback_servers(monkeypatch, tmp_path, cert, imap.port, smtp.port)
    world = World(url, tmp_path, ForkedPbem(tmp_path, tmp_path / "runs"), (cert, key), imap, imap.port, smtp)
    (tmp_path / LANES).mkdir()
    (tmp_path / LANES / "lane.yaml").write_text(LANE)
    (tmp_path / LANES / "forward.yaml").write_text(FORWARD)
    (tmp_path / LANES / "game.yaml").write_text(LANES_DESCRIPTION)
    try:
        world.pbem(T0, "game", "import", tmp_path / GAME)
        world.pbem(T0, "game", "import", tmp_path / LANES)
        happenings = sorted(HAPPENINGS, key=lambda h: h[0])
        moment = T0
        while moment <= day(DAYS):
            for _, happen in [h for h in happenings if h[0] == moment]:
                happen(world, moment)
            world.run(moment)
            due = []
            for game, status in world.statuses(moment).items():
                if not status["over"]:
                    world.answer_sheets(moment, game, status["turn"])
                due += [datetime.fromisoformat(status["due"])] if status["due"] else []
            moment = min([moment + TICK, *(t for t in [*due, *(h[0] for h in happenings)] if t > moment)])
    finally:
        world.runs.close()
        if world.imap is not None:
            world.imap.stop()
        smtp.stop()
    delivered = world.delivered()
    broken = []  # every check runs: one campaign shows every promise it broke
    for check in CHECKS:
        try:
            check(world, delivered)
        except Exception as err:
            broken.append(f"{check.__name__}: {err}")
    assert not broken, "\n".join(broken)


# --- the checks ---------------------------------------------------------------------------------------------

def got(delivered: list[EmailMessage], to: str, subject: str) -> int:
    return sum(1 for m in delivered if m["To"] == to and m["Subject"] == subject)


def text(message: EmailMessage) -> str:
    return message.get_body(("plain",)).get_content()


def every_message_once(w: World, delivered: list[EmailMessage]) -> None:
    ids = Counter(m["Message-ID"] for m in delivered)
    assert max(ids.values()) == 1, [i for i, n in ids.items() if n > 1]
    assert sum(d["what"] == "sent" for _, d in w.done) == len(delivered)  # and each sent by one run only


def every_mail_answered_once(w: World, delivered: list[EmailMessage]) -> None:
    replies = Counter((m["To"], m["In-Reply-To"]) for m in delivered if m["In-Reply-To"])
    strangers = {"bob@example.org"}  # bob's address is nobody's after the replacement: never answered
    for sender, message_id in w.mailed:
        assert replies[sender, message_id] == (0 if sender in strangers and message_id == "<gone@bob>" else 1), \
            (sender, message_id)


@dataclass
class Kept:
    """What the database kept: the processed turns, and each stored order version by (turn, seat)."""

    turns: dict[int, Turn]
    versions: dict[tuple[int, str], list[OrderVersion]]

    def used(self, turn: int, seat: str) -> OrderVersion | None:
        number = json.loads(self.turns[turn].orders).get(seat)
        return next((v for v in self.versions.get((turn, seat), []) if v.version == number), None)

    def processed(self, turn: int) -> datetime:
        return self.turns[turn].processed_at.replace(tzinfo=timezone.utc)


def kept(w: World, game: str = GAME) -> Kept:
    engine = create_engine(w.url)
    with Session(engine) as session:
        (game_id,) = session.exec(select(Game.id).where(Game.name == game)).all()
        turns = {t.number: t for t in session.exec(select(Turn).where(Turn.game_id == game_id)).all()}
        versions: dict[tuple[int, str], list[OrderVersion]] = {}
        for version, name in session.exec(select(OrderVersion, Player.name)
                                          .join(Player, Player.id == OrderVersion.player_id)
                                          .where(Player.game_id == game_id)
                                          .order_by(OrderVersion.version)).all():
            versions.setdefault((version.turn, name), []).append(version)
    engine.dispose()
    return Kept(turns, versions)


def no_order_lost_or_used_late(w: World, delivered: list[EmailMessage]) -> None:
    """Each order mail sent before its turn's deadline is stored once, as sent (three runs or not), and is the
    turn's; the late one is refused naming the deadline, stored as nothing and used for nothing."""
    db = kept(w)
    assert sorted(db.turns) == list(range(1, LAST + 1))
    for sent in w.orders:
        if sent.game != GAME:
            continue  # lanes: each_geeko_turn_reached_hal_after_his_last
        if (sent.turn, sent.seat) not in w.answered:
            continue  # the late one, below
        (stored,) = [v for v in db.versions.get((sent.turn, sent.seat), []) if not v.source.startswith("pilot/")]
        assert json.loads(stored.submission)["programs"] == sent.programs, (sent, stored)
        used = db.used(sent.turn, sent.seat)
        assert used is not None and used.id == stored.id and sent.at < db.processed(sent.turn), sent
    late = [s for s in w.orders if (s.turn, s.seat) not in w.answered]  # none in lanes
    assert [(s.turn, s.seat) for s in late] == [(9, "alice")]
    assert (9, "alice") not in db.versions and db.used(9, "alice") is None
    (refusal,) = [m for m in delivered if m["In-Reply-To"] == late[0].message_id]
    assert "late" in text(refusal) and "22 December" in text(refusal), text(refusal)  # turn 9 was due day 21
    assert RUNNER.invoke(app, ["--db", w.url, "replay", GAME, "--verify"]).exit_code == 0


def the_outage_held_the_deadline(w: World, delivered: list[EmailMessage]) -> None:
    """Turn 9 fell due at day 21 with the inbox down: nothing was processed until it was back (day 21.25), and
    then with carol's orders that had waited in it."""
    db = kept(w)
    assert w.outages == [(day(20.8), day(21.25))]
    assert db.processed(9) == day(21.25)
    assert [d["what"] for at, d in w.done if at == day(21)].count("waiting") == RUNS  # each run said why
    assert [d for at, d in w.done if day(20.8) <= at < day(21.25) and d["what"] in ("processed", "dealt")] == []
    assert db.used(9, "bob") is not None and db.used(9, "bob").submitted_at.replace(tzinfo=timezone.utc) < day(21)


def the_robot_with_no_cards_was_ordered_as_its_sheet_shows(w: World, delivered: list[EmailMessage]) -> None:
    db = kept(w)
    assert w.no_cards == NO_CARDS
    for turn in NO_CARDS:
        (sheet,) = [m for m in delivered if m["Subject"] == f"{GAME}: turn {turn} cards for alice"]
        assert "all registers fused" in text(sheet) and "Axle: {program: []}" in text(sheet), text(sheet)
        used = db.used(turn, "alice")
        assert used is not None and json.loads(used.submission)  # alice's empty program was her order, used


def the_elimination_and_the_end_were_told(w: World, delivered: list[EmailMessage]) -> None:
    db = kept(w)
    assert got(delivered, "alice@home.example", f"{GAME}: you have no more turns") == 1
    (out,) = [m for m in delivered if m["Subject"].startswith(f"{GAME}: ") and "no more turns" in m["Subject"]]
    ends = [m for m in delivered if m["Subject"] == f"{GAME}: the game is over"]
    assert sorted(m["To"] for m in ends) == ["alice@home.example", "carol@example.net", "watcher@example.net"]
    assert all(WINNER in text(m) for m in ends)
    assert max(db.turns) == LAST and all(db.processed(t) < db.processed(LAST) for t in db.turns if t != LAST)
    told = {(d["turn"], d["detail"]) for _, d in w.done if d["what"] == "told" and d["game"] == GAME}
    assert told == {(OUT, "alice: out of lives"), (LAST, "alice: the result"), (LAST, "bob: the result"),
                    (LAST, "observer: the result")}, told
    assert "keep receiving each turn's report" in text(out) and "You may still send press" in text(out)


def card(turn: int, seat: str) -> str:
    """The subject of a sheet for the seat once carol took it over (#38: for her, in bob's seat)."""
    return f"{GAME}: turn {turn} cards for carol, in {seat}'s seat"


def each_seat_got_each_turn_once(w: World, delivered: list[EmailMessage]) -> None:
    """Every processed turn's report reached each seat once (at its address of the time) and the observer once;
    each dealt turn's sheet reached each seat still playing once, besides the newcomer's copy of the running turn
    and the sheet carol asked for again."""
    seats = {"alice": {"alice@example.org", "alice@home.example"}, "bob": {"bob@example.org", "carol@example.net"}}

    def sent(subject: str) -> list[str]:
        return [m["To"] for m in delivered if m["Subject"] == subject]
    for turn in range(1, LAST + 1):
        assert sent(f"{GAME}: turn {turn} report") == ["watcher@example.net"], turn
        for seat, addresses in seats.items():
            reports = sent(f"{GAME}: turn {turn} report for {seat}") + sent(f"{GAME}: turn {turn} report for carol, "
                                                                            f"in {seat}'s seat")
            assert len(reports) == 1 and set(reports) <= addresses, (turn, seat, reports)
            assert set(sent(f"{GAME}: turn {turn} cards for {seat}") + sent(card(turn, seat))) <= addresses
        assert len(sent(f"{GAME}: turn {turn} cards for alice")) == (turn <= OUT)  # none once she is out
    bob = [len(sent(f"{GAME}: turn {turn} cards for bob") + sent(card(turn, "bob"))) for turn in range(1, LAST + 1)]
    assert min(bob) == 1 and sum(bob) == LAST + 2, bob


def nothing_processed_while_paused(w: World, delivered: list[EmailMessage]) -> None:
    db = kept(w)
    for start, end in w.paused:
        assert not [n for n in db.turns if start < db.processed(n) < end]
    for to in ("alice@example.org", "bob@example.org", "watcher@example.net"):
        assert got(delivered, to, f"{GAME}: paused") == 1 and got(delivered, to, f"{GAME}: resumed") == 1


def the_extension_was_told_and_counted(w: World, delivered: list[EmailMessage]) -> None:
    extended = [m for m in delivered if m["Subject"].startswith(f"{GAME}: turn") and "extended" in m["Subject"]
                and "the game master extended it" in " ".join(text(m).split())]
    assert sorted(m["To"] for m in extended) == ["alice@example.org", "bob@example.org"]
    turn = int(extended[0]["Subject"].split()[2])
    assert (turn, "bob") in w.answered and w.answered[turn, "bob"] >= day(8.25)  # sent after the old deadline


def the_replacement_was_told_and_plays(w: World, delivered: list[EmailMessage]) -> None:
    assert got(delivered, "carol@example.net", f"{GAME}: you take over bob") == 1
    assert got(delivered, "bob@example.org", f"{GAME}: carol takes over your seat") == 1
    assert got(delivered, "alice@example.org", f"{GAME}: carol takes over bob") == 1
    sheets = [m for m in delivered if m["To"] == "carol@example.net" and "cards for" in m["Subject"]]
    assert sheets and all("cards for carol, in bob's seat" in m["Subject"] for m in sheets)
    assert 's-carol' in text(sheets[0])
    assert not [m for m in delivered if m["To"] == "bob@example.org" and "cards for" in m["Subject"]
                and "s-carol" in text(m)]


def the_address_change_was_told_to_both(w: World, delivered: list[EmailMessage]) -> None:
    for to in ("alice@example.org", "alice@home.example"):
        assert got(delivered, to, f"{GAME}: address changed") == 1
    assert any(m["To"] == "alice@home.example" and "report for alice" in m["Subject"] for m in delivered)


def the_absence_was_played_by_the_pilot(w: World, delivered: list[EmailMessage]) -> None:
    for to in ("alice@home.example", "carol@example.net"):
        assert got(delivered, to, f"{GAME}: bob is away") == 2  # this absence, and the one under `extend`
    db = kept(w)
    away = [n for n in db.turns if day(14) <= db.processed(n) < day(18) and (n, "bob") not in w.answered]
    piloted = {n for n in db.turns if (db.used(n, "bob") or OrderVersion(source="")).source == "pilot/bob.yaml"}
    assert away and piloted == set(away)  # carol sent nothing for them: the pilot did, and never otherwise


def each_turn_due_in_the_absence_was_extended(w: World, delivered: list[EmailMessage]) -> None:
    """#38: under `extend`, turns 10 and 11 (the one dealt during the absence too) were each extended once to its
    end, told to both seats; nobody was reminded during it; the game ended as soon as bob's orders were in."""
    for turn in (OUT, LAST):
        told = [m["To"] for m in delivered if m["Subject"] == f"{GAME}: turn {turn} extended"]
        assert sorted(told) == ["alice@home.example", "carol@example.net"], (turn, told)
        (one,) = [m for m in delivered if m["Subject"] == f"{GAME}: turn {turn} extended" and m["To"] == told[0]]
        assert "bob is away until Monday 28 December" in " ".join(text(one).split()), text(one)
    assert not [d for at, d in w.done if day(22) <= at < day(27) and d["what"] == "reminded"]
    assert day(22) <= kept(w).processed(LAST) < day(23)


def every_mail_fits_78_columns_in_whole_sentences(w: World, delivered: list[EmailMessage]) -> None:
    """#35, #38: every text line of every mail the campaign sent, in all three games (sheets, acknowledgements,
    reminders, reports, every control, press, the broadcast, the mail commands' replies, the match's mails, the
    ends) by `test_mail_width`'s rule, and read as a player reads it: no number cut from its word onto the next
    line ("register⏎ 1"), no engine word in parentheses ("(real)")."""
    assert mail_lines_problems(delivered) == []
    assert [problem for m in delivered for problem in run_ins(m)] == []


MODES = re.compile(rf"\((?:{'|'.join(re.escape(mode) for mode in Mode)})\)")
NUMBER = re.compile(r"\s*\d+(?![\d.)])")  # a number that is no list's "1." or "2)"


def run_ins(message: EmailMessage) -> list[str]:
    """Where a mail's text does not read in whole sentences across its lines."""
    problems = []
    lines = text(message).splitlines()
    for before, line in zip([""] + lines, lines):
        if before[-1:].isalpha() and NUMBER.match(line):
            problems.append(f"{message['Subject']}: a number cut from its word: {before!r} / {line!r}")
        if MODES.search(line):
            problems.append(f"{message['Subject']}: a robot's mode as a word to the player: {line!r}")
    return problems


def test_the_whole_sentence_check_finds_the_words_campaign_mail_had_in_38():
    message = EmailMessage()
    message["Subject"] = "cells: orders refused"
    message.set_content("Card FWD1#10 is already used at Hal-2's register\n  1; choose another.\nJoe1 receives no "
                        "cards this turn (real).\nStandings:\n  1. bob: 2 flags, 3 lives left\n  2. alice\n")
    assert [problem.split(": ")[2] for problem in run_ins(message)] == [
        "a number cut from its word", "a robot's mode as a word to the player"]


def each_geeko_turn_reached_hal_after_his_last(w: World, delivered: list[EmailMessage]) -> None:
    """#38 item 3 in lanes (Geek-o): hal, through the fifth room with turn 5, is told he has no more turns and
    what still comes, then gets each turn's report (ivy's boards) up to the last and the result, but no sheet."""
    def subjects(to: str) -> Counter:
        return Counter(m["Subject"] for m in delivered if m["To"] == to and m["Subject"].startswith(f"{LANES}: "))
    hal, ivy = subjects("hal@example.org"), subjects("ivy@example.org")
    for turn in range(1, LANES_LAST + 1):
        assert hal[f"{LANES}: turn {turn} report for hal"] == 1, (turn, sorted(hal))
        assert ivy[f"{LANES}: turn {turn} report for ivy"] == 1, (turn, sorted(ivy))
        assert hal[f"{LANES}: turn {turn} cards for hal"] == (turn <= LANES_OUT), (turn, hal)
        assert ivy[f"{LANES}: turn {turn} cards for ivy"] == 1, (turn, ivy)
    assert hal[f"{LANES}: you have no more turns"] == 1 and ivy[f"{LANES}: you have no more turns"] == 0
    (out,) = [m for m in delivered if m["Subject"] == f"{LANES}: you have no more turns"]
    words = " ".join(text(out).split())
    assert "each turn's report" in words and "the result" in words, words
    ends = [m for m in delivered if m["Subject"] == f"{LANES}: the game is over"]
    assert sorted(m["To"] for m in ends) == ["hal@example.org", "ivy@example.org"]
    assert all("The game is over: hal wins" in text(m) for m in ends), [text(m) for m in ends]
    db = kept(w, LANES)
    assert sorted(db.turns) == list(range(1, LANES_LAST + 1))
    for turn in db.turns:  # hal's orders made turns 1 to 5; ivy's, missing until then, 6 to 10 (B4.6: idle)
        assert (db.used(turn, "hal") is not None) == (turn <= LANES_OUT), turn
        assert (db.used(turn, "ivy") is not None) == (turn > LANES_OUT), turn


def the_outage_gave_the_match_player_a_full_turn(w: World, delivered: list[EmailMessage]) -> None:
    """#38 item 2 (RULES D5 outage ruling): lee's action at day 20.85 waited in the mail exchanger until the inbox
    was back at day 21.25; it counts at its stamp (lee spent 2 h 25 min of a 2 h turn: 25 min of reserve), but
    kim's clock runs from the run at day 21.25 (23 December, 00:00 UTC) that read it and told her, with her full
    2 h + 4 h: to 06:00, not to day 20.85 + 6 h, which fell in the outage. kim's action at day 21.3 (01:12, read at
    once) counts; then lee, silent, runs out of time at 01:12 + 2 h + 3 h 35 min = 06:47, and kim wins."""
    def to(player: str) -> list[EmailMessage]:
        return [m for m in delivered if m["To"] == f"{player}@example.org" and m["Subject"].startswith(f"[pbem] {MATCH}: ")]
    (told,) = [m for m in to("kim") if "lee has acted" in m["Subject"]]
    words = " ".join(text(told).split())
    assert "reserve lee 3 h 35 min, kim 4 h." in words and "Deadline: 2026-12-23 06:00:00 UTC, waiting for kim." \
        in words and "That is 6 h from 2026-12-23 00:00:00 UTC, when this mail was written." in words, words
    assert [d["detail"] for _, d in w.done if d["game"] == MATCH and d["what"] == "deadline"] \
        == ["2026-12-23 06:47:00 UTC: lee runs out of time; kim wins"]
    (kim_acted,) = [m for m in delivered if m["To"] == "kim@example.org" and m["In-Reply-To"]
                    and m["In-Reply-To"].startswith(f"<{MATCH}.kim.")]
    assert "accepted" in kim_acted["Subject"], kim_acted["Subject"]
    ends = [m for m in delivered if "lee runs out of time; kim wins" in m["Subject"]]
    assert sorted(m["To"] for m in ends) == ["kim@example.org", "lee@example.org"], [m["Subject"] for m in ends]


def press_went_both_ways(w: World, delivered: list[EmailMessage]) -> None:
    assert got(delivered, "carol@example.net", f"{GAME}: press from alice") == 1
    assert got(delivered, "alice@home.example", f"{GAME}: press from bob") == 1
    relayed = [m for m in delivered if m["Subject"] == f"{GAME}: press from alice"][0]
    assert "Truce on the east conveyor?" in text(relayed)


def the_press_and_the_winner_are_on_the_site(w: World, delivered: list[EmailMessage]) -> None:
    """The game over, its page shows the result and the press that went between the players (#22)."""
    w.pbem(day(DAYS), "site", GAME, "--out", w.folder / "site")
    page = (w.folder / "site" / GAME / "index.html").read_text()
    assert WINNER in page and "Truce on the east conveyor?" in page and "No truce." in page


def the_mail_commands_were_answered(w: World, delivered: list[EmailMessage]) -> None:
    def reply(tag: str) -> str:
        found = [m for m in delivered if m["In-Reply-To"] == tag]
        assert len(found) == 1, tag
        return text(found[0])
    assert "comes again" in reply("<resend@bob>") and "Orders in:" in reply("<status@bob>")
    assert "command: resend" in reply("<help@alice>") and "press: signed" in reply("<help@alice>")
    sheets = Counter(m["Subject"] for m in delivered
                     if m["To"] == "carol@example.net" and "cards for" in m["Subject"])
    assert max(sheets.values()) == 2  # the turn's sheet, and once more on request


def the_broadcast_reached_everyone(w: World, delivered: list[EmailMessage]) -> None:
    for to in ("alice@home.example", "carol@example.net", "watcher@example.net"):
        assert got(delivered, to, f"{GAME}: from the game master") == 1


def the_observer_saw_reports_and_the_end_never_sheets(w: World, delivered: list[EmailMessage]) -> None:
    watched = [m["Subject"] for m in delivered if m["To"] == "watcher@example.net"]
    assert sum("report" in s for s in watched) == LAST and watched.count(f"{GAME}: the game is over") == 1
    assert not any("cards for" in s or "no more turns" in s for s in watched)
    assert not any("s-alice" in m.as_string() or "s-carol" in m.as_string() for m in delivered
                   if m["To"] == "watcher@example.net")


CHECKS = [every_message_once, every_mail_answered_once, no_order_lost_or_used_late, the_outage_held_the_deadline,
          the_robot_with_no_cards_was_ordered_as_its_sheet_shows, the_elimination_and_the_end_were_told,
          each_seat_got_each_turn_once,
          nothing_processed_while_paused, the_extension_was_told_and_counted, the_replacement_was_told_and_plays,
          the_address_change_was_told_to_both, the_absence_was_played_by_the_pilot,
          each_turn_due_in_the_absence_was_extended, every_mail_fits_78_columns_in_whole_sentences,
          each_geeko_turn_reached_hal_after_his_last, the_outage_gave_the_match_player_a_full_turn,
          press_went_both_ways,
          the_press_and_the_winner_are_on_the_site,
          the_mail_commands_were_answered, the_broadcast_reached_everyone,
          the_observer_saw_reports_and_the_end_never_sheets]
