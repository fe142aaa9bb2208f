"""The tables of a campaign game's turns (BotWars): its robots, each processed turn, the hands dealt, the states and
boards kept, the events. A processed turn keeps its seed, the states before and after with their hashes, its events
and the board at the start of every stage, so reports and replays need nothing else.

Apart from tables.py (every game's rows) so that a command that uses none of them defines none (#34); their names
are read from tables.py as well.
"""
from __future__ import annotations

from datetime import datetime
from typing import Literal

from sqlalchemy import Column, Text, UniqueConstraint
from sqlmodel import Field

from .model import Table


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
