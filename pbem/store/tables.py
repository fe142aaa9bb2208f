"""The game master's tables of every game (SQLModel): games, their seats, every move. JSON columns hold canonical
JSON text (formats.canonical).

Every submission is kept (`order_versions`). A campaign's turns (robots, processed turns, hands, states, events)
are in turn_tables.py, whose names are read from here too.
"""
from __future__ import annotations

from datetime import datetime
from typing import TYPE_CHECKING, Any, Protocol

from sqlalchemy import Column, Text, UniqueConstraint, true
from sqlmodel import Field

from .model import Table

if TYPE_CHECKING:
    from .turn_tables import DealtHand as DealtHand
    from .turn_tables import EventRecord as EventRecord
    from .turn_tables import Robot as Robot
    from .turn_tables import SnapshotKind as SnapshotKind
    from .turn_tables import StateSnapshot as StateSnapshot
    from .turn_tables import Turn as Turn


class _Stored(Protocol):
    id: int | None


def key(row: _Stored) -> int:
    """A row's primary key, for the rows that refer to it: the database gives it when the row is flushed."""
    if row.id is None:
        raise ValueError(f"{type(row).__name__} has no key before it is flushed")
    return row.id


class Game(Table, table=True):
    __tablename__ = "games"
    id: int | None = Field(default=None, primary_key=True)
    name: str = Field(unique=True, index=True)
    ruleset: str
    seed: str
    setup: str = Field(sa_column=Column(Text, nullable=False))  # the game description (canonical JSON)
    created_at: datetime


class Player(Table, table=True):
    __tablename__ = "players"
    __table_args__ = (UniqueConstraint("game_id", "name"),)
    id: int | None = Field(default=None, primary_key=True)
    game_id: int = Field(foreign_key="games.id", index=True)
    position: int
    name: str
    email: str
    secret: str  # a per-player token, for authenticating mailed orders
    timezone: str | None = None  # the player's own zone (IANA name): deadlines are shown in it too


class OrderVersion(Table, table=True):
    """One move of any game, as it arrived (pbem.store.moves). A campaign's: one submission of orders; the latest
    one per player and turn counts (B4.7). A death match's: one action, accepted or refused with the reason, in
    arrival order (`version`, turn 0); the position is rebuilt by replaying the accepted ones."""

    __tablename__ = "order_versions"
    __table_args__ = (UniqueConstraint("game_id", "turn", "player_id", "version"),)
    id: int | None = Field(default=None, primary_key=True)
    game_id: int = Field(foreign_key="games.id", index=True)
    turn: int
    player_id: int | None = Field(default=None, foreign_key="players.id")  # None: no seat acted (see `actor`)
    version: int
    source: str
    text: str = Field(sa_column=Column(Text, nullable=False))
    submission: str = Field(sa_column=Column(Text, nullable=False))  # the normalised submission (canonical JSON)
    submitted_at: datetime | None  # None: a death match's action taken over from a transcript without a time
    accepted: bool = Field(default=True, sa_column_kwargs={"server_default": true()})  # as migration 0011 adds it
    reason: str | None = Field(default=None, sa_column=Column(Text, nullable=True))  # why it was refused
    mail: str | None = None  # the key of the message that carried it (store.mail.MailReceived.key)
    actor: str | None = None  # who acted when no seat did: the GM, the clock, or a name that plays no seat


# The tables of a campaign's turns live in turn_tables.py, defined only by a command that uses one; their names are
# still read from here. Defining them cost every command on the store, `pbem dm new` too, which uses none (#34).
TURN_TABLES = ("Robot", "Turn", "DealtHand", "SnapshotKind", "StateSnapshot", "EventRecord")


def __getattr__(name: str) -> Any:
    if name in TURN_TABLES:
        from . import turn_tables

        return getattr(turn_tables, name)
    raise AttributeError(f"module {__name__!r} has no attribute {name!r}")
