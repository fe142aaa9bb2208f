"""A death match in the games' tables: its game row (the config as its setup), its seats (players) and its moves.

A match is a `Game` whose `ruleset` is a death match of the registry (`pbem/games.py`); its seats are `Player`
rows in the config's turn order (an address and a secret once the player plays by mail, else empty); its
actions are moves (`OrderVersion`, turn 0), every one kept, accepted or refused with the reason, numbered in
arrival order, each with the message that carried it. The tables hold history, never derived state: the
position is the accepted moves replayed (`pbem.gm.moves`). Payloads and configs are canonical JSON.
"""
from __future__ import annotations

import json
from datetime import timezone

from sqlmodel import Session, col, select

from .. import games as registry
from ..dm.base import Action, Config
from ..formats.dmpuzzles import read_puzzles
from ..formats.yamlfile import FormatError
from .base import players_of
from .newmatch import MOVE_TURN, canonical
from .tables import Game, OrderVersion, Player, key


def is_match(game: Game) -> bool:
    """Whether the game is a death match: any game but a campaign (told without reading the installed games)."""
    return game.ruleset not in registry.names(registry.Kind.CAMPAIGN)


def all_matches(session: Session) -> list[Game]:
    return list(session.exec(select(Game).where(col(Game.ruleset).not_in(registry.names(registry.Kind.CAMPAIGN))).order_by(Game.name)).all())


def find_match(session: Session, name: str) -> Game | None:
    return session.exec(select(Game).where(Game.name == name, col(Game.ruleset).not_in(registry.names(registry.Kind.CAMPAIGN)))).first()


def config_of(match: Game) -> Config:
    document = json.loads(match.setup)
    puzzles, problems = read_puzzles(document["game"], document["puzzles"])
    if problems:
        raise FormatError(problems)
    return Config(document["game"], tuple(document["players"]), document["variant"], document["options"],
                  document["seed"], puzzles)


def seat(session: Session, match: Game, player: str) -> Player | None:
    return session.exec(select(Player).where(Player.game_id == match.id, Player.name == player)).first()


def by_mail(session: Session, match: Game) -> list[Player]:
    """The seats played by mail (an address on file), by name."""
    return sorted((p for p in players_of(session, match) if p.email), key=lambda p: p.name)


def record_move(session: Session, match: Game, action: Action, reason: str | None, *, source: str,
                mail: str | None = None) -> OrderVersion:
    """Keep a submission: accepted when `reason` is None, else refused with it; `mail` is the key of the message
    that carried it. `source`: how it came (mail, command, clock, transcript)."""
    count = len(session.exec(select(OrderVersion.id).where(OrderVersion.game_id == match.id)).all())
    player = seat(session, match, action.player)
    payload = canonical(dict(action.payload))
    row = OrderVersion(game_id=key(match), turn=MOVE_TURN, player_id=player.id if player else None, version=count + 1,
                       source=source, text=payload, submission=payload,
                       submitted_at=action.at.astimezone(timezone.utc) if action.at else None,
                       accepted=reason is None, reason=reason, mail=mail,
                       actor=None if player else action.player)
    session.add(row)
    session.flush()
    return row


def moves(session: Session, match: Game) -> list[OrderVersion]:
    """Every submission to the match, in arrival order."""
    return list(session.exec(select(OrderVersion).where(OrderVersion.game_id == match.id)
                             .order_by(col(OrderVersion.version))).all())


def action_of(row: OrderVersion, seats: dict[int | None, str]) -> Action:
    """The action a move records; `seats` names each seat by its id (`seat_names`)."""
    at = row.submitted_at
    at = at if at is None or at.tzinfo else at.replace(tzinfo=timezone.utc)
    return Action(seats[row.player_id] if row.player_id is not None else row.actor or "", json.loads(row.submission), at)


def seat_names(session: Session, match: Game) -> dict[int | None, str]:
    return {p.id: p.name for p in players_of(session, match)}
