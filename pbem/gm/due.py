"""What a cron tick has to do, read from the stored rows alone: `pbem run` and `pbem status` ask this first, and
import the engine, rendering and mail transport only when something is due.

Each scheduled game's tick comes from its rows: the latest processed turn (its number, and whether the engine
found the game over then: `turns.over`), the hands dealt for the next turn (a player is expected to send orders
when a hand of cards was dealt to them or to one of their robots: the engine deals to exactly the robots that
receive cards, B4.1), the orders stored, and the turn's deadline with the reminders sent. Where the rows cannot
tell (a turn stored before `turns.over` existed, a death match, whose deadlines only its rules know), the tick
counts as due and the full pass decides. "Due" may be a false alarm; it is never a miss.
"""
from __future__ import annotations

import json
from dataclasses import dataclass
from datetime import datetime, timedelta

from sqlalchemy import func, text
from sqlmodel import Session, col, select

from ..formats.schedule import Schedule, schedule_of
from ..store.base import list_games, players_of
from ..store.mail import PENDING, MailOutgoing
from ..store.schedule import Deadline, GameSchedule, deadline_of
from ..store.tables import DealtHand, Game, OrderVersion, Robot, Turn


@dataclass(frozen=True)
class GameTick:
    """One scheduled game at the start of a tick, as its rows tell it."""

    game: str
    turn: int  # the turn to play next
    over: bool | None  # None: the rows cannot tell (a turn stored before revision 0006)
    dealt: bool
    deadline: Deadline | None
    schedule: Schedule
    waiting_for: list[str]  # players expected to send orders for `turn` who have sent none

    def due(self, now: datetime) -> bool:
        """Whether `pbem run` would do anything for this game at `now` (deal, start the clock, remind, process)."""
        if self.over is None:
            return True
        if self.over:
            return False
        if not self.dealt or self.deadline is None or now >= self.deadline.due_at:
            return True
        if self.schedule.process == "all-in" and not self.waiting_for:
            return True
        reminders = [h for h in self.schedule.remind if h not in self.deadline.reminded
                     and now >= self.deadline.due_at - timedelta(hours=h)]
        return bool(reminders and self.waiting_for)


def game_ticks(session: Session) -> list[GameTick]:
    """Every scheduled game's tick, by name."""
    schedules = {row.game_id: row.schedule for row in session.exec(select(GameSchedule))}
    return [_tick(session, game, schedule_of(json.loads(schedules[game.id])))
            for game in list_games(session) if game.id in schedules]


def _tick(session: Session, game: Game, schedule: Schedule) -> GameTick:
    last = session.exec(select(Turn.number, Turn.over).where(Turn.game_id == game.id)
                        .order_by(col(Turn.number).desc())).first()
    number, over = (last[0], last[1]) if last else (0, False)
    turn = number + 1
    holders = {holder for holder, cards in session.exec(select(DealtHand.holder, DealtHand.cards).where(
        DealtHand.game_id == game.id, DealtHand.turn == turn)) if json.loads(cards)}
    dealt = session.exec(select(DealtHand.id).where(DealtHand.game_id == game.id, DealtHand.turn == turn)).first()
    owners = dict(session.exec(select(Robot.name, Robot.player_id).where(Robot.game_id == game.id)).all())
    sent = set(session.exec(select(OrderVersion.player_id).where(OrderVersion.game_id == game.id,
                                                                 OrderVersion.turn == turn)).all())
    waiting = [p.name for p in players_of(session, game)
               if (p.name in holders or any(owners.get(h) == p.id for h in holders)) and p.id not in sent]
    return GameTick(game.name, turn, over, dealt is not None, deadline_of(session, game, turn) if dealt else None,
                    schedule, waiting)


def mail_waiting(session: Session) -> bool:
    """Whether the outbox holds mail to send."""
    return session.exec(select(func.count()).select_from(MailOutgoing).where(MailOutgoing.state == PENDING)).one() > 0


def matches_stored(session: Session) -> bool:
    """Whether any death match is stored (their deadlines are their rules' to tell: `pbem.store.dm` reads them)."""
    return session.exec(text("SELECT 1 FROM dm_match LIMIT 1")).first() is not None  # type: ignore[call-overload]


def nothing_due(session: Session, now: datetime, *, smtp: bool) -> bool:
    """True when a `pbem run` at `now` would find nothing to do: no scheduled game due, no death match, and no mail
    to send (`smtp`: the mail config names a server to send it with). Fetching mail is the caller's to decide."""
    if matches_stored(session) or (smtp and mail_waiting(session)):
        return False
    return not any(tick.due(now) for tick in game_ticks(session))
