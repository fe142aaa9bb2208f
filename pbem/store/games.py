"""Repository: games, players, states and their snapshots, as the turn cycle needs them."""
from __future__ import annotations

import hashlib
import json
import secrets
from datetime import datetime
from typing import Any, Callable, TypeVar, cast

from sqlalchemy import inspect
from sqlmodel import Session, col, delete, select

from .. import games as registry
from ..engine.campaign import GameSetup, GameState
from ..engine.events import EVENT_TYPES, Event
from ..engine.ruleset import get_ruleset
from ..engine.state import Board
from ..engine.turn import Snapshot
from ..formats.canonical import dumps, from_data, to_data
from ..formats.game import GameDescription, PlayerEntry, SourceFile
from ..formats.names import NAME_RULE, address_problem, valid_name
from .base import GAMES, PLAYERS, read_in_transaction
from .base import Refused as Refused  # these re-exported: the cycle, archive and CLI import them from here
from .base import Store as Store
from .base import list_games as list_games
from .base import lock_game as lock_game
from .base import players_of as players_of
from .states import load_setup as load_setup
from .states import read_state as read_state
from .tables import (
    DealtHand,
    EventRecord,
    Game,
    OrderVersion,
    Player,
    Robot,
    SnapshotKind,
    StateSnapshot,
    Turn,
    key,
)

T = TypeVar("T")

# --- games -------------------------------------------------------------------------------------

def setup_document(description: GameDescription) -> str:
    """What `games.setup` keeps: the description with its room and deck files as text."""
    return dumps({
        "name": description.name, "ruleset": description.ruleset, "seed": description.seed,
        "ruleset_options": to_data(description.ruleset_options),
        "rooms": [{"source": r.source, "text": r.text} for r in description.rooms],
        "deck": {"source": description.deck.source, "text": description.deck.text},
        "players": [{"name": p.name, "robots": list(p.robots)} for p in description.players],
    })


def description_of(session: Session, game: Game) -> GameDescription:
    """The game's description again (for export)."""
    data = json.loads(game.setup)
    robots = {p["name"]: p["robots"] for p in data["players"]}
    return GameDescription(game.name, game.ruleset, game.seed, [SourceFile(r["source"], r["text"]) for r in data["rooms"]],
                           SourceFile(data["deck"]["source"], data["deck"]["text"]),
                           [PlayerEntry(p.name, p.email, list(robots[p.name]), p.secret, p.timezone)
                            for p in players_of(session, game)],
                           dict(data.get("ruleset_options") or {}))


def checked_setup(session: Session, description: GameDescription) -> GameSetup:
    """The setup of a game not yet stored, its roster checked; Refused when the name is taken or the roster is
    wrong (the GM then builds the state before turn 1 from it: `pbem.gm.setup.create_game`)."""
    if session.exec(select(Game).where(Game.name == description.name)).first():
        raise Refused([f"a game named {description.name} already exists"])
    setup = load_setup(setup_document(description))
    _check_roster(setup, description.players)
    return setup


def create_game(session: Session, description: GameDescription, state: GameState, at: datetime) -> Game:
    """A new game with its players and robots, and `state`, the state before turn 1 built from its
    `checked_setup`."""
    game = Game(name=description.name, ruleset=description.ruleset, seed=description.seed,
                setup=setup_document(description), created_at=description.created_at or at)
    session.add(game)
    session.flush()
    for position, entry in enumerate(description.players):
        player = Player(game_id=key(game), position=position, name=entry.name, email=entry.email,
                        secret=entry.secret or secrets.token_hex(8), timezone=entry.timezone)
        session.add(player)
        session.flush()
        for index, robot in enumerate(entry.robots):
            session.add(Robot(game_id=key(game), player_id=key(player), position=index, name=robot))
    save_snapshot(session, game, 1, "before", state)
    return game


def delete_game(session: Session, game: Game) -> None:
    """Remove a game and everything stored for it (an import that was refused half-way)."""
    for table in (EventRecord, StateSnapshot, DealtHand, OrderVersion, Turn, Robot, Player):
        session.exec(delete(table).where(col(table.game_id) == game.id))
    session.delete(game)
    read_in_transaction(session, PLAYERS).pop(game.id, None)  # a game made after it may be given its id
    forget_states(session, game)


def _check_roster(setup: GameSetup, entries: list[PlayerEntry]) -> None:
    try:
        rules = setup.rules()
    except ValueError as err:  # a ruleset option the ruleset does not know, or of the wrong kind
        raise Refused([str(err)]) from None
    names = [robot for p in setup.players for robot in p.robots]
    problems = [f"{kind} name {name!r}: use {NAME_RULE}"
                for kind, name in [("game", setup.name), *(("player", p.name) for p in setup.players),
                                   *(("robot", n) for n in names)] if not valid_name(name)]
    problems += [f"player {p.name}: {address_problem(p.email)}" for p in entries if address_problem(p.email)]
    players = [p.name for p in setup.players]
    problems += [f"player {name} is listed twice" for name in sorted({n for n in players if players.count(n) > 1})]
    for duplicate in sorted({n for n in names if names.count(n) > 1}):
        problems.append(f"robot name {duplicate} is used twice")
    for player in setup.players:
        if len(player.robots) != rules.robots_per_player:
            problems.append(f"player {player.name} has {len(player.robots)} robots; "
                            f"{setup.ruleset} gives each player {rules.robots_per_player}")
    if rules.shared_hand and len(setup.rooms) != rules.rooms:
        problems.append(f"a {setup.ruleset} game plays {rules.rooms} rooms, {len(setup.rooms)} given")
    if not rules.shared_hand and len(setup.rooms) != 1:
        problems.append(f"a {setup.ruleset} game is played on one board, {len(setup.rooms)} given")
    starts = len(setup.rooms[0].starts) if setup.rooms else 0
    needed = rules.robots_per_player if rules.shared_hand else len(names)
    if setup.rooms and starts < needed:
        problems.append(f"{setup.rooms[0].name} has {starts} start squares for {needed} robots")
    if problems:
        raise Refused(problems)


def get_game(session: Session, name: str) -> Game:
    """The game by its name, read once a transaction (a due game asked six times, #36)."""
    held: Game | None = read_in_transaction(session, GAMES).get(name)
    if held is not None and held not in session.deleted and not inspect(held).was_deleted:
        return held
    game = session.exec(select(Game).where(Game.name == name)).first()
    if game is not None:
        read_in_transaction(session, GAMES)[name] = game
    else:
        known = session.exec(select(Game.name).order_by(Game.name)).all()
        raise Refused([f"no game named {name}" + (f" (games: {', '.join(known)})" if known else " (no games yet)")])
    return game


def order_versions(session: Session, game: Game) -> dict[tuple[int, str, int], OrderVersion]:
    """Every submission to the game, keyed by (turn, player's name, version)."""
    players = {p.id: p.name for p in players_of(session, game)}
    return {(v.turn, players[v.player_id], v.version): v
            for v in session.exec(select(OrderVersion).where(OrderVersion.game_id == game.id)).all()}


def processed_turns(session: Session, game: Game) -> list[Turn]:
    return list(session.exec(select(Turn).where(Turn.game_id == game.id).order_by(col(Turn.number))).all())


def turn_processed(session: Session, game: Game, number: int) -> bool:
    return session.exec(select(Turn.id).where(Turn.game_id == game.id, Turn.number == number)).first() is not None


# --- states ------------------------------------------------------------------------------------

def save_snapshot(session: Session, game: Game, turn: int, kind: SnapshotKind, value: object, *, board: str = "",
                  stage: int = 0) -> str:
    row = snapshot_row(game, turn, kind, value, board=board, stage=stage)
    session.add(StateSnapshot(**row))
    forget_states(session, game)
    return str(row["hash"])


def snapshot_row(game: Game, turn: int, kind: SnapshotKind, value: object, *, board: str = "",
                 stage: int = 0) -> dict[str, Any]:
    """A state snapshot's row (its columns by name), for `save_snapshot` or a turn's rows inserted at once."""
    text = dumps(to_data(value))
    return {"game_id": key(game), "turn": turn, "kind": kind, "board": board, "stage": stage, "state": text,
            "hash": hashlib.sha256(text.encode("utf-8")).hexdigest()}


def final_boards(session: Session, game: Game, turn: int) -> dict[str, Board]:
    """Each board of a processed turn as the turn left it (a Geek-o room before the next one opens)."""
    rows = session.exec(select(StateSnapshot).where(StateSnapshot.game_id == game.id, StateSnapshot.turn == turn,
                                                    StateSnapshot.kind == "final")).all()
    return {row.board: read_state(game, row.state, Board) for row in sorted(rows, key=lambda r: r.board)}


def stage_snapshots(session: Session, game: Game, turn: int) -> dict[str, list[Snapshot]]:
    """Each board's snapshots of a processed turn: stages 1…n, then the end of the turn."""
    rows = session.exec(select(StateSnapshot).where(
        StateSnapshot.game_id == game.id, StateSnapshot.turn == turn, StateSnapshot.kind == "stage")).all()
    boards: dict[str, list[tuple[int, Snapshot]]] = {}
    for row in rows:
        order = row.stage if row.stage else 1 << 30  # stage 0, the end of the turn, comes last
        boards.setdefault(row.board, []).append((order, from_data(Snapshot, json.loads(row.state))))
    return {board: [snap for _, snap in sorted(items, key=lambda item: item[0])] for board, items in boards.items()}


def turn_events(session: Session, game: Game, turn: int) -> list[tuple[str, Event]]:
    """A processed turn's events as its outcome had them: (board key, event), in the order they happened."""
    rows = session.exec(select(EventRecord).where(EventRecord.game_id == game.id, EventRecord.turn == turn)
                        .order_by(col(EventRecord.seq))).all()
    return [(row.board, from_data(EVENT_TYPES[row.kind], json.loads(row.data))) for row in rows]


def snapshot(session: Session, game: Game, turn: int, kind: SnapshotKind) -> StateSnapshot | None:
    return session.exec(select(StateSnapshot).where(
        StateSnapshot.game_id == game.id, StateSnapshot.turn == turn, StateSnapshot.kind == kind,
        StateSnapshot.board == "", StateSnapshot.stage == 0)).first()


def set_missing_orders(session: Session, name: str, policy: str) -> None:
    """Choose the game's B4.6 policy. Past turns replay with the policy they were played under, so it can be
    changed only before the first turn is processed (not committed)."""
    game = get_game(session, name)
    lock_game(session, name)
    processed = session.exec(select(Turn.number).where(Turn.game_id == game.id)).first()
    if processed is not None:
        raise Refused([f"{name} has processed turns: the missed-orders policy (RULES B4.6) is part of how they "
                       "replay, so it is chosen before turn 1 is processed (pbem game new --missing-orders)"])
    data = json.loads(game.setup)
    options = {**(data.get("ruleset_options") or {}), "missing_orders": policy}
    try:
        get_ruleset(game.ruleset, options)
    except ValueError as err:
        raise Refused([f"--missing-orders: {err}"]) from None
    game.setup = dumps({**data, "ruleset_options": options})
    session.add(game)
    forget_states(session, game)


def current_state(session: Session, game: Game) -> GameState:
    """The state before the next turn: after the last processed turn, else before turn 1. A death match has no
    turns: refused, naming the commands that play it (a campaign command given a match's name)."""
    if game.ruleset in registry.names(registry.Kind.MATCH):
        raise Refused([f"{game.name} is a death match ({game.ruleset}), not a campaign: pbem dm show {game.name}, "
                       f"pbem game show {game.name}"])
    last = known(session, (game.id, "last"), lambda: session.exec(
        select(Turn.number).where(Turn.game_id == game.id).order_by(col(Turn.number).desc())).first() or 0)
    return stored_state(session, game, last, "after") if last else first_state(session, game)


def first_state(session: Session, game: Game) -> GameState:
    return stored_state(session, game, 1, "before")


def stored_state(session: Session, game: Game, turn: int, kind: SnapshotKind) -> GameState:
    """The game's state `kind` ("before"/"after") turn `turn`, which the store must hold. Read and decoded once a
    transaction however many readers ask (a due game's step, who is waited for, the turn played, the next dealt,
    the end told: #36); `forget_states` where the game's snapshots, turns or setup change."""
    return known(session, (game.id, turn, kind), lambda: _decoded(session, game, turn, kind))


def _decoded(session: Session, game: Game, turn: int, kind: SnapshotKind) -> GameState:
    row = snapshot(session, game, turn, kind)
    if row is None:
        raise Refused([f"the state {kind} turn {turn} of {game.name} is missing from the store"])
    return read_state(game, row.state)


def known(session: Session, key: tuple[Any, ...], read: Callable[[], T]) -> T:
    """What `read` gives for `key`, asked once a transaction (a new one reads again: another run may have played)."""
    value = read_in_transaction(session, STATES).get(key)
    if value is None:
        value = read()
        read_in_transaction(session, STATES)[key] = value  # in the transaction the read began
    return cast(T, value)


def remember(session: Session, key: tuple[Any, ...], value: object) -> None:
    """What `known` answers for `key` from now on in this transaction (a row just written)."""
    read_in_transaction(session, STATES)[key] = value


def forget_states(session: Session, game: Game) -> None:
    """The game's states, last turn and hands dealt read again: its turns, snapshots, hands or setup changed in this
    transaction."""
    held = read_in_transaction(session, STATES)
    for read in [read for read in held if read[0] == game.id]:
        del held[read]


STATES = "pbem.store.games.states"
