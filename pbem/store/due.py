"""What a cron tick has to do, read from the stored rows alone: `pbem run` and `pbem status` ask this first, and
import the engine, rendering and mail transport only when something is due.

Each scheduled game's tick comes from its rows: the latest processed turn (its number, and whether the engine
found the game over then: `turns.over`), the hands dealt for the next turn (a player is expected to send orders
when a hand of cards was dealt to them or to one of their robots: the engine deals to exactly the robots that
receive cards, B4.1), the orders stored, and the turn's deadline with the reminders sent. Where the rows cannot
tell (a turn stored before `turns.over` existed, a schema not yet migrated), the tick counts as due and the full
pass decides. "Due" may be a false alarm; it is never a miss. A death match's tick is its one deadline row (turn
0), which its moves write whenever its position changes (pbem.gm.moves.write_deadline): when the next deadline
passes or its opening mail is owed, and what `pbem status` tells of it; a match without that row yet (upgraded
from revision 0010, before any run) counts as due.

The rows are read with plain SQL: through the standard library's sqlite3 for a SQLite file (no SQLAlchemy, whose
import alone costs more than the whole check), through SQLAlchemy for any other database. `pbem status` shows
these ticks when nothing is due, and `stored_tick` reads the same through the store's ORM when something is.
"""
from __future__ import annotations

import json
import re
import sqlite3
from dataclasses import dataclass
from datetime import datetime, timedelta, timezone
from pathlib import Path
from typing import TYPE_CHECKING, Any, Callable, TypeVar
from urllib.parse import parse_qsl, unquote, urlsplit

from ..formats.schedule import Process, Schedule, hold_expires, reminders_of, schedule_of

if TYPE_CHECKING:
    from sqlmodel import Session

NEVER_YEAR = 9999
NEVER = datetime(NEVER_YEAR, 12, 31, tzinfo=timezone.utc)  # a match's deadline row when nothing is due until someone acts
Rows = Callable[..., list[tuple[Any, ...]]]  # (sql, **parameters) -> rows; parameters as :name, which both drivers take
T = TypeVar("T")


@dataclass(frozen=True)
class GameTick:
    """One scheduled game at the start of a tick."""

    game: str
    turn: int  # the turn to play next
    over: bool | None  # None: the rows cannot tell (a turn stored before revision 0006)
    dealt: bool
    due_at: datetime | None  # the turn's deadline, once its clock started
    reminded: tuple[int, ...]  # the reminders sent (hours before the deadline)
    schedule: Schedule
    waiting_for: list[str]  # players expected to send orders for `turn` who have sent none
    told: bool = True  # a game over has had its end told (pbem.gm.ending: the "game is over" mail queued)
    paused: datetime | None = None  # since when the game is paused (pbem game pause), if it is
    held_at: datetime | None = None  # since when the turn is held for review (its preview sent to the GM)
    approved: bool = False  # the held turn was approved
    away: tuple[str, ...] = ()  # the players away at the deadline (pbem game away: the pilot may play for them)
    dealt_at: datetime | None = None  # when the turn's clock started (its sheets went out)
    ended: tuple[datetime, str, str | None] | None = None  # the GM's end (pbem game end): when, how, the winner


    def due(self, now: datetime) -> bool:
        """Whether `pbem run` would do anything for this game at `now` (deal, start the clock, remind, process)."""
        if self.ended is not None:
            return False  # closed by the GM: nothing follows
        if self.over is None:
            return True
        if self.over:
            return not self.told
        if self.paused is not None:
            return False  # a paused game's clock stands still
        if not self.dealt or self.due_at is None:
            return True
        if self.held_at is not None and not self.approved:  # until approved, or the hold expires
            expires = hold_expires(self.schedule, self.held_at)
            return (expires is not None and now >= expires) or any(p in self.away for p in self.waiting_for)
        if now >= self.due_at:
            return True
        if self.schedule.process is Process.ALL_IN and not self.waiting_for:
            return True
        sent = reminders_of(self.schedule, self.dealt_at, self.due_at) if self.dealt_at else self.schedule.remind
        reminders = [h for h in sent if h not in self.reminded and now >= self.due_at - timedelta(hours=h)]
        return bool(reminders and self.waiting_for)


@dataclass(frozen=True)
class MatchTick:
    """One death match at the start of a tick, as its deadline row tells it (or its rules, in the full pass)."""

    match: str
    game: str
    due_at: datetime | None  # when `pbem run` next has something to do for it; None: nothing until someone acts
    over: bool
    effect: str  # what happens at `due_at`
    waiting: str | None  # whom the running deadline waits for
    idle: str  # what the run does while nothing is due

    def due(self, now: datetime) -> bool:
        return self.due_at is not None and now >= self.due_at

    def about(self) -> str:
        """What the match's deadline row keeps besides the moment (JSON)."""
        return json.dumps({"over": self.over, "effect": self.effect, "waiting": self.waiting, "idle": self.idle},
                          sort_keys=True, ensure_ascii=False)

    def row(self, now: datetime) -> dict[str, Any]:
        """The match's line of `pbem status`."""
        due_text = None if self.due_at is None else self.due_at.astimezone(timezone.utc).strftime("%Y-%m-%d %H:%M:%S UTC")
        upcoming = (self.idle if self.due_at is None else f"apply the passed deadline: {self.effect}"
                    if now > self.due_at else f"at {due_text}: {self.effect}")
        return {"match": self.match, "game": self.game, "over": self.over,
                "due": None if self.due_at is None else self.due_at.isoformat(), "due_text": due_text,
                "waiting": self.waiting, "next": upcoming}


@dataclass(frozen=True)
class Quiet:
    """A tick with nothing due: every scheduled game's tick, every match's, and the inbox's last read."""

    games: list[GameTick]
    matches: list[MatchTick]
    inbox: Inbox | None


def quiet_ticks(url: str, now: datetime, *, outbox: bool) -> list[GameTick] | None:
    """Every scheduled game's tick when nothing is due at `now`, else None (also when the rows cannot tell).
    `outbox`: mail waiting in the outbox counts as due (the caller has a server to send it with)."""
    quiet = _quiet(url, now, outbox)
    return None if quiet is None else quiet.games


def quiet_status(url: str, now: datetime) -> Quiet | None:
    """What `pbem status` shows when nothing is due at `now`; None when something is due (or the rows cannot
    tell)."""
    return _quiet(url, now, outbox=False)


def _quiet(url: str, now: datetime, outbox: bool) -> Quiet | None:
    def read(rows: Rows) -> Quiet | None:
        if rows("SELECT 1 FROM reports_owed LIMIT 1") or (outbox and rows(
                "SELECT 1 FROM mail_outbox WHERE state = 'pending' LIMIT 1")):
            return None  # owed reports are written by the full pass
        matches = match_ticks(rows)
        if matches is None or any(match.due(now) for match in matches):
            return None
        ticks = game_ticks(rows)
        return None if any(tick.due(now) for tick in ticks) else Quiet(ticks, matches, inbox_of(rows))
    return from_rows(url, read)


def match_ticks(rows: Rows) -> list[MatchTick] | None:
    """Every death match's tick from its deadline row, by name; None when a match has no row yet."""
    from ..games import Kind, names  # every other game is a match: the installed games are not read (#34)

    games = names(Kind.CAMPAIGN)
    marks = ", ".join(f":g{i}" for i in range(len(games)))
    found = rows(f"SELECT g.name, g.ruleset, d.due_at, d.about FROM games g LEFT JOIN turn_deadlines d "
                 f"ON d.game_id = g.id AND d.turn = 0 WHERE g.ruleset NOT IN ({marks}) ORDER BY g.name",
                 **{f"g{i}": game for i, game in enumerate(games)})
    if any(about is None for *_, about in found):
        return None
    ticks = []
    for name, game, due_at, about in found:
        told, moment = json.loads(about), _utc(due_at)
        ticks.append(MatchTick(name, game, None if moment.year == NEVER_YEAR else moment, told["over"],
                               told["effect"], told["waiting"], told["idle"]))
    return ticks


def from_rows(url: str, read: Callable[[Rows], T | None]) -> T | None:
    """`read(rows)` over the database at `url`; None also when the rows cannot be read (no such file, a schema not
    migrated, a URL that does not open): the caller then takes its full path, which says why."""
    try:
        with RowReader(url) as rows:
            return read(rows)
    except Exception:
        return None


def game_ticks(rows: Rows) -> list[GameTick]:
    """Every scheduled game's tick, by name."""
    games = rows("SELECT g.id, g.name, s.schedule FROM games g JOIN game_schedules s ON s.game_id = g.id "
                 "ORDER BY g.name")
    return [_tick(rows, game_id, name, schedule_of(json.loads(schedule))) for game_id, name, schedule in games]


def game_tick(rows: Rows, name: str) -> GameTick | None:
    """One scheduled game's tick, by name; None when it has no schedule."""
    found = rows("SELECT g.id, s.schedule FROM games g JOIN game_schedules s ON s.game_id = g.id "
                 "WHERE g.name = :name", name=name)
    return _tick(rows, found[0][0], name, schedule_of(json.loads(found[0][1]))) if found else None


def session_rows(session: Session) -> Rows:
    """The same plain SQL read in an open store session's transaction (SQLAlchemy is loaded there already)."""
    from sqlalchemy import text

    return lambda sql, **parameters: [tuple(row) for row in session.execute(text(sql), parameters)]


def _tick(rows: Rows, game: int, name: str, schedule: Schedule) -> GameTick:
    last = rows("SELECT number, over FROM turns WHERE game_id = :game ORDER BY number DESC LIMIT 1", game=game)
    number, over = (last[0][0], None if last[0][1] is None else bool(last[0][1])) if last else (0, False)
    turn = number + 1
    hands = rows("SELECT holder, cards FROM dealt_hands WHERE game_id = :game AND turn = :turn", game=game, turn=turn)
    holders = {holder for holder, cards in hands if json.loads(cards)}
    owners: dict[str, int] = dict(rows("SELECT name, player_id FROM robots WHERE game_id = :game", game=game))
    sent = {player for player, in rows("SELECT player_id FROM order_versions WHERE game_id = :game AND turn = :turn",
                                       game=game, turn=turn)}
    players = rows("SELECT id, name FROM players WHERE game_id = :game ORDER BY position", game=game)
    waiting = [player for player_id, player in players
               if (player in holders or any(owners.get(h) == player_id for h in holders)) and player_id not in sent]
    deadline = rows("SELECT due_at, reminded, held_at, approved, dealt_at FROM turn_deadlines "
                    "WHERE game_id = :game AND turn = :turn", game=game, turn=turn) if hands else []
    due_at, reminded, held_at, approved, dealt_at = (
        (_utc(deadline[0][0]), tuple(json.loads(deadline[0][1])), _utc(deadline[0][2]) if deadline[0][2] else None,
         bool(deadline[0][3]), _utc(deadline[0][4])) if deadline else (None, (), None, False, None))
    told = not over or bool(rows("SELECT 1 FROM mail_outbox WHERE purpose = 'end' AND subject = :subject LIMIT 1",
                                 subject=f"{name}: the game is over"))
    # the kinds are pbem.formats.controls.Control's words (not imported here: it loads PyYAML)
    pause = rows("SELECT kind, at FROM gm_events WHERE game_id = :game AND kind IN ('pause', 'resume') "
                 "ORDER BY id DESC LIMIT 1", game=game)
    paused = _utc(pause[0][1]) if pause and pause[0][0] == "pause" else None
    end = rows("SELECT at, player, data FROM gm_events WHERE game_id = :game AND kind = 'end' ORDER BY id DESC LIMIT 1",
               game=game)
    ended = (_utc(end[0][0]), json.loads(end[0][2])["how"], end[0][1]) if end else None
    spans = rows("SELECT player, data FROM gm_events WHERE game_id = :game AND kind = 'away'", game=game)
    away = tuple(sorted({player for player, data in spans if due_at and _during(json.loads(data), due_at)}))
    return GameTick(name, turn, over, bool(hands), due_at, reminded, schedule, waiting, told, paused, held_at,
                    approved, away, dealt_at, ended)


def stored_tick(session: Session, name: str) -> GameTick:
    """A game's tick as the store tells it through the ORM and the engine (its state loaded: who is expected), for
    `pbem status` when something is due; `told` is not read (only `pbem run` acts on it)."""
    from . import turns
    from .controls import absences, ended, paused
    from .games import get_game
    from .schedule import deadline_of, required_schedule

    game = get_game(session, name)
    turn = turns.status(session, name)
    deadline = deadline_of(session, game, turn.turn) if turn.dealt else None
    pause, end = paused(session, game), ended(session, game)
    return GameTick(name, turn.turn, turn.over, turn.dealt, deadline.due_at if deadline else None,
                    deadline.reminded if deadline else (), required_schedule(session, game), turn.waiting_for,
                    paused=pause.at if pause else None, held_at=deadline.held_at if deadline else None,
                    approved=deadline.approved if deadline else False,
                    away=tuple(sorted({a.player for a in absences(session, game)
                                       if deadline and a.start <= deadline.due_at < a.end})),
                    dealt_at=deadline.dealt_at if deadline else None,
                    ended=(end.at, str(end.how), end.winner) if end else None)


@dataclass(frozen=True)
class Inbox:
    """The last attempt to read the inbox (store.mail.MailInbox), as `pbem status` shows it; times in UTC."""

    origin: str
    error: str | None
    failed_since: datetime | None
    checked_at: datetime


def inbox_of(rows: Rows) -> Inbox | None:
    found = rows("SELECT origin, error, failed_since, checked_at FROM mail_inbox ORDER BY id LIMIT 1")
    if not found:
        return None
    origin, error, failed_since, checked_at = found[0]
    return Inbox(origin, error, _utc(failed_since) if failed_since else None, _utc(checked_at))


def _during(absence: dict[str, str], moment: datetime) -> bool:
    """Whether an absence's row (`from`, `to`: pbem.store.controls.absences) covers `moment`."""
    return datetime.fromisoformat(absence["from"]) <= moment < datetime.fromisoformat(absence["to"])


def _utc(value: Any) -> datetime:
    """A stored time (SQLite gives text back to plain SQL, PostgreSQL a datetime) in UTC."""
    moment = datetime.fromisoformat(value) if isinstance(value, str) else value
    return moment if moment.tzinfo else moment.replace(tzinfo=timezone.utc)


class RowReader:
    """Plain SQL over the database at `url`, read only: `with RowReader(url) as rows: rows(sql, **parameters)`.
    A SQLite file is read with the standard library's sqlite3 and a PostgreSQL database through libpq itself
    (`pbem.store.libpq`; psycopg where libpq cannot be loaded): SQLAlchemy's import, and psycopg's, cost more
    than the whole check. Any other database through SQLAlchemy."""

    def __init__(self, url: str):
        self.url = url

    def __enter__(self) -> Rows:
        path = sqlite_file(self.url)
        if path is not None:
            if not path.is_file():
                raise FileNotFoundError(path)
            self.connection: Any = sqlite3.connect(f"{path.resolve().as_uri()}?mode=ro", uri=True)
            return lambda sql, **parameters: self.connection.execute(sql, parameters).fetchall()
        conninfo = _postgresql(self.url)
        if conninfo is not None:
            from .libpq import Connection

            try:
                connection = self.connection = Connection(conninfo)
                return connection.rows
            except OSError:  # no libpq to load here (or no server): psycopg says why, or reads
                import psycopg

                self.connection = psycopg.connect(**conninfo, autocommit=True)
                return lambda sql, **parameters: self.connection.execute(_PARAMETER.sub(r"%(\1)s", sql),
                                                                         parameters).fetchall()
        from sqlalchemy import text

        from .db import open_database

        self.engine = open_database(self.url)
        self.connection = self.engine.connect()
        return lambda sql, **parameters: list(self.connection.execute(text(sql), parameters).all())

    def __exit__(self, *exc: object) -> None:
        self.connection.close()
        if hasattr(self, "engine"):
            self.engine.dispose()


_PARAMETER = re.compile(r"(?<![:\w]):(\w+)")  # `:name`, as psycopg spells it: `%(name)s`


def _postgresql(url: str) -> dict[str, Any] | None:
    """psycopg's connection arguments for a `postgresql://` or `postgresql+psycopg://` URL, else None."""
    parts = urlsplit(url)
    if parts.scheme not in ("postgresql", "postgresql+psycopg"):
        return None
    found = {"host": parts.hostname, "port": parts.port, "user": unquote(parts.username or "") or None,
             "password": unquote(parts.password or "") or None, "dbname": unquote(parts.path.lstrip("/")) or None}
    return {key: value for key, value in {**found, **dict(parse_qsl(parts.query))}.items() if value is not None}


def sqlite_file(url: str) -> Path | None:
    """The file of a plain `sqlite:///PATH` URL (no query, no driver), else None."""
    prefix = "sqlite:///"
    if not url.startswith(prefix) or "?" in url or url == prefix or url.endswith(":memory:"):
        return None
    return Path(url[len(prefix):])

