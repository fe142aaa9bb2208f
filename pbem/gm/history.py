"""A game's story for the site and the reports written again: its stored turns handed to render as plain data.

The store reads a processed turn back as the engine played it (`pbem.store.played`); render draws it
(`pbem.render.history.outcome_report`) and never reads the database itself.
"""
from __future__ import annotations

import json
from functools import partial

from sqlmodel import Session

from ..engine.campaign import result, standings
from ..formats.controls import Control
from ..formats.ending import ended_text
from ..render.ending import ending_lines
from ..render.history import outcome_report
from ..render.site import GameHistory, StoredTurn
from ..render.turn import TurnReport, recipients
from ..store.controls import ended as gm_ended
from ..store.controls import history
from ..store.games import get_game, players_of, processed_turns, stored_state
from ..store.played import played_turn
from ..store.tables import Game


def stored_report(session: Session, game: Game, turn: int) -> TurnReport:
    """The report of a processed turn, from what the store kept of it."""
    return outcome_report(game.name, *played_turn(session, game, turn))


def game_history(session: Session, name: str, with_mail: bool = False) -> GameHistory:
    """Every processed turn of the game, each loaded from the store only when the site writes it (while `session`
    is open); `with_mail` adds the players, so each turn gets their emails."""
    game = get_game(session, name)
    done = processed_turns(session, game)
    players = [p.name for p in players_of(session, game)]
    turns: list[TurnReport | StoredTurn] = [
        StoredTurn(t.number, json.dumps([t.before_hash, t.after_hash, t.events_hash, t.orders, players]),
                   partial(stored_report, session, game, t.number), f"{t.processed_at:%Y-%m-%dT%H:%M:%SZ}")
        for t in done]
    state = stored_state(session, game, done[-1].number, "after") if done else None
    over, end = result(state) if state else None, gm_ended(session, game)
    ending = ending_lines(over) if over else []
    if end is not None:  # the GM ended it (pbem game end): their words, and the winner they named
        ending = [ended_text(game.name, end.at, end.how, end.winner) + (f": {end.reason}" if end.reason else "")]
    return GameHistory(game.name, turns, standings(state) if state else [],
                       recipients(players_of(session, game)) if with_mail else [], ending,
                       press_shown(session, game) if end is not None or (state is not None and state.is_over) else [],
                       None if end is None else [end.winner] if end.winner else [])


def press_shown(session: Session, game: Game) -> list[dict[str, str | None]]:
    """The players' press as the site shows it once the game is over (an anonymous author stays anonymous)."""
    return [{"at": f"{e.at:%Y-%m-%d %H:%M} UTC", "by": e.player if e.data.get("policy") == "signed" else "a player",
             "to": ", ".join(e.data["to"]), "text": e.data["text"]} for e in history(session, game, Control.PRESS)]
