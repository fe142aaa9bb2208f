"""A BotWars game's turns in the database: the hands dealt, what a turn sheet holds (built by
`pbem.gm.sheets`), every order version, the turn's status, a processed turn's rows (snapshots, events, the turn)
and their removal on a rollback.

Repository functions: they read and write rows and never commit; the turn cycle that runs the engine over them is
`pbem.gm.cycle`.
"""
from __future__ import annotations

import hashlib
import json
from dataclasses import dataclass, field
from datetime import datetime
from typing import Any, Sequence

from sqlalchemy import insert
from sqlmodel import Session, col, delete, select

from ..engine.campaign import GameState, TurnOutcome
from ..engine.orders import Checked, Submission
from ..engine.state import Board
from ..formats.canonical import dumps, to_data
from ..formats.orders import OrderFile
from .games import current_state, forget_states, get_game, known, players_of, remember, snapshot, snapshot_row
from .tables import DealtHand, EventRecord, Game, OrderVersion, Player, StateSnapshot, Turn, key

# --- turn sheets -----------------------------------------------------------------------------

@dataclass
class RobotSheet:
    name: str
    mode: str
    hp: int
    at: str | None
    facing: str
    fused: dict[int, str | None]
    receives_cards: bool
    free_registers: int
    no_cards_reason: str = ""  # why it receives no cards (the engine's words), when it receives none
    usable: list[str] = field(default_factory=list)  # the cards of its hand it may program (G7), hand order
    registers: int = 0  # every register, fused ones included (B1)


@dataclass
class TurnSheet:
    """What a player needs to write orders (DESIGN.md "Reports": the turn sheet)."""

    game: str
    turn: int
    player: str
    email: str
    room: str
    robots: list[RobotSheet]
    hands: dict[str, list[str]]  # the shared hand under the player's name, else per robot
    orders: str  # a pre-filled order file
    exact_program: bool = False  # every free register must be filled (BotWars, B4.5), not "up to"
    due: str = ""  # "due Friday 28 November, 20:00 UTC" when the game has a schedule
    board: Board | None = field(default=None, repr=False, compare=False)  # the board the turn starts from
    equal_lengths: bool = False  # every robot's program of one length (Geek-o, B4.5)
    option_hp_max: int = 0  # the highest `option_hp` (B11); 0 where options cannot be given up
    due_at: datetime | None = None  # the deadline (UTC), for the sheet mail's calendar entry
    holder: str = ""  # who plays the seat `player` now, when a newcomer took it over (`pbem game replace`)
    written_at: datetime | None = None  # when the turn was dealt and its clock started: the calendar entry's stamp
    reminders: tuple[int, ...] = ()  # hours before the deadline that the game reminds at (after the deal)


def dealt(session: Session, game: Game, turn: int) -> bool:
    """Whether the turn's hands are recorded (asked once a transaction: five times a due game, #36)."""
    return known(session, (game.id, "dealt", turn), lambda: session.exec(
        select(DealtHand.id).where(DealtHand.game_id == game.id, DealtHand.turn == turn)).first() is not None)


def record_hands(session: Session, game: Game, state: GameState) -> None:
    """The current turn's hands, recorded once (dealt), in one statement."""
    if not dealt(session, game, state.turn):
        session.connection().execute(insert(DealtHand), [
            {"game_id": key(game), "turn": state.turn, "holder": holder,
             "cards": dumps([str(c) for c in state.hands.get(holder, [])])} for holder in sorted(state.hands) or [""]])
        remember(session, (game.id, "dealt", state.turn), True)


# --- orders ---------------------------------------------------------------------------------

def store_version(session: Session, game: Game, player: Player, turn: int, order: OrderFile,
                  checked: Checked, at: datetime) -> int:
    latest = session.exec(select(OrderVersion.version).where(
        OrderVersion.game_id == game.id, OrderVersion.turn == turn, OrderVersion.player_id == player.id)
        .order_by(col(OrderVersion.version).desc())).first()
    version = (latest or 0) + 1
    session.add(OrderVersion(game_id=key(game), turn=turn, player_id=key(player), version=version, source=order.source,
                             text=order.text, submission=_submission_json(checked), submitted_at=at))
    session.flush()
    forget_states(session, game)  # its versions read again
    return version


def _submission_json(checked: Checked) -> str:
    return dumps({"programs": {robot: [str(c) for c in cards] for robot, cards in checked.programs.items()},
                  "reboot": list(checked.reboot), "option_hp": checked.option_hp})


def submission_of(row: OrderVersion) -> Submission:
    """An order version's programs as stored (checked again against the hand by whoever uses them)."""
    data = json.loads(row.submission)
    return Submission(data["programs"], data["reboot"], data["option_hp"])


def turn_versions(session: Session, game: Game, turn: int) -> dict[int | None, list[OrderVersion]]:
    """Every order version of the turn by player id, oldest first, read once a transaction (who is waited for, the
    orders played: a query a player each, #36)."""
    return known(session, (game.id, "versions", turn), lambda: _by_player(session.exec(
        select(OrderVersion).where(OrderVersion.game_id == game.id, OrderVersion.turn == turn)
        .order_by(col(OrderVersion.version))).all()))


def _by_player(rows: Sequence[OrderVersion]) -> dict[int | None, list[OrderVersion]]:
    versions: dict[int | None, list[OrderVersion]] = {}
    for row in rows:
        versions.setdefault(row.player_id, []).append(row)
    return versions


def used_version(session: Session, game: Game, turn: int, player_id: int | None, version: int) -> OrderVersion:
    return session.exec(select(OrderVersion).where(
        OrderVersion.game_id == game.id, OrderVersion.turn == turn, OrderVersion.player_id == player_id,
        OrderVersion.version == version)).one()


# --- status ----------------------------------------------------------------------------------

@dataclass
class PlayerStatus:
    player: str
    email: str
    expected: bool
    versions: int
    latest: int | None
    submitted_at: str | None


@dataclass
class TurnStatus:
    game: str
    turn: int
    dealt: bool
    over: bool
    players: list[PlayerStatus]

    @property
    def waiting_for(self) -> list[str]:
        return [p.player for p in self.players if p.expected and p.latest is None]


def status(session: Session, name: str) -> TurnStatus:
    """Who owes orders for the current turn, and what each sent."""
    game = get_game(session, name)
    state = current_state(session, game)
    rows, sent = [], turn_versions(session, game, state.turn)
    for player in players_of(session, game):
        versions = sent.get(player.id, [])
        latest = versions[-1] if versions else None
        rows.append(PlayerStatus(player.name, player.email, state.owes_orders(player.name), len(versions),
                                 latest.version if latest else None,
                                 latest.submitted_at.isoformat(timespec="seconds") if latest and latest.submitted_at else None))
    return TurnStatus(game.name, state.turn, dealt(session, game, state.turn), state.is_over, rows)


# --- processed turns ------------------------------------------------------------------------

def save_turn(session: Session, game: Game, state: GameState, outcome: TurnOutcome, used: dict[str, int | None],
              before: str, after: str, events_hash: str, at: datetime) -> None:
    """A processed turn's rows (not committed): its states and events each in one executemany, where a model object
    built, validated and flushed one by one per row (dozens to hundreds a turn) was ~5 % of a due game (#36)."""
    number = state.turn
    snapshots = [] if snapshot(session, game, number, "before") else [snapshot_row(game, number, "before", state)]
    snapshots.append(snapshot_row(game, number, "after", outcome.state))
    for board, staged in outcome.stages.items():
        for stage_snapshot in staged:  # stages 1…n, then 0: the board at the end of the turn
            snapshots.append(snapshot_row(game, number, "stage", stage_snapshot, board=board,
                                          stage=stage_snapshot.stage))
    for board, final in outcome.finals.items():  # each board as the turn left it, before any room change
        snapshots.append(snapshot_row(game, number, "final", final, board=board))
    session.connection().execute(insert(StateSnapshot), snapshots)
    events = [{"game_id": key(game), "turn": number, "seq": seq, "board": board, "stage": event.stage,
               "kind": type(event).__name__, "data": dumps(to_data(event))}
              for seq, (board, event) in enumerate(outcome.events)]
    if events:
        session.connection().execute(insert(EventRecord), events)
    session.add(Turn(game_id=key(game), number=number, seed=game.seed, before_hash=before, after_hash=after,
                     events_hash=events_hash, orders=dumps(used), processed_at=at, over=outcome.state.is_over,
                     missed=dumps(to_data(outcome.missed))))
    forget_states(session, game)


def hash_events(entries: list[list[Any]]) -> str:
    """The hash of a turn's events as (board, kind, data) entries: what reports are built from."""
    return hashlib.sha256(dumps(entries).encode("utf-8")).hexdigest()


def outcome_events_hash(outcome: TurnOutcome) -> str:
    return hash_events([[board, type(event).__name__, to_data(event)] for board, event in outcome.events])


def recorded_events_hash(session: Session, game: Game, turn: int) -> str:
    """The hash of the events stored for a turn (the rows reports and the site read)."""
    rows = session.exec(select(EventRecord).where(EventRecord.game_id == game.id, EventRecord.turn == turn)
                        .order_by(col(EventRecord.seq))).all()
    return hash_events([[row.board, row.kind, json.loads(row.data)] for row in rows])


def turn_row(session: Session, game: Game, turn: int) -> Turn | None:
    return session.exec(select(Turn).where(Turn.game_id == game.id, Turn.number == turn)).first()


def delete_turns(session: Session, game: Game, to: int) -> None:
    """Remove turns `to` and later: their rows, snapshots and hands (orders are kept)."""
    for table, turn_column in ((Turn, col(Turn.number)), (EventRecord, col(EventRecord.turn))):
        session.exec(delete(table).where(col(table.game_id) == game.id, turn_column >= to))
    session.exec(delete(StateSnapshot).where(col(StateSnapshot.game_id) == game.id, col(StateSnapshot.turn) >= to,
                                             col(StateSnapshot.kind) != "before"))
    session.exec(delete(StateSnapshot).where(col(StateSnapshot.game_id) == game.id, col(StateSnapshot.turn) > to))
    session.exec(delete(DealtHand).where(col(DealtHand.game_id) == game.id, col(DealtHand.turn) > to))
    forget_states(session, game)
