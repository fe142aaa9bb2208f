"""The autopilot's tables: each game's schedule, and each dealt turn's deadline and the reminders sent.

`turn_deadlines` is written when a turn's cards go out (by `pbem run`, or when the schedule is set for a
turn already dealt); a reminder is recorded in the same transaction that queues it, and its Message-ID comes
from (game, turn, player, hours), so no reminder is ever queued twice.
"""
from __future__ import annotations

import json
from dataclasses import dataclass
from datetime import datetime, timedelta, timezone

from sqlalchemy import Column, Text, UniqueConstraint
from sqlmodel import Field, Session, col, select

from ..formats.schedule import Schedule, due_after, schedule_of
from .base import Refused
from .due import NEVER
from .model import Table
from .tables import Game, key


class GameSchedule(Table, table=True):
    __tablename__ = "game_schedules"
    id: int | None = Field(default=None, primary_key=True)
    game_id: int = Field(foreign_key="games.id", unique=True)
    schedule: str = Field(sa_column=Column(Text, nullable=False))  # JSON: Schedule.to_data()


class TurnDeadline(Table, table=True):
    __tablename__ = "turn_deadlines"
    __table_args__ = (UniqueConstraint("game_id", "turn"),)
    id: int | None = Field(default=None, primary_key=True)
    game_id: int = Field(foreign_key="games.id", index=True)
    turn: int
    dealt_at: datetime
    due_at: datetime
    reminded: str = Field(default="[]", sa_column=Column(Text, nullable=False))  # JSON: hours already sent
    held_at: datetime | None = None  # the review hold: when the preview went to the GM
    held_hash: str | None = None  # the previewed state's hash, which `turn approve` must store
    approved: bool = False
    # a death match's row (turn 0): what `pbem status` tells of it, JSON (pbem.store.due.MatchTick.about)
    about: str | None = Field(default=None, sa_column=Column(Text, nullable=True))


@dataclass(frozen=True)
class Deadline:
    turn: int
    dealt_at: datetime
    due_at: datetime
    reminded: tuple[int, ...]
    held_at: datetime | None = None
    held_hash: str | None = None
    approved: bool = False


def utc(moment: datetime) -> datetime:
    """A stored time in UTC (SQLite gives them back without their zone)."""
    return moment if moment.tzinfo else moment.replace(tzinfo=timezone.utc)


def set_schedule(session: Session, name: str, schedule: Schedule) -> None:
    from .games import get_game  # the game's state and engine: not for a tick that only reads the schedule

    game = get_game(session, name)
    row = session.exec(select(GameSchedule).where(GameSchedule.game_id == game.id)).first() \
        or GameSchedule(game_id=key(game), schedule="")
    row.schedule = json.dumps(schedule.to_data(), sort_keys=True)
    session.add(row)


def schedule_for(session: Session, game: Game) -> Schedule | None:
    row = session.exec(select(GameSchedule).where(GameSchedule.game_id == game.id)).first()
    return schedule_of(json.loads(row.schedule)) if row else None


def required_schedule(session: Session, game: Game) -> Schedule:
    """The schedule of a game that runs by the clock (refused for a game without one)."""
    schedule = schedule_for(session, game)
    if schedule is None:
        raise Refused([f"{game.name} has no schedule: pbem game set {game.name} --deadline 5d"])
    return schedule


def scheduled_games(session: Session) -> list[Game]:
    return list(session.exec(select(Game).join(GameSchedule, col(GameSchedule.game_id) == Game.id)
                             .order_by(Game.name)).all())


def deadline_of(session: Session, game: Game, turn: int) -> Deadline | None:
    row = _row(session, game, turn)
    return None if row is None else _deadline(row)


def _deadline(row: TurnDeadline) -> Deadline:
    return Deadline(row.turn, utc(row.dealt_at), utc(row.due_at), tuple(json.loads(row.reminded)),
                    utc(row.held_at) if row.held_at else None, row.held_hash, row.approved)


def start_clock(session: Session, game: Game, turn: int, dealt_at: datetime) -> Deadline:
    """The turn's deadline from the game's schedule, recorded once (an existing one is kept)."""
    found = deadline_of(session, game, turn)
    if found is not None:
        return found
    due = due_after(required_schedule(session, game), dealt_at)
    session.add(TurnDeadline(game_id=key(game), turn=turn, dealt_at=dealt_at, due_at=due))
    session.flush()
    return Deadline(turn, dealt_at, due, ())


def hold(session: Session, game: Game, turn: int, at: datetime | None, after_hash: str | None) -> None:
    """The review hold: the turn's preview went to the GM at `at`; nothing is stored until it is approved
    (None, None: the hold is lifted, and the next run previews the turn again)."""
    row = _existing_row(session, game, turn)
    row.held_at, row.held_hash = at, after_hash
    row.approved = row.approved and at is not None
    session.add(row)


def lift_hold(session: Session, game: Game, turn: int) -> None:
    """Orders stored while the turn is held for review: the preview the GM saw is stale, so the next run previews
    the turn again at once (a hold that is not there is left alone)."""
    row = _row(session, game, turn)
    if row is not None and row.held_at is not None:
        hold(session, game, turn, None, None)


def approve(session: Session, game: Game, turn: int) -> Deadline:
    row = _row(session, game, turn)
    if row is None or row.held_at is None:
        raise Refused([f"turn {turn} of {game.name} is not held for review"])
    row.approved = True
    session.add(row)
    return _deadline(row)


def move_deadline(session: Session, game: Game, turn: int, due_at: datetime, now: datetime) -> Deadline:
    """The turn's deadline moved to `due_at` (an extension, a resumed clock); the reminders follow it: one whose
    moment under the new deadline is still to come goes again then."""
    row = _row(session, game, turn)
    if row is None:
        raise Refused([f"turn {turn} of {game.name} has no deadline yet: pbem run deals it and starts its clock"])
    row.due_at = due_at
    row.reminded = json.dumps([h for h in json.loads(row.reminded) if now >= due_at - timedelta(hours=h)])
    session.add(row)
    session.flush()
    return _deadline(row)


# A death match's one row (turn 0: a match has no turns): when `pbem run` next has something to do for it.
MATCH_TURN = 0


def set_wake(session: Session, game: Game, due_at: datetime | None, about: str, now: datetime) -> None:
    """A death match's deadline row, written whenever its position changes (pbem.gm.moves.write_deadline): the
    moment its next deadline passes or its opening mail is owed, or `NEVER` (None given); `about`: what `pbem
    status` tells of it (JSON)."""
    row = _row(session, game, MATCH_TURN) or TurnDeadline(game_id=key(game), turn=MATCH_TURN, dealt_at=now, due_at=now)
    row.due_at, row.about = NEVER if due_at is None else due_at, about
    session.add(row)
    session.flush()


def mark_reminded(session: Session, game: Game, turn: int, hours: int) -> None:
    row = _existing_row(session, game, turn)
    row.reminded = json.dumps(sorted({*json.loads(row.reminded), hours}, reverse=True))
    session.add(row)


def _row(session: Session, game: Game, turn: int) -> TurnDeadline | None:
    return session.exec(select(TurnDeadline).where(TurnDeadline.game_id == game.id,
                                                   TurnDeadline.turn == turn)).first()


def _existing_row(session: Session, game: Game, turn: int) -> TurnDeadline:
    row = _row(session, game, turn)
    if row is None:
        raise Refused([f"turn {turn} of {game.name} has no deadline"])
    return row
