"""Reports owed: a processed turn whose report folder is not yet known to be complete.

The row is added in the transaction that stores the turn and removed once its folder is written whole, so a
crash, a full disk or a folder deleted while it was written leaves the turn on this list, and the next
`pbem run` writes it again (`pbem report` does too). The files themselves are outside the database: the row
is the database's memory that they are owed.
"""
from __future__ import annotations

from datetime import datetime

from sqlalchemy import Column, Text, UniqueConstraint
from sqlmodel import Field, Session, col, delete, select

from .model import Table


class ReportOwed(Table, table=True):
    __tablename__ = "reports_owed"
    __table_args__ = (UniqueConstraint("game", "turn", "folder"),)
    id: int | None = Field(default=None, primary_key=True)
    game: str = Field(index=True)
    turn: int
    folder: str  # the reports folder as the command was given it (OUT of OUT/GAME/turn-NNN)
    since: datetime
    error: str | None = Field(default=None, sa_column=Column(Text, nullable=True))  # the last attempt's failure


def owe(session: Session, game: str, turn: int, folder: str, at: datetime) -> None:
    """Note (not committed) that the turn's reports are to be written into `folder`."""
    if session.exec(select(ReportOwed.id).where(ReportOwed.game == game, ReportOwed.turn == turn,
                                                ReportOwed.folder == folder)).first() is None:
        session.add(ReportOwed(game=game, turn=turn, folder=folder, since=at))


def owed(session: Session) -> list[ReportOwed]:
    return list(session.exec(select(ReportOwed).order_by(col(ReportOwed.since), col(ReportOwed.id))).all())


def settle(session: Session, game: str, turn: int, folder: str | None = None) -> None:
    """The turn's reports are written (into `folder`, or nowhere is owed any more); not committed."""
    query = delete(ReportOwed).where(col(ReportOwed.game) == game, col(ReportOwed.turn) == turn)
    session.execute(query if folder is None else query.where(col(ReportOwed.folder) == folder))


def failed(session: Session, row: ReportOwed, error: str) -> None:
    row.error = error
    session.add(row)
