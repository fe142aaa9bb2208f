"""A processed turn's rows read back as the engine played it: what the GM hands render to draw its report.

Nothing is played again: the state before, and the outcome (the state after, the events in order, each board
at the start of every stage and as the turn left it, and B4.6's missed-orders decisions) are the rows the turn
cycle stored. A turn stored before the outcome recorded its missed-orders decisions (revision 0010) has none
here (`missed` is None): the GM asks the engine for them (`pbem.gm.history.played_turn`).
"""
from __future__ import annotations

import json
from typing import Any, NamedTuple

from sqlmodel import Session, select

from ..engine.campaign import GameState, TurnOutcome
from ..engine.cards import Card
from ..formats.canonical import from_data
from .base import Refused, players_of
from .games import final_boards, stage_snapshots, stored_state, turn_events
from .tables import Game, Turn


class StoredTurn(NamedTuple):
    before: GameState
    outcome: TurnOutcome  # its `missed` left empty when `missed` is None
    missed: dict[str, dict[str, list[Card]]] | None  # None: stored before revision 0010
    orders: Any  # the orders the turn played, as stored (JSON data)
    players: list[str]  # every player's name, in the game's order


def stored_turn(session: Session, game: Game, number: int) -> StoredTurn:
    row = session.exec(select(Turn).where(Turn.game_id == game.id, Turn.number == number)).first()
    if row is None:
        raise Refused([f"turn {number} of {game.name} has not been processed"])
    missed = (from_data(dict[str, dict[str, list[Card]]], json.loads(row.missed)) if row.missed is not None
              else None)
    outcome = TurnOutcome(stored_state(session, game, number, "after"), turn_events(session, game, number),
                          stage_snapshots(session, game, number), final_boards(session, game, number), missed or {})
    return StoredTurn(stored_state(session, game, number, "before"), outcome, missed, json.loads(row.orders),
                      [p.name for p in players_of(session, game)])
