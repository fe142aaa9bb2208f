"""The GM's turn cycle: deal, submit/check, process, rollback, replay — the engine run over the stored turns.

Each step (`deal`, `submit`, `process`, `rollback`) is one unit of work on a session and commits once; the
building blocks under them (`deal_hands`, `take_orders`, `play`) only flush, for a workflow step that does
more in the same transaction (`pbem run` processes a turn, deals the next and queues the mail at once).
`process` stores a whole turn in one transaction (or nothing, with `preview`), so an interrupted run leaves the
turn unprocessed and running it again gives the uninterrupted result. The rows are `pbem.store.turns`'.
"""
from __future__ import annotations

import json
from dataclasses import dataclass, field
from datetime import datetime
from typing import Callable

from sqlalchemy.exc import IntegrityError
from sqlmodel import Session

from ..dm.campaign import get_campaign
from ..engine.campaign import GameState, TurnOutcome
from ..engine.orders import Checked
from ..formats.canonical import state_hash
from ..formats.ending import ended_text
from ..formats.orders import OrderFile, parse_orders
from ..formats.yamlfile import FormatError, Problem
from ..store.controls import ended
from ..store.games import (
    Refused,
    current_state,
    first_state,
    get_game,
    lock_game,
    order_versions,
    players_of,
    processed_turns,
    stored_state,
)
from ..store.tables import Game, Player
from ..store.turns import (
    TurnSheet,
    dealt,
    delete_turns,
    outcome_events_hash,
    record_hands,
    recorded_events_hash,
    save_turn,
    store_version,
    submission_of,
    turn_row,
    turn_versions,
    used_version,
)
from .turn_sheets import turn_sheets


def deal(session: Session, name: str) -> tuple[int, list[TurnSheet]]:
    """`pbem turn deal`: the current turn's hands recorded (once), committed; every player's turn sheet."""
    game, state = deal_hands(session, name)
    sheets = turn_sheets(session, game, state)
    session.commit()
    return state.turn, sheets


def deal_hands(session: Session, name: str) -> tuple[Game, GameState]:
    """Record the current turn's hands (once, not committed); the game and the state dealt (its sheets are built
    by whoever mails or shows them, once the turn's clock is set)."""
    game = get_game(session, name)
    closed(session, game)
    state = current_state(session, game)
    if state.is_over:
        raise Refused([f"{name} is over: nothing to deal"])
    record_hands(session, game, state)
    return game, state


def closed(session: Session, game: Game) -> None:
    """Refused when the GM has ended the game (`gm.ending.end_game`): nothing is dealt, taken or played after it."""
    end = ended(session, game)
    if end is not None:
        raise Refused([ended_text(game.name, end.at, end.how, end.winner)])


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
           at: datetime) -> list[SubmissionResult]:
    """`pbem turn submit`/`check`: `take_orders`, committed when it stores."""
    results = take_orders(session, name, files, store=store, at=at)
    if store:
        session.commit()
    return results


def take_orders(session: Session, name: str, files: list[tuple[str, bytes]], *, store: bool,
                at: datetime) -> list[SubmissionResult]:
    """Check each order file against the current turn; with `store`, keep every accepted one as a new version,
    stamped `at` (when it was received). Storing first takes the game's lock, and only then reads the turn, so an
    order accepted here is one `process` will use: a turn processed meanwhile refuses it. A turn held for review
    is previewed again (its hold lifted) once new orders are stored. Not committed."""
    if store:
        lock_game(session, name)
    game = get_game(session, name)
    end = ended(session, game)
    if end is not None:  # every file refused, saying when the game ended
        return [SubmissionResult(source, False, problems=[str(Problem(source, None, "", "orders are no longer taken: "
                                                                      + ended_text(name, end.at, end.how, end.winner)))])
                for source, _ in files]
    state, rules = current_state(session, game), get_campaign(game.ruleset)
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
        checked = rules.check_orders(state, order.player, order.submission) if checkable else None
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
                result.version = store_version(session, game, players[order.player], state.turn, order, checked,
                                               at)
        results.append(result)
    if store:
        if any(result.accepted for result in results):
            from ..store.schedule import lift_hold  # only here: checking orders needs no schedule tables

            lift_hold(session, game, state.turn)
        session.flush()
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
    rules, sent = get_campaign(game.ruleset), turn_versions(session, game, state.turn)
    for player in players_of(session, game):
        used[player.name] = None
        if not state.expects_orders(player.name) or not sent.get(player.id):
            continue
        latest = sent[player.id][-1]
        checked = rules.check_orders(state, player.name, submission_of(latest))
        if checked.ok:
            orders[player.name], used[player.name] = checked, latest.version
        else:
            stale.append(player.name)
    return orders, used, stale


def process(session: Session, name: str, *, at: datetime, preview: bool = False,
            turn: int | None = None) -> ProcessResult:
    """`pbem turn process`: `play`, committed (nothing stored with `preview`)."""
    result = play(session, name, at=at, preview=preview, turn=turn)
    if not preview:
        session.commit()
    return result


def play(session: Session, name: str, *, at: datetime, preview: bool = False,
         turn: int | None = None) -> ProcessResult:
    """Resolve the current turn and store everything, not committed (nothing with `preview`), under the game's
    lock: an order stored while this runs waits for it, then finds the turn processed and is refused."""
    if not preview:
        lock_game(session, name)
    game = get_game(session, name)
    closed(session, game)
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
    outcome = get_campaign(game.ruleset).play_turn(state, orders, game.seed)
    before, after = state_hash(state), state_hash(outcome.state)
    events_hash = outcome_events_hash(outcome)
    result = ProcessResult(game.name, state.turn, preview, before, after, events_hash, used, stale,
                           len(outcome.events), outcome.state.is_over, state, outcome)
    if preview:
        session.rollback()
        return result
    try:
        save_turn(session, game, state, outcome, used, before, after, events_hash, at)
        session.flush()
    except IntegrityError:  # another `turn process` stored this turn first
        session.rollback()
        raise Refused([f"turn {state.turn} of {name} was processed meanwhile by another run"]) from None
    return result


# --- rollback and replay ---------------------------------------------------------------------

def rollback(session: Session, name: str, to: int) -> int:
    """Undo turns `to` and later: turn `to` is the next to process. Orders are kept. Returns turns undone."""
    game = get_game(session, name)
    numbers = [row.number for row in processed_turns(session, game)]
    if to < 1 or to not in numbers:
        done = f"turns 1–{max(numbers)}" if numbers else "no turn"
        raise Refused([f"cannot roll {name} back to turn {to}: {done} processed"])
    delete_turns(session, game, to)
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
    row = turn_row(session, game, turn)
    if row is None:
        raise Refused([f"turn {turn} of {name} has not been processed"])
    before, rules = stored_state(session, game, turn, "before"), get_campaign(game.ruleset)
    players = {p.name: p.id for p in players_of(session, game)}
    orders = {}
    for player, version in json.loads(row.orders).items():
        if version is not None:
            stored = used_version(session, game, turn, players[player], version)
            orders[player] = rules.check_orders(before, player, submission_of(stored))
    outcome = rules.play_turn(before, orders, row.seed)
    if state_hash(outcome.state) != row.after_hash:
        raise Refused([f"turn {turn} of {name} no longer gives its stored state: run pbem replay {name} --verify"])
    return before, outcome


def processed_result(session: Session, name: str, turn: int) -> ProcessResult:
    """A processed turn as `process` returned it (for `pbem report` to write its summary again)."""
    game = get_game(session, name)
    before, outcome = processed_turn(session, name, turn)
    row = turn_row(session, game, turn)
    assert row is not None  # processed_turn refused a turn not processed
    return ProcessResult(game.name, turn, False, row.before_hash, row.after_hash, row.events_hash,
                         json.loads(row.orders), [], len(outcome.events), outcome.state.is_over, before, outcome)


def replay(session: Session, name: str, progress: Callable[[], object] | None = None) -> ReplayResult:
    """Rebuild every processed turn from the first state and the orders used; compare the state hashes and the
    events hashes (replayed, stored with the turn, and of the stored event rows)."""
    game = get_game(session, name)
    versions, rules = order_versions(session, game), get_campaign(game.ruleset)
    state = first_state(session, game)
    turns = []
    for row in processed_turns(session, game):
        used = json.loads(row.orders)
        orders = {}
        for player, version in used.items():
            if version is not None:
                orders[player] = rules.check_orders(state, player,
                                                    submission_of(versions[(row.number, player, version)]))
        outcome = rules.play_turn(state, orders, row.seed)
        state = outcome.state
        turns.append(ReplayTurn(row.number, row.after_hash, state_hash(state), row.events_hash,
                                outcome_events_hash(outcome), recorded_events_hash(session, game, row.number)))
        if progress:
            progress()
    return ReplayResult(game.name, turns)


