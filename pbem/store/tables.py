"""The game master's tables (SQLModel). JSON columns hold canonical JSON text (formats.canonical).

Every submission is kept (`order_versions`); a processed turn keeps its seed,
the states before and after with their hashes, its events and the board at the
start of every stage, so reports and replays need nothing else.
"""
from __future__ import annotations

from datetime import datetime
from typing import Literal, Protocol

from sqlalchemy import Column, Text, UniqueConstraint, true
from sqlmodel import Field

from .model import Table


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


class Robot(Table, table=True):
    __tablename__ = "robots"
    __table_args__ = (UniqueConstraint("game_id", "name"),)
    id: int | None = Field(default=None, primary_key=True)
    game_id: int = Field(foreign_key="games.id", index=True)
    player_id: int = Field(foreign_key="players.id")
    position: int
    name: str


class Turn(Table, table=True):
    """A processed turn."""

    __tablename__ = "turns"
    __table_args__ = (UniqueConstraint("game_id", "number"),)
    id: int | None = Field(default=None, primary_key=True)
    game_id: int = Field(foreign_key="games.id", index=True)
    number: int
    seed: str
    before_hash: str
    after_hash: str
    events_hash: str
    orders: str = Field(sa_column=Column(Text, nullable=False))  # player -> order version used, or null
    processed_at: datetime
    over: bool | None = None  # the engine's GameState.is_over after the turn (None: stored before revision 0006)
    # B4.6: the engine's TurnOutcome.missed, player -> robot -> the cards played for it (canonical JSON; None:
    # stored before revision 0010, when pbem.gm.history asks the engine)
    missed: str | None = Field(default=None, sa_column=Column(Text, nullable=True))


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


class DealtHand(Table, table=True):
    __tablename__ = "dealt_hands"
    __table_args__ = (UniqueConstraint("game_id", "turn", "holder"),)
    id: int | None = Field(default=None, primary_key=True)
    game_id: int = Field(foreign_key="games.id", index=True)
    turn: int
    holder: str  # the player (shared hand) or the robot
    cards: str = Field(sa_column=Column(Text, nullable=False))  # JSON list of KIND#NUMBER


# The words of StateSnapshot.kind. Only the code writes them (never a file or a player), so they are checked where the
# code is: by mypy, at every call that names one.
SnapshotKind = Literal["before", "after", "stage", "final"]


class StateSnapshot(Table, table=True):
    """The game state before a turn (`before`) or after it (`after`), a board at a stage's start or at the end of
    the turn (`stage`), or a board as the turn left it (`final`)."""

    __tablename__ = "state_snapshots"
    __table_args__ = (UniqueConstraint("game_id", "turn", "kind", "board", "stage"),)
    id: int | None = Field(default=None, primary_key=True)
    game_id: int = Field(foreign_key="games.id", index=True)
    turn: int
    kind: str
    board: str = ""
    stage: int = 0
    state: str = Field(sa_column=Column(Text, nullable=False))
    hash: str


class EventRecord(Table, table=True):
    __tablename__ = "events"
    __table_args__ = (UniqueConstraint("game_id", "turn", "seq"),)
    id: int | None = Field(default=None, primary_key=True)
    game_id: int = Field(foreign_key="games.id", index=True)
    turn: int
    seq: int
    board: str
    stage: int
    kind: str
    data: str = Field(sa_column=Column(Text, nullable=False))
