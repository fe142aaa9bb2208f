"""Each game in a line, as `pbem game list` shows it, read from rows alone where they say enough.

Whether a game is over is the engine's answer (`GameState.is_over`); processing a turn stores it with the turn
(`turns.over`), so listing a game with turns reads that and the turn its latest state waits for, instead of
loading the state with its rooms (~13 ms a game, and the engine's modules, ~60 ms, for the whole command). A game
with no turn yet, or whose last turn was stored before that column existed, is asked of the engine as before.
"""
from __future__ import annotations

import json
from dataclasses import dataclass

from sqlmodel import Session, col, select

from .base import list_games, players_of
from .tables import Game, StateSnapshot, Turn


@dataclass(frozen=True)
class GameSummary:
    game: str
    ruleset: str
    turn: int  # the turn the game waits for
    over: bool
    players: list[str]


def game_summaries(session: Session) -> list[GameSummary]:
    return [_summary(session, game) for game in list_games(session)]


def _summary(session: Session, game: Game) -> GameSummary:
    last = session.exec(select(Turn).where(Turn.game_id == game.id).order_by(col(Turn.number).desc())).first()
    if last is not None and last.over is not None:
        state = session.exec(select(StateSnapshot.state).where(
            StateSnapshot.game_id == game.id, StateSnapshot.turn == last.number,
            StateSnapshot.kind == "after")).one()
        turn, over = json.loads(state)["turn"], last.over
    else:
        from .games import current_state

        current = current_state(session, game)
        turn, over = current.turn, current.is_over
    return GameSummary(game.name, game.ruleset, turn, over, [p.name for p in players_of(session, game)])
