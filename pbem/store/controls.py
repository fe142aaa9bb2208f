"""The game's history of GM controls (`gm_events`): extensions, pauses, replacements, address changes, absences,
broadcasts, observers, policies and press, each one row with its time, kept by export/import.

What a control leaves behind is read back from these rows (one truth): whether the game is paused and with how
much time left, who observes it, its press and absence policies, who is away. The rows are written by `pbem.gm`.
"""
from __future__ import annotations

import json
from dataclasses import dataclass
from datetime import datetime, timedelta, timezone
from typing import Any

from sqlalchemy import Column, Text
from sqlmodel import Field, Session, col, select

from ..formats.controls import Control, ControlEntry
from ..formats.ending import Ending
from .base import read_in_transaction
from .model import Table
from .tables import Game, key


class GmEvent(Table, table=True):
    __tablename__ = "gm_events"
    id: int | None = Field(default=None, primary_key=True)
    game_id: int = Field(foreign_key="games.id", index=True)
    at: datetime
    kind: str  # a Control
    player: str | None = None  # the player it concerns, when one
    data: str = Field(sa_column=Column(Text, nullable=False))  # JSON: what the control did


@dataclass(frozen=True)
class Entry(ControlEntry):
    """A control of the history, with its row's id (which names the mail it sends)."""

    id: int = 0


@dataclass(frozen=True)
class Pause:
    at: datetime
    turn: int
    remaining: timedelta | None  # the running turn's time left when the clock stopped; None: no clock ran


@dataclass(frozen=True)
class Ended:
    """The GM's end of a game (`pbem game end`): when, how, the winner named and the reason given."""

    at: datetime
    how: Ending
    winner: str | None
    reason: str


@dataclass(frozen=True)
class Absence:
    player: str
    start: datetime
    end: datetime
    id: int


def record(session: Session, game: Game, kind: Control, at: datetime, player: str | None = None,
           **data: Any) -> Entry:
    """Add a control to the game's history (not committed); its id names the mail it sends."""
    row = GmEvent(game_id=key(game), at=at, kind=str(kind), player=player, data=json.dumps(data, sort_keys=True))
    session.add(row)
    session.flush()
    _read(session).pop(key(game), None)  # read again, with this one
    return Entry(at, kind, player, data, row.id or 0)


def history(session: Session, game: Game, *kinds: Control) -> list[Entry]:
    """The game's controls in the order they were made (only `kinds`, when given). Read once a transaction: a due
    game asks ~18 times (ended? paused? observers, seats, policies…), a query each (#36); `record` reads again."""
    read = _read(session)
    entries = read.get(key(game)) if session.get_transaction() is not None else None
    if entries is None:
        query = select(GmEvent).where(GmEvent.game_id == game.id).order_by(col(GmEvent.id))
        entries = [Entry(_utc(row.at), Control(row.kind), row.player, json.loads(row.data), row.id or 0)
                   for row in session.exec(query).all()]
        _read(session)[key(game)] = entries
    return [entry for entry in entries if not kinds or entry.kind in kinds]


def _read(session: Session) -> dict[int, list[Entry]]:
    """The games' histories read in the session's transaction."""
    return read_in_transaction(session, "pbem.store.controls.read")


def paused(session: Session, game: Game) -> Pause | None:
    """The pause in force, if any: the latest pause not followed by a resume."""
    last = next(reversed(history(session, game, Control.PAUSE, Control.RESUME)), None)
    if last is None or last.kind is Control.RESUME:
        return None
    remaining = last.data.get("remaining")
    return Pause(last.at, int(last.data["turn"]), None if remaining is None else timedelta(seconds=remaining))


def ended(session: Session, game: Game) -> Ended | None:
    """The GM's end of the game, if they ended it: no sheet, reminder or turn follows it."""
    last = next(reversed(history(session, game, Control.END)), None)
    if last is None:
        return None
    return Ended(last.at, Ending(last.data["how"]), last.player, last.data.get("reason") or "")


def observers(session: Session, game: Game) -> list[str]:
    """The addresses that watch the game (reports and the end, never sheets or secrets), in the order they came."""
    watching: dict[str, None] = {}
    for entry in history(session, game, Control.OBSERVE, Control.UNOBSERVE):
        address = entry.data["email"]
        if entry.kind is Control.OBSERVE:
            watching[address] = None
        else:
            watching.pop(address, None)
    return list(watching)


def holders(session: Session, game: Game) -> dict[str, str]:
    """Each seat given to a newcomer (`pbem game replace`) -> the name of the person who plays it now."""
    return {entry.player: str(entry.data["name"]) for entry in history(session, game, Control.REPLACE)
            if entry.player is not None}


def policy(session: Session, game: Game) -> dict[str, str]:
    """The game's control policies as set (later settings win); the gm layer reads them with their defaults."""
    found: dict[str, str] = {}
    for entry in history(session, game, Control.POLICY):
        found.update(entry.data)
    return found


def absences(session: Session, game: Game) -> list[Absence]:
    return [Absence(e.player or "", datetime.fromisoformat(e.data["from"]), datetime.fromisoformat(e.data["to"]), e.id)
            for e in history(session, game, Control.AWAY)]


def restore(session: Session, game: Game, entries: list[ControlEntry]) -> None:
    """Put exported controls back in a game's history (`game import`), in their order."""
    for entry in entries:
        record(session, game, entry.kind, entry.at, entry.player, **entry.data)


def _utc(moment: datetime) -> datetime:
    return moment if moment.tzinfo else moment.replace(tzinfo=timezone.utc)
