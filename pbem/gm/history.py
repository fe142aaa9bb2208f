"""A game's story for the site and the reports written again: its stored turns handed to render as plain data.

The store reads a processed turn's rows back with plain SQL (`pbem.store.played`: sqlite3 for a SQLite file, so
`pbem site` with nothing new or one more turn imports no SQLAlchemy), the engine gives what an old turn did not
store (`played_turn`); render draws it (`pbem.render.history.outcome_report`) and never reads the database itself.
"""
from __future__ import annotations

import hashlib
import json
from dataclasses import replace
from functools import partial
from typing import TYPE_CHECKING, NamedTuple, Sequence

from ..dm.campaign import get_campaign
from ..engine.campaign import GameState, TurnOutcome
from ..formats.controls import Control, ControlEntry
from ..formats.ending import Ending, ended_text
from ..render.ending import ending_lines
from ..render.history import outcome_report
from ..render.turn import Recipient, TurnReport
from ..store.due import Rows
from ..store.played import TurnRow, controls, game_row, player_names, stored_state, stored_turn, turn_rows
from ..store.states import StoredGame

if TYPE_CHECKING:
    from sqlmodel import Session

    from ..render.site import GameHistory, Summary
    from ..store.tables import Game


class PlayedTurn(NamedTuple):
    """The arguments of `pbem.render.history.outcome_report` after the game's name, in its order."""

    before: GameState
    outcome: TurnOutcome
    players: list[str]  # every player's name, in the game's order


def played_turn(rows: Rows, game: StoredGame, number: int) -> PlayedTurn:
    """A processed turn as the engine played it; a turn stored before revision 0010 has its missed-orders
    decisions asked of the engine, once (the campaign's `missed_orders`: deterministic, so it gives what the turn
    played)."""
    stored = stored_turn(rows, game, number)
    missed = stored.missed if stored.missed is not None \
        else get_campaign(game.ruleset).missed_orders(stored.before, stored.orders)
    return PlayedTurn(stored.before, replace(stored.outcome, missed=missed), stored.players)


def stored_report(session: Session, game: Game, turn: int) -> TurnReport:
    """The report of a processed turn, from what the store kept of it (read in `session`'s transaction)."""
    from ..store.due import session_rows

    return report_of(session_rows(session), game, turn)


def report_of(rows: Rows, game: StoredGame, turn: int) -> TurnReport:
    return outcome_report(game.name, *played_turn(rows, game, turn))


def game_history(rows: Rows, name: str, readers: Sequence[Recipient] = ()) -> GameHistory:
    """Every processed turn of the game, each loaded from the store only when the site writes it (while `rows`
    can read); `readers` (the players at their addresses), when given, get each turn's emails. The summary (the
    standings, from the state after the last turn, and the ending and press) is read only when the site shows it:
    its key names the last turn and the GM's END and PRESS controls."""
    from ..render.site import GameHistory, StoredTurn  # the site's renderer (Markdown too): for `pbem site` alone

    game = game_row(rows, name)
    done = turn_rows(rows, game)
    players = json.dumps(player_names(rows, game))
    turns: list[TurnReport | StoredTurn] = [
        StoredTurn(t.number, _turn_key(t, players), partial(report_of, rows, game, t.number),
                   f"{t.processed_at:%Y-%m-%dT%H:%M:%SZ}")
        for t in done]
    told = controls(rows, game, Control.END, Control.PRESS)
    key = json.dumps([game.ruleset, done[-1].after_hash if done else "",
                      [[f"{e.at:%Y-%m-%dT%H:%M:%S.%f}", e.kind, e.player, e.data] for e in told]], sort_keys=True)
    return GameHistory(game.name, turns, partial(summary, rows, game, done[-1].number if done else None, told),
                       list(readers), key)


def _turn_key(turn: TurnRow, players: str) -> str:
    """What a turn's report is made of: its states', events' and orders' digests and the players (as JSON), as one
    digest (the site's manifest keeps one a turn; the orders as JSON in JSON took ~6 ms at 1,000 turns)."""
    made = f"{turn.before_hash}\n{turn.after_hash}\n{turn.events_hash}\n{players}\n{turn.orders}"
    return hashlib.sha256(made.encode()).hexdigest()


def summary(rows: Rows, game: StoredGame, last: int | None, told: list[ControlEntry]) -> Summary:
    """What the game's index shows beside its turns: the standings after turn `last`, the ending (the rules' or
    the GM's, from the END control in `told`) and, once over, the press (the PRESS controls in `told`)."""
    from ..render.site import Summary

    state = stored_state(rows, game, last, "after") if last is not None else None
    rules = get_campaign(game.ruleset)
    over = rules.game_result(state) if state else None
    end = next((e for e in reversed(told) if e.kind == Control.END), None)  # as pbem.store.controls.ended
    ending = ending_lines(over) if over else []
    if end is not None:  # the GM ended it (pbem game end): their words, and the winner they named
        reason = end.data.get("reason") or ""
        ending = [ended_text(game.name, end.at, Ending(end.data["how"]), end.player) + (f": {reason}" if reason else "")]
    press = [e for e in told if e.kind == Control.PRESS]
    return Summary(rules.standings(state) if state else [], ending,
                   press_shown(press) if end is not None or (state is not None and state.is_over) else [],
                   None if end is None else [end.player] if end.player else [])


def press_shown(press: list[ControlEntry]) -> list[dict[str, str | None]]:
    """The players' press as the site shows it once the game is over (an anonymous author stays anonymous)."""
    return [{"at": f"{e.at:%Y-%m-%d %H:%M} UTC", "by": e.player if e.data.get("policy") == "signed" else "a player",
             "to": ", ".join(e.data["to"]), "text": e.data["text"]} for e in press]
