"""Live death matches in the database: each match's config and every action submitted to it.

Every submission is kept, accepted or refused (with the reason), in arrival
order; the position is always rebuilt by replaying the accepted ones (`pbem.gm.judge`), so the
tables hold history, never derived state. Payloads and configs are canonical
JSON (sorted keys); time stamps are stored in UTC.
"""
from __future__ import annotations

import json
from datetime import datetime, timezone
from typing import Any

from sqlalchemy import Column, DateTime, UniqueConstraint, update
from sqlmodel import Field, Session, SQLModel, col, select

from ..dm.base import Action, Config
from ..formats.dmpuzzles import puzzle_documents, read_puzzles
from ..formats.yamlfile import FormatError
from .tables import key


class DmMatch(SQLModel, table=True):
    __tablename__ = "dm_match"

    id: int | None = Field(default=None, primary_key=True)
    name: str = Field(index=True, unique=True)
    game: str
    config: str  # canonical JSON of the Config


class DmAction(SQLModel, table=True):
    __tablename__ = "dm_action"
    __table_args__ = (UniqueConstraint("match_id", "seq"),)

    id: int | None = Field(default=None, primary_key=True)
    match_id: int = Field(foreign_key="dm_match.id", index=True)
    seq: int  # arrival order within the match, from 1
    player: str
    at: datetime | None = Field(default=None, sa_column=Column(DateTime(timezone=True), nullable=True))
    payload: str  # canonical JSON
    accepted: bool
    reason: str | None = None


def canonical(document: Any) -> str:
    """Sorted JSON; a time stamp (an option like `start`) is written in ISO 8601."""
    return json.dumps(document, sort_keys=True, ensure_ascii=False, separators=(",", ":"),
                      default=lambda value: value.isoformat() if isinstance(value, datetime) else str(value))


def config_document(config: Config) -> dict[str, Any]:
    return {"game": config.game, "players": list(config.players), "variant": config.variant,
            "options": dict(config.options), "seed": config.seed, "puzzles": puzzle_documents(config.game, config.puzzles)}


def create_match(session: Session, name: str, config: Config) -> DmMatch:
    match = DmMatch(name=name, game=config.game, config=canonical(config_document(config)))
    session.add(match)
    session.flush()
    return match


def all_matches(session: Session) -> list[DmMatch]:
    return list(session.exec(select(DmMatch).order_by(DmMatch.name)).all())


def find_match(session: Session, name: str) -> DmMatch | None:
    return session.exec(select(DmMatch).where(DmMatch.name == name)).first()


def config_of(match: DmMatch) -> Config:
    document = json.loads(match.config)
    puzzles, problems = read_puzzles(document["game"], document["puzzles"])
    if problems:
        raise FormatError(problems)
    return Config(document["game"], tuple(document["players"]), document["variant"], document["options"],
                  document["seed"], puzzles)


def record_action(session: Session, match: DmMatch, action: Action, reason: str | None) -> DmAction:
    """Keep a submission: accepted when `reason` is None, else refused with it."""
    count = len(session.exec(select(DmAction.id).where(DmAction.match_id == match.id)).all())
    at = action.at.astimezone(timezone.utc) if action.at else None
    row = DmAction(match_id=key(match), seq=count + 1, player=action.player, at=at,
                   payload=canonical(dict(action.payload)), accepted=reason is None, reason=reason)
    session.add(row)
    session.flush()
    return row


def submissions(session: Session, match: DmMatch) -> list[DmAction]:
    """Every submission to the match, in arrival order."""
    return list(session.exec(select(DmAction).where(DmAction.match_id == match.id).order_by(col(DmAction.seq))).all())


def action_of(row: DmAction) -> Action:
    at = row.at if row.at is None or row.at.tzinfo else row.at.replace(tzinfo=timezone.utc)
    return Action(row.player, json.loads(row.payload), at)


def lock_match(session: Session, match: DmMatch) -> None:
    """Take the match's write lock until this transaction ends (a no-op UPDATE of its row, as the transaction's
    first write): two writers of one match — two `pbem run`, a mail fetch — judge one after the other, each on
    the position the other left, so a deadline is applied once and actions are numbered in arrival order."""
    session.execute(update(DmMatch).where(col(DmMatch.id) == match.id).values(name=DmMatch.name))
    session.expire_all()
