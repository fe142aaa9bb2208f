"""A played campaign read back with plain SQL: its game row, its processed turns, the players and the GM's
controls, and each turn as the engine played it. What the GM hands render to draw the site and the reports.

The rows are read through `pbem.store.due.Rows`: the standard library's sqlite3 for a SQLite file (no SQLAlchemy,
whose import alone costs `pbem site` more than drawing a new turn), libpq for PostgreSQL, or an open store
session's transaction (`session_rows`). Nothing is played again: the state before, and the outcome (the state
after, the events in order, each board at the start of every stage and as the turn left it, and B4.6's
missed-orders decisions) are the rows the turn cycle stored. A turn stored before the outcome recorded its
missed-orders decisions (revision 0010) has none here (`missed` is None): the GM asks the engine for them
(`pbem.gm.history.played_turn`).
"""
from __future__ import annotations

import json
from datetime import datetime
from typing import Any, NamedTuple

from ..engine.campaign import GameState, TurnOutcome
from ..engine.cards import Card
from ..engine.events import EVENT_TYPES, Event
from ..engine.state import Board
from ..engine.turn import Snapshot
from ..formats.canonical import from_data
from ..formats.controls import Control, ControlEntry
from .due import Rows, _utc
from .refusal import Refused
from .states import StoredGame, read_state


class GameRow(NamedTuple):
    id: int
    name: str
    ruleset: str
    setup: str


class TurnRow(NamedTuple):
    """What names a processed turn (its states', events' and orders' digests) and when it was processed."""

    number: int
    before_hash: str
    after_hash: str
    events_hash: str
    orders: str  # JSON: player -> the order version used, or null
    processed_at: datetime


class StoredTurn(NamedTuple):
    before: GameState
    outcome: TurnOutcome  # its `missed` left empty when `missed` is None
    missed: dict[str, dict[str, list[Card]]] | None  # None: stored before revision 0010
    orders: Any  # the orders the turn played, as stored (JSON data)
    players: list[str]  # every player's name, in the game's order


def game_row(rows: Rows, name: str) -> GameRow:
    found = rows("SELECT id, name, ruleset, setup FROM games WHERE name = :name", name=name)
    if not found:
        known = [known for known, in rows("SELECT name FROM games ORDER BY name")]
        raise Refused([f"no game named {name}" + (f" (games: {', '.join(known)})" if known else " (no games yet)")])
    return GameRow(*found[0])


def turn_rows(rows: Rows, game: StoredGame) -> list[TurnRow]:
    """The game's processed turns, in order."""
    return [TurnRow(number, before, after, events, orders, _utc(at)) for number, before, after, events, orders, at in
            rows("SELECT number, before_hash, after_hash, events_hash, orders, processed_at FROM turns "
                 "WHERE game_id = :game ORDER BY number", game=game.id)]


def player_names(rows: Rows, game: StoredGame) -> list[str]:
    """Every player's name, in the game's order."""
    return [name for name, in rows("SELECT name FROM players WHERE game_id = :game ORDER BY position", game=game.id)]


def controls(rows: Rows, game: StoredGame, *kinds: Control) -> list[ControlEntry]:
    """The game's controls of these kinds, in the order they were made (as `pbem.store.controls.history`)."""
    wanted = {str(kind) for kind in kinds}
    return [ControlEntry(_utc(at), Control(kind), player, json.loads(data)) for kind, at, player, data in
            rows("SELECT kind, at, player, data FROM gm_events WHERE game_id = :game ORDER BY id", game=game.id)
            if kind in wanted]


def stored_state(rows: Rows, game: StoredGame, number: int, kind: str) -> GameState:
    """The game's state `kind` ("before"/"after") turn `number`, which the store must hold."""
    found = rows("SELECT state FROM state_snapshots WHERE game_id = :game AND turn = :number AND kind = :kind "
                 "AND board = '' AND stage = 0", game=game.id, number=number, kind=kind)
    if not found:
        raise Refused([f"the state {kind} turn {number} of {game.name} is missing from the store"])
    return read_state(game, found[0][0])


def stored_turn(rows: Rows, game: StoredGame, number: int) -> StoredTurn:
    found = rows("SELECT orders, missed FROM turns WHERE game_id = :game AND number = :number", game=game.id,
                 number=number)
    if not found:
        raise Refused([f"turn {number} of {game.name} has not been processed"])
    orders, missed_text = found[0]
    missed = (from_data(dict[str, dict[str, list[Card]]], json.loads(missed_text)) if missed_text is not None
              else None)
    outcome = TurnOutcome(stored_state(rows, game, number, "after"), turn_events(rows, game, number),
                          stage_snapshots(rows, game, number), final_boards(rows, game, number), missed or {})
    return StoredTurn(stored_state(rows, game, number, "before"), outcome, missed, json.loads(orders),
                      player_names(rows, game))


def turn_events(rows: Rows, game: StoredGame, number: int) -> list[tuple[str, Event]]:
    """A processed turn's events as its outcome had them: (board key, event), in the order they happened."""
    return [(board, from_data(EVENT_TYPES[kind], json.loads(data))) for board, kind, data in
            rows("SELECT board, kind, data FROM events WHERE game_id = :game AND turn = :number ORDER BY seq",
                 game=game.id, number=number)]


def stage_snapshots(rows: Rows, game: StoredGame, number: int) -> dict[str, list[Snapshot]]:
    """Each board's snapshots of a processed turn: stages 1…n, then the end of the turn (stage 0)."""
    boards: dict[str, list[tuple[int, Snapshot]]] = {}
    for board, stage, state in _snapshots(rows, game, number, "stage"):
        boards.setdefault(board, []).append((stage or 1 << 30, from_data(Snapshot, json.loads(state))))
    return {board: [snap for _, snap in sorted(items, key=lambda item: item[0])] for board, items in boards.items()}


def final_boards(rows: Rows, game: StoredGame, number: int) -> dict[str, Board]:
    """Each board of a processed turn as the turn left it (a Geek-o room before the next one opens)."""
    return {board: read_state(game, state, Board) for board, _, state in
            sorted(_snapshots(rows, game, number, "final"))}


def _snapshots(rows: Rows, game: StoredGame, number: int, kind: str) -> list[tuple[str, int, str]]:
    """The turn's snapshots of one kind: (board, stage, state)."""
    return [(board, stage, state) for board, stage, state in
            rows("SELECT board, stage, state FROM state_snapshots WHERE game_id = :game AND turn = :number "
                 "AND kind = :kind ORDER BY board, stage", game=game.id, number=number, kind=kind)]


def all_campaigns(rows: Rows, names: list[str]) -> bool:
    """Whether the database's schema is the newest and every name is a campaign's; if not, the store opens the
    database (bringing its schema up to date) and says what a name that is not a campaign's is."""
    from ..games import Kind
    from ..games import names as rulesets
    from .schema import head_revision

    if rows("SELECT version_num FROM alembic_version") != [(head_revision(),)]:
        return False
    found: dict[str, str] = dict(rows("SELECT name, ruleset FROM games"))
    return all(found.get(name, "") in rulesets(Kind.CAMPAIGN) for name in names)
