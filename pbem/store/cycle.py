"""The GM's turn cycle on the database: deal, submit/check, status, process, rollback, replay.

Each function is one unit of work on a session; `process` stores a whole turn
in one transaction (or nothing, with `preview`), so an interrupted run leaves
the turn unprocessed and running it again gives the uninterrupted result.
"""
from __future__ import annotations

import hashlib
import json
from dataclasses import dataclass, field
from datetime import datetime
from typing import Any

from sqlalchemy.exc import IntegrityError
from sqlmodel import Session, col, delete, select

from ..engine.campaign import GameState, TurnOutcome, check_orders, play_turn
from ..engine.deal import can_use, free_registers
from ..engine.orders import Checked, Submission
from ..engine.state import Board
from ..formats.canonical import dumps, state_hash, to_data
from ..formats.orders import OrderFile, order_template, parse_orders
from ..formats.schedule import due_text
from ..formats.yamlfile import FormatError, Problem
from .games import (
    Refused,
    current_state,
    first_state,
    get_game,
    lock_game,
    order_versions,
    players_of,
    processed_turns,
    save_snapshot,
    snapshot,
    stored_state,
)
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


def dealt(session: Session, game: Game, turn: int) -> bool:
    return session.exec(select(DealtHand.id).where(DealtHand.game_id == game.id, DealtHand.turn == turn)).first() \
        is not None


def deal(session: Session, name: str, *, commit: bool = True) -> tuple[int, list[TurnSheet]]:
    """Record the current turn's hands (once) and return every player's turn sheet (`commit=False`: the caller
    commits, with more work in the same transaction)."""
    game = get_game(session, name)
    state = current_state(session, game)
    if state.is_over:
        raise Refused([f"{name} is over: nothing to deal"])
    if not dealt(session, game, state.turn):
        holders = sorted(state.hands) or [""]
        for holder in holders:
            session.add(DealtHand(game_id=key(game), turn=state.turn, holder=holder,
                                  cards=dumps([str(c) for c in state.hands.get(holder, [])])))
        session.commit() if commit else session.flush()
    return state.turn, turn_sheets(session, game, state)


def turn_sheets(session: Session, game: Game, state: GameState) -> list[TurnSheet]:
    from ..formats.controls import paused_due
    from .controls import paused
    from .schedule import deadline_of, schedule_for  # only here: processing a turn needs no schedule tables

    rules = state.setup.rules()
    deadline, schedule = deadline_of(session, game, state.turn), schedule_for(session, game)
    pause = paused(session, game)
    sheets = []
    for player in players_of(session, game):
        due = due_text(deadline.due_at, schedule.timezone, player.timezone) if deadline and schedule else ""
        due = paused_due(pause.remaining) if pause is not None else due
        if not state.receiving(player.name):
            continue
        programmed = state.needs_program(player.name)
        in_hand = state.hands_of(player.name)
        robots = [RobotSheet(r.name, r.mode, r.hp, str(r.at) if r.at else None, r.facing.name,
                             {n: (str(c) if c else None) for n, c in sorted(r.registers.items())},
                             r.name in programmed, free_registers(r, rules),
                             "" if r.name in programmed else state.no_cards_reason(r.name),
                             [str(c) for c in in_hand.get(player.name if rules.shared_hand else r.name, [])
                              if can_use(r, c, rules)] if r.name in programmed else [], rules.registers)
                  for r in state.robots_of(player.name)]
        hands = {key: [str(c) for c in cards] for key, cards in in_hand.items() if cards}
        template = order_template(game.name, state.turn, player.name, state.players[player.name].robots,
                                  option_hp=rules.options_absorb_damage, secret=player.secret)
        board = state.board_of(player.name)
        sheets.append(TurnSheet(game.name, state.turn, player.name, player.email, board.room.name, robots, hands,
                                template, exact_program=not state.geeko, due=due, board=board,
                                equal_lengths=rules.equal_length_programs,
                                option_hp_max=rules.max_hp if rules.options_absorb_damage else 0,
                                due_at=deadline.due_at if deadline and schedule else None))
    return sheets


# --- submissions -----------------------------------------------------------------------------

@dataclass
class SubmissionResult:
    source: str
    accepted: bool
    player: str | None = None
    turn: int | None = None
    version: int | None = None
    programs: dict[str, list[str]] = field(default_factory=dict)
    reboot: list[str] = field(default_factory=list)
    option_hp: int | None = None
    problems: list[str] = field(default_factory=list)


def submit(session: Session, name: str, files: list[tuple[str, bytes]], *, store: bool,
           at: datetime, commit: bool = True) -> list[SubmissionResult]:
    """Check each order file against the current turn; with `store`, keep every accepted one as a new version,
    stamped `at` (when it was received). Storing first takes the game's lock, and only then reads the turn, so an
    order accepted here is one `process` will use: a turn processed meanwhile refuses it. A turn held for review
    is previewed again (its hold lifted) once new orders are stored. `commit=False`: the caller commits, with
    more work in the same transaction."""
    if store:
        lock_game(session, name)
    game = get_game(session, name)
    state = current_state(session, game)
    players = {p.name: p for p in players_of(session, game)}
    is_dealt = dealt(session, game, state.turn)
    results = []
    for source, data in files:
        try:
            order = parse_orders(data, source)
        except FormatError as err:
            results.append(SubmissionResult(source, False, problems=[str(p) for p in err.problems]))
            continue
        result = SubmissionResult(source, False, order.player, order.turn)
        header = _header_problems(order, game, state, players, is_dealt)
        checkable = order.player in players and state.expects_orders(order.player)
        checked = check_orders(state, order.player, order.submission) if checkable else None
        unedited = order.unedited() if checkable and state.owes_orders(order.player) else None
        if store and order.preview:  # a rehearsal asked for is never kept as orders
            header.append(Problem(source, order.data.line_of("preview"), "preview",
                                  "asks for a rehearsal only, by mail: remove this line to give these orders"))
        problems = order.problems(checked.problems if checked else [], header + ([unedited] if unedited else []))
        result.problems = [str(p) for p in problems]
        if checked is not None and not problems:
            result.accepted = True
            result.programs = {robot: [str(c) for c in cards] for robot, cards in checked.programs.items()}
            result.reboot, result.option_hp = list(checked.reboot), checked.option_hp
            if store:
                result.version = _store_version(session, game, players[order.player], state.turn, order, checked,
                                                at)
        results.append(result)
    if store:
        if any(result.accepted for result in results):
            from .schedule import lift_hold  # only here: checking orders needs no schedule tables

            lift_hold(session, game, state.turn)
        session.commit() if commit else session.flush()
    return results


def _header_problems(order: OrderFile, game: Game, state: GameState, players: dict[str, Player],
                     is_dealt: bool) -> list[Problem]:
    data, source = order.data, order.source
    problems = []
    if order.game != game.name:
        problems.append(Problem(source, data.line_of("game"), "game", f"these orders are for {order.game}, not {game.name}"))
    if order.turn != state.turn:
        problems.append(Problem(source, data.line_of("turn"), "turn",
                                f"the turn now is {state.turn}, not {order.turn}"))
    elif not is_dealt:
        problems.append(Problem(source, data.line_of("turn"), "turn", f"turn {state.turn} has not been dealt yet"))
    if order.player not in players:
        problems.append(Problem(source, data.line_of("player"), "player",
                                f"no player {order.player} in {game.name} ({', '.join(players)})"))
    elif not problems and not state.expects_orders(order.player):
        problems.append(Problem(source, data.line_of("player"), "player",
                                f"{order.player} has no robot to program this turn"))
    return problems


def _store_version(session: Session, game: Game, player: Player, turn: int, order: OrderFile,
                   checked: Checked, at: datetime) -> int:
    latest = session.exec(select(OrderVersion.version).where(
        OrderVersion.game_id == game.id, OrderVersion.turn == turn, OrderVersion.player_id == player.id)
        .order_by(col(OrderVersion.version).desc())).first()
    version = (latest or 0) + 1
    session.add(OrderVersion(game_id=key(game), turn=turn, player_id=key(player), version=version, source=order.source,
                             text=order.text, submission=_submission_json(checked), submitted_at=at))
    session.flush()
    return version


def _submission_json(checked: Checked) -> str:
    return dumps({"programs": {robot: [str(c) for c in cards] for robot, cards in checked.programs.items()},
                  "reboot": list(checked.reboot), "option_hp": checked.option_hp})


def _submission(text: str) -> Submission:
    data = json.loads(text)
    return Submission(data["programs"], data["reboot"], data["option_hp"])


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
    game = get_game(session, name)
    state = current_state(session, game)
    rows = []
    for player in players_of(session, game):
        versions = session.exec(select(OrderVersion).where(
            OrderVersion.game_id == game.id, OrderVersion.turn == state.turn, OrderVersion.player_id == player.id)
            .order_by(col(OrderVersion.version))).all()
        latest = versions[-1] if versions else None
        rows.append(PlayerStatus(player.name, player.email, state.owes_orders(player.name), len(versions),
                                 latest.version if latest else None,
                                 latest.submitted_at.isoformat(timespec="seconds") if latest else None))
    return TurnStatus(game.name, state.turn, dealt(session, game, state.turn), state.is_over, rows)


# --- processing ------------------------------------------------------------------------------

@dataclass
class ProcessResult:
    game: str
    turn: int
    preview: bool
    before_hash: str
    after_hash: str
    events_hash: str
    orders: dict[str, int | None]  # player -> the order version used (None: missing, B4.6)
    stale: list[str]  # players whose stored orders no longer fit the hand (after a rollback)
    events: int
    over: bool
    before: GameState = field(repr=False)
    outcome: TurnOutcome = field(repr=False)


def turn_orders(session: Session, game: Game, state: GameState) -> tuple[dict[str, Checked], dict[str, int | None],
                                                                        list[str]]:
    """The latest version per player for the state's turn, checked again against the hand."""
    orders: dict[str, Checked] = {}
    used: dict[str, int | None] = {}
    stale: list[str] = []
    for player in players_of(session, game):
        used[player.name] = None
        if not state.expects_orders(player.name):
            continue
        latest = session.exec(select(OrderVersion).where(
            OrderVersion.game_id == game.id, OrderVersion.turn == state.turn, OrderVersion.player_id == player.id)
            .order_by(col(OrderVersion.version).desc())).first()
        if latest is None:
            continue
        checked = check_orders(state, player.name, _submission(latest.submission))
        if checked.ok:
            orders[player.name], used[player.name] = checked, latest.version
        else:
            stale.append(player.name)
    return orders, used, stale


def process(session: Session, name: str, *, at: datetime, preview: bool = False, turn: int | None = None,
            commit: bool = True) -> ProcessResult:
    """Resolve the current turn and store everything in one transaction (nothing with `preview`), under the game's
    lock: an order stored while this runs waits for it, then finds the turn processed and is refused."""
    if not preview:
        lock_game(session, name)
    game = get_game(session, name)
    state = current_state(session, game)
    if turn is not None and turn != state.turn:
        raise Refused([f"{name} is at turn {state.turn}, not {turn}"])
    if state.is_over:
        raise Refused([f"{name} is over"])
    if not dealt(session, game, state.turn):
        previous = state.turn - 1
        raise Refused([f"turn {state.turn} of {name} has not been dealt yet"
                       + (f" (turn {previous} is processed already)" if previous else "")
                       + f": run pbem turn deal {name}"])
    orders, used, stale = turn_orders(session, game, state)
    outcome = play_turn(state, orders, game.seed)
    before, after = state_hash(state), state_hash(outcome.state)
    events_hash = _events_hash(outcome)
    result = ProcessResult(game.name, state.turn, preview, before, after, events_hash, used, stale,
                           len(outcome.events), outcome.state.is_over, state, outcome)
    if preview:
        session.rollback()
        return result
    _store_turn(session, game, state, outcome, used, before, after, events_hash, at)
    try:
        session.commit() if commit else session.flush()
    except IntegrityError:  # another `turn process` stored this turn first
        session.rollback()
        raise Refused([f"turn {state.turn} of {name} was processed meanwhile by another run"]) from None
    return result


def _store_turn(session: Session, game: Game, state: GameState, outcome: TurnOutcome, used: dict,
                before: str, after: str, events_hash: str, at: datetime) -> None:
    number = state.turn
    if snapshot(session, game, number, "before") is None:
        save_snapshot(session, game, number, "before", state)
    save_snapshot(session, game, number, "after", outcome.state)
    for board, snapshots in outcome.stages.items():
        for stage_snapshot in snapshots:  # stages 1…n, then 0: the board at the end of the turn
            save_snapshot(session, game, number, "stage", stage_snapshot, board=board, stage=stage_snapshot.stage)
    for board, final in outcome.finals.items():  # each board as the turn left it, before any room change
        save_snapshot(session, game, number, "final", final, board=board)
    for seq, (board, event) in enumerate(outcome.events):
        session.add(EventRecord(game_id=key(game), turn=number, seq=seq, board=board, stage=event.stage,
                                kind=type(event).__name__, data=dumps(to_data(event))))
    session.add(Turn(game_id=key(game), number=number, seed=game.seed, before_hash=before, after_hash=after,
                     events_hash=events_hash, orders=dumps(used), processed_at=at, over=outcome.state.is_over,
                     missed=dumps(to_data(outcome.missed))))


def _events_hash(outcome: TurnOutcome) -> str:
    return _hash_events([[board, type(event).__name__, to_data(event)] for board, event in outcome.events])


def _hash_events(entries: list[list[Any]]) -> str:
    """The hash of a turn's events as (board, kind, data) entries: what reports are built from."""
    return hashlib.sha256(dumps(entries).encode("utf-8")).hexdigest()


def _recorded_events_hash(session: Session, game: Game, turn: int) -> str:
    """The hash of the events stored for a turn (the rows reports and the site read)."""
    rows = session.exec(select(EventRecord).where(EventRecord.game_id == game.id, EventRecord.turn == turn)
                        .order_by(col(EventRecord.seq))).all()
    return _hash_events([[row.board, row.kind, json.loads(row.data)] for row in rows])


# --- rollback and replay ---------------------------------------------------------------------

def rollback(session: Session, name: str, to: int) -> int:
    """Undo turns `to` and later: turn `to` is the next to process. Orders are kept. Returns turns undone."""
    game = get_game(session, name)
    numbers = [t for t in session.exec(select(Turn.number).where(Turn.game_id == game.id)).all()]
    if to < 1 or to not in numbers:
        done = f"turns 1–{max(numbers)}" if numbers else "no turn"
        raise Refused([f"cannot roll {name} back to turn {to}: {done} processed"])
    for table, turn_column in ((Turn, col(Turn.number)), (EventRecord, col(EventRecord.turn))):
        session.exec(delete(table).where(col(table.game_id) == game.id, turn_column >= to))
    session.exec(delete(StateSnapshot).where(col(StateSnapshot.game_id) == game.id, col(StateSnapshot.turn) >= to,
                                             col(StateSnapshot.kind) != "before"))
    session.exec(delete(StateSnapshot).where(col(StateSnapshot.game_id) == game.id, col(StateSnapshot.turn) > to))
    session.exec(delete(DealtHand).where(col(DealtHand.game_id) == game.id, col(DealtHand.turn) > to))
    session.commit()
    return len([n for n in numbers if n >= to])


@dataclass
class ReplayTurn:
    """A turn replayed: the state hash stored and replayed, and the events hash stored with the turn, replayed
    and computed from the stored event rows (the reports' source)."""

    turn: int
    stored: str
    replayed: str
    stored_events: str
    replayed_events: str
    recorded_events: str

    @property
    def same(self) -> bool:
        return self.stored == self.replayed and self.stored_events == self.replayed_events == self.recorded_events


@dataclass
class ReplayResult:
    game: str
    turns: list[ReplayTurn]

    @property
    def first_difference(self) -> int | None:
        return next((t.turn for t in self.turns if not t.same), None)


def processed_turn(session: Session, name: str, turn: int) -> tuple[GameState, TurnOutcome]:
    """Turn N of a game again, for its reports: the state before it and the outcome, rebuilt from the stored
    state and the orders used (refused if that no longer gives the stored hash)."""
    game = get_game(session, name)
    row = session.exec(select(Turn).where(Turn.game_id == game.id, Turn.number == turn)).first()
    if row is None:
        raise Refused([f"turn {turn} of {name} has not been processed"])
    before = stored_state(session, game, turn, "before")
    players = {p.name: p.id for p in players_of(session, game)}
    orders = {}
    for player, version in json.loads(row.orders).items():
        if version is not None:
            stored = session.exec(select(OrderVersion).where(
                OrderVersion.game_id == game.id, OrderVersion.turn == turn, OrderVersion.player_id == players[player],
                OrderVersion.version == version)).one()
            orders[player] = check_orders(before, player, _submission(stored.submission))
    outcome = play_turn(before, orders, row.seed)
    if state_hash(outcome.state) != row.after_hash:
        raise Refused([f"turn {turn} of {name} no longer gives its stored state: run pbem replay {name} --verify"])
    return before, outcome


def processed_result(session: Session, name: str, turn: int) -> ProcessResult:
    """A processed turn as `process` returned it (for `pbem report` to write its summary again)."""
    game = get_game(session, name)
    before, outcome = processed_turn(session, name, turn)
    row = session.exec(select(Turn).where(Turn.game_id == game.id, Turn.number == turn)).one()
    return ProcessResult(game.name, turn, False, row.before_hash, row.after_hash, row.events_hash,
                         json.loads(row.orders), [], len(outcome.events), outcome.state.is_over, before, outcome)


def replay(session: Session, name: str, progress=None) -> ReplayResult:
    """Rebuild every processed turn from the first state and the orders used; compare the state hashes and the
    events hashes (replayed, stored with the turn, and of the stored event rows)."""
    game = get_game(session, name)
    versions = order_versions(session, game)
    state = first_state(session, game)
    turns = []
    for row in processed_turns(session, game):
        used = json.loads(row.orders)
        orders = {}
        for player, version in used.items():
            if version is not None:
                orders[player] = check_orders(state, player, _submission(versions[(row.number, player, version)].submission))
        outcome = play_turn(state, orders, row.seed)
        state = outcome.state
        turns.append(ReplayTurn(row.number, row.after_hash, state_hash(state), row.events_hash,
                                _events_hash(outcome), _recorded_events_hash(session, game, row.number)))
        if progress:
            progress()
    return ReplayResult(game.name, turns)


