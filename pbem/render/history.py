"""Reports from the store: a processed turn as a `TurnReport`, a whole game as a `GameHistory`.

Everything comes from what the turn cycle stored for the turn (DESIGN.md "Determinism and
history"): the state before and after, the board at the start of every stage and at the end
(per board), each board as the turn left it, and the events in order. A Geek-o player who moved
on to the next room is shown in the room the turn was played in, with the robots as they ended there.
"""
from __future__ import annotations

import json
from functools import partial
from typing import Mapping

from sqlmodel import Session

from ..engine.campaign import missed_orders, result, standings  # also registers the turn cycle's event types
from ..engine.events import Event
from ..engine.state import Board
from ..engine.turn import Snapshot
from ..formats.controls import Control
from ..store.controls import history
from ..store.games import (
    final_boards,
    get_game,
    players_of,
    processed_turns,
    stage_snapshots,
    stored_state,
    turn_events,
)
from ..store.tables import Game
from .ending import done_note, ending_lines
from .site import GameHistory, StoredTurn
from .turn import BoardTurn, Recipient, TurnReport, build_turn_report


def turn_report(game: str, turn: int, before, after, finals: dict[str, Board], stages: dict[str, list[Snapshot]],
                events: dict[str, list[Event]], players: list[str], used: Mapping[str, int | None]) -> TurnReport:
    """A turn's report from the states before and after it, and per board the board as the turn left
    it (`finals`), its snapshots and events; `used`: the order version each player's turn used (None: missing)."""
    boards = []
    for key, board in before.boards.items():
        if key not in stages:
            continue  # nothing was played on it (a Geek-o player who has finished)
        title = f"{key} — {board.room.name}" if before.geeko else board.room.name
        boards.append(BoardTurn(title, board.room, stages[key], events.get(key, []), finals[key],
                                (key,) if before.geeko else tuple(players), after.boards[key]))
    ended = result(after)
    done = {player: done_note(reason) for player in after.players
            if not ended and (reason := after.done_playing(player)) and not before.done_playing(player)}
    return build_turn_report(game, turn, boards, missed_orders(before, used),
                             before.setup.rules().missing_orders, done,
                             ending_lines(ended) if ended and not before.is_over else ())


def outcome_report(game: str, before, outcome, players: list[str], used: Mapping[str, int | None]) -> TurnReport:
    """The report of a turn just played (`pbem.engine.campaign.play_turn`'s outcome), stored or not
    (`turn process --preview`)."""
    events: dict[str, list[Event]] = {}
    for board, event in outcome.events:
        events.setdefault(board, []).append(event)
    return turn_report(game, before.turn, before, outcome.state, outcome.finals, outcome.stages, events, players,
                       used)


def stored_turn_report(session: Session, game: Game, turn: int) -> TurnReport:
    before = stored_state(session, game, turn, "before")
    after = stored_state(session, game, turn, "after")
    record = next(t for t in processed_turns(session, game) if t.number == turn)
    return turn_report(game.name, turn, before, after, final_boards(session, game, turn),
                       stage_snapshots(session, game, turn), turn_events(session, game, turn),
                       [p.name for p in players_of(session, game)], json.loads(record.orders))


def recipients(session: Session, game: Game) -> list[Recipient]:
    return [Recipient(p.name, p.email) for p in players_of(session, game)]


def game_history(session: Session, name: str, with_mail: bool = False) -> GameHistory:
    """Every processed turn of the game, each loaded from the store only when the site writes it (while `session`
    is open); `with_mail` adds the players, so each turn gets their emails."""
    game = get_game(session, name)
    done = processed_turns(session, game)
    players = [p.name for p in players_of(session, game)]
    turns: list[TurnReport | StoredTurn] = [
        StoredTurn(t.number, json.dumps([t.before_hash, t.after_hash, t.events_hash, t.orders, players]),
                   partial(stored_turn_report, session, game, t.number), f"{t.processed_at:%Y-%m-%dT%H:%M:%SZ}")
        for t in done]
    state = stored_state(session, game, done[-1].number, "after") if done else None
    ended = result(state) if state else None
    return GameHistory(game.name, turns, standings(state) if state else [],
                       recipients(session, game) if with_mail else [], ending_lines(ended) if ended else [],
                       press_shown(session, game) if state is not None and state.is_over else [])


def press_shown(session: Session, game: Game) -> list[dict]:
    """The players' press as the site shows it once the game is over (an anonymous author stays anonymous)."""
    return [{"at": f"{e.at:%Y-%m-%d %H:%M} UTC", "by": e.player if e.data.get("policy") == "signed" else "a player",
             "to": ", ".join(e.data["to"]), "text": e.data["text"]} for e in history(session, game, Control.PRESS)]
