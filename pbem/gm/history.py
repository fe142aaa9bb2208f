"""A game's story for the site and the reports written again: its stored turns handed to render as plain data.

The store reads a processed turn's rows back (`pbem.store.played`), the engine gives what an old turn did not
store (`played_turn`); render draws it (`pbem.render.history.outcome_report`) and never reads the database itself.
"""
from __future__ import annotations

import json
from dataclasses import replace
from functools import partial
from typing import TYPE_CHECKING, NamedTuple

from sqlmodel import Session

from ..dm.campaign import get_campaign
from ..engine.campaign import GameState, TurnOutcome
from ..formats.controls import Control
from ..formats.ending import ended_text
from ..render.ending import ending_lines
from ..render.history import outcome_report
from ..render.turn import TurnReport, recipients
from ..store.controls import ended as gm_ended
from ..store.controls import history
from ..store.games import get_game, players_of, processed_turns, stored_state
from ..store.played import stored_turn
from ..store.tables import Game

if TYPE_CHECKING:
    from ..render.site import GameHistory


class PlayedTurn(NamedTuple):
    """The arguments of `pbem.render.history.outcome_report` after the game's name, in its order."""

    before: GameState
    outcome: TurnOutcome
    players: list[str]  # every player's name, in the game's order


def played_turn(session: Session, game: Game, number: int) -> PlayedTurn:
    """A processed turn as the engine played it; a turn stored before revision 0010 has its missed-orders
    decisions asked of the engine, once (the campaign's `missed_orders`: deterministic, so it gives what the turn
    played)."""
    stored = stored_turn(session, game, number)
    missed = stored.missed if stored.missed is not None \
        else get_campaign(game.ruleset).missed_orders(stored.before, stored.orders)
    return PlayedTurn(stored.before, replace(stored.outcome, missed=missed), stored.players)


def stored_report(session: Session, game: Game, turn: int) -> TurnReport:
    """The report of a processed turn, from what the store kept of it."""
    return outcome_report(game.name, *played_turn(session, game, turn))


def game_history(session: Session, name: str, with_mail: bool = False) -> GameHistory:
    """Every processed turn of the game, each loaded from the store only when the site writes it (while `session`
    is open); `with_mail` adds the players, so each turn gets their emails."""
    from ..render.site import GameHistory, StoredTurn  # the site's renderer (Markdown too): for `pbem site` alone

    game = get_game(session, name)
    done = processed_turns(session, game)
    players = [p.name for p in players_of(session, game)]
    turns: list[TurnReport | StoredTurn] = [
        StoredTurn(t.number, json.dumps([t.before_hash, t.after_hash, t.events_hash, t.orders, players]),
                   partial(stored_report, session, game, t.number), f"{t.processed_at:%Y-%m-%dT%H:%M:%SZ}")
        for t in done]
    state = stored_state(session, game, done[-1].number, "after") if done else None
    rules = get_campaign(game.ruleset)
    over, end = rules.game_result(state) if state else None, gm_ended(session, game)
    ending = ending_lines(over) if over else []
    if end is not None:  # the GM ended it (pbem game end): their words, and the winner they named
        ending = [ended_text(game.name, end.at, end.how, end.winner) + (f": {end.reason}" if end.reason else "")]
    return GameHistory(game.name, turns, rules.standings(state) if state else [],
                       recipients(players_of(session, game)) if with_mail else [], ending,
                       press_shown(session, game) if end is not None or (state is not None and state.is_over) else [],
                       None if end is None else [end.winner] if end.winner else [])


def press_shown(session: Session, game: Game) -> list[dict[str, str | None]]:
    """The players' press as the site shows it once the game is over (an anonymous author stays anonymous)."""
    return [{"at": f"{e.at:%Y-%m-%d %H:%M} UTC", "by": e.player if e.data.get("policy") == "signed" else "a player",
             "to": ", ".join(e.data["to"]), "text": e.data["text"]} for e in history(session, game, Control.PRESS)]
