"""A processed turn read back from its rows as the engine played it: what render takes to draw its report.

Nothing is played again: the state before, and the outcome (the state after, the events in order, each board
at the start of every stage and as the turn left it, and B4.6's missed-orders decisions) are the rows the turn
cycle stored. A turn stored before the outcome recorded its missed-orders decisions (revision 0010) has them
asked of the engine here, once (`campaign.missed_orders`: deterministic, so it gives what the turn played).
"""
from __future__ import annotations

import json
from typing import NamedTuple

from sqlmodel import Session, select

from ..engine.campaign import GameState, TurnOutcome, missed_orders
from ..engine.cards import Card
from ..formats.canonical import from_data
from .base import Refused, players_of
from .games import final_boards, stage_snapshots, stored_state, turn_events
from .tables import Game, Turn


class PlayedTurn(NamedTuple):
    """The arguments of `pbem.render.history.outcome_report` after the game's name, in its order."""

    before: GameState
    outcome: TurnOutcome
    players: list[str]  # every player's name, in the game's order


def played_turn(session: Session, game: Game, number: int) -> PlayedTurn:
    row = session.exec(select(Turn).where(Turn.game_id == game.id, Turn.number == number)).first()
    if row is None:
        raise Refused([f"turn {number} of {game.name} has not been processed"])
    before = stored_state(session, game, number, "before")
    missed = (from_data(dict[str, dict[str, list[Card]]], json.loads(row.missed)) if row.missed is not None
              else missed_orders(before, json.loads(row.orders)))
    outcome = TurnOutcome(stored_state(session, game, number, "after"), turn_events(session, game, number),
                          stage_snapshots(session, game, number), final_boards(session, game, number), missed)
    return PlayedTurn(before, outcome, [p.name for p in players_of(session, game)])
