"""The Ice maze death match as a `Game` (RULES D2.3, D5): buzzes, presentations, answers, skips.

Each round shows the next maze. A buzz `{claim: N}` (N 1-15; anything else is
no buzz) obliges the buzzer to present exactly N orders `{solution: "..."}`
within the present window; then the opponent has the answer window for a
strictly shorter correct solution (or `{pass: true}`). Clocks run on the
actions' time stamps: an action first lets every deadline it is later than
expire with the effect the rules give it (a late buzzer gives the opponent the
point, a silent or late opponent leaves it to the buzzer, ten minutes without a
buzz junk the round), then acts on the round it finds. Deadlines, the GM's
`{extend: seconds}` and `{timeout: true}` are the one clock's (`clock.py`). The opponent's minute always runs
(D2.3 ruling), even after a solution as short as the proven minimum: the round ends with the answer or when the
minute passes. A junked
round counts towards the round limit; a skipped maze does not. After the
transcript's own puzzles the engine deals mazes it generates from the seed
(options `size`, `moves`, `snoms`), each with that proven minimum, or draws by the seed from its bank of proven
mazes (`bank.py`) when the bank holds that kind.
"""
from __future__ import annotations

from dataclasses import dataclass, replace
from datetime import datetime, timedelta
from functools import lru_cache
from typing import Any

from ...engine.geometry import Size
from ...engine.vocabulary import Termination
from .. import clock as clocks
from .. import puzzlebank
from ..base import Action, Config, JudgedGame, Option, Result, Setup
from ..clock import GM, Deadline, utc
from ..views import IceView
from . import bank
from .maze import MAX_ORDERS, MAX_SIDE, MIN_SIDE, ORDERS, Maze, solves

OPTIONS = {
    "target": Option(7, whole=True, unit="points", about="D2.3: the points that win"),
    "max_rounds": Option(20, whole=True, unit="rounds", about="D2.3: after this many rounds the leader wins"),
    "present_seconds": Option(60, whole=True, unit="seconds", about="the buzzer's time to present"),
    "answer_seconds": Option(60, whole=True, unit="seconds", about="the opponent's time for a shorter solution"),
    "junk_seconds": Option(600, whole=True, unit="seconds", about="no buzz in this time junks the maze"),
    "moves": Option(8, whole=True, unit="orders", about="generated mazes: their proven minimum"),
    "snoms": Option(2, whole=True, unit="snoms", about="generated mazes: their snoms"),
    "bank": puzzlebank.OPTION,
    "size": Option(Size(10, 10), read=lambda value, default: _size(value), unit="rows x columns", shown_default="10x10",
                   about="generated mazes: their size, 5x5 to 20x20"),
    "start": Option(None, read=clocks.read_moment, unit="time stamp", shown_default="the first action's time",
                    about="when the first maze opens (ISO 8601, like 2026-12-01T20:00Z)"),
}
PAYLOADS = ("claim", "solution", "skip", "pass", "timeout", "extend")
KINDS = PAYLOADS + ("told",)  # the GM's clock records `told` too (clock.py)


@dataclass(frozen=True)
class Rules:
    target: int = 7
    max_rounds: int = 20
    present_seconds: int = 60
    answer_seconds: int = 60
    junk_seconds: int = 600
    moves: int = 8  # generated mazes: their proven minimum,
    snoms: int = 2  # their snoms,
    rows: int = 10  # and their size
    cols: int = 10
    seed: int = 0
    bank: int = 1  # the edition of the maze bank they are drawn from (1 holds none: all generated)


@dataclass(frozen=True)
class Round:
    """The round in play: its maze and how far it has got."""

    maze: int  # index of the maze: the transcript's puzzles first, then generated ones
    opened: datetime | None
    buzzer: int | None = None  # index of the player who buzzed
    claim: int | None = None
    buzzed: datetime | None = None
    presented: str | None = None  # the buzzer's correct orders, waiting for an answer
    presented_at: datetime | None = None
    extension: int = 0  # seconds a GM added to the running window

    def deadline(self, rules: Rules) -> datetime | None:
        """When the running window closes (None while no clock is known)."""
        start: datetime | None
        if self.presented_at is not None:
            start, seconds = self.presented_at, rules.answer_seconds
        elif self.buzzer is not None:
            start, seconds = self.buzzed, rules.present_seconds
        else:
            start, seconds = self.opened, rules.junk_seconds
        return None if start is None else start + timedelta(seconds=seconds + self.extension)


@dataclass(frozen=True)
class IceMatch:
    players: tuple[str, ...]  # two
    mazes: tuple[Maze, ...]
    rules: Rules
    round: Round
    scores: tuple[int, ...] = (0, 0)
    rounds: int = 0  # rounds finished, scored or junked
    skipped: tuple[bool, ...] = (False, False)
    now: datetime | None = None
    termination: Termination | None = None  # why the match ended; None while it runs
    history: tuple[str, ...] = ()

    @property
    def over(self) -> bool:
        return self.termination is not None


class IceMaze(JudgedGame[IceMatch, Action]):
    name = "ice"
    title = "Ice maze"
    options = OPTIONS

    def new_state(self, config: Config) -> IceMatch:
        setup = Setup(config, OPTIONS)
        rules, start = _rules(setup)
        for i, maze in enumerate(config.puzzles):
            if not isinstance(maze, Maze):
                setup.problem(f"puzzles[{i}]", f"not an Ice maze: {type(maze).__name__}")
        if not setup.problems:  # the first generated maze proves the options can be met
            setup.checked("options.moves", lambda: _generated(rules, len(config.puzzles)), None)
        setup.done()
        return IceMatch(tuple(config.players), tuple(config.puzzles), rules, Round(0, start))

    def judge(self, state: IceMatch, action: Action) -> tuple[str | None, IceMatch]:
        return _judge(self, state, action)

    def candidates(self, state: IceMatch) -> list[Action]:
        """Buzzes of 1 to 15, skips and passes, every solution of up to two orders and one order repeated."""
        solutions = [*ORDERS, *(a + b for a in ORDERS for b in ORDERS),
                     *(order * n for order in ORDERS for n in range(3, MAX_ORDERS + 1))]
        found = []
        for player in state.players:
            found += [Action(player, {"claim": n}) for n in range(1, MAX_ORDERS + 1)]
            found += [Action(player, {"solution": text}) for text in solutions]
            found += [Action(player, {"skip": True}), Action(player, {"pass": True})]
        return found

    def hints(self, state: IceMatch, player: str) -> list[str]:
        round_, me = state.round, state.players.index(player) if player in state.players else None
        if state.over or me is None:
            return []
        if round_.buzzer is None:
            hints = ["{claim: 8}  buzz: the number of orders (1-15) you will present"]
            if state.scores[me] > state.scores[1 - me] and not state.skipped[me]:
                hints.append("{skip: true}  skip this maze (the leader, once a match)")
            return hints
        if round_.presented is None:
            example = ("LURD" * 4)[:round_.claim]
            return [f'{{solution: "{example}"}}  exactly {round_.claim} orders (L R U D)'] if me == round_.buzzer else []
        if me == round_.buzzer:
            return []
        shorter = len(round_.presented) - 1
        offer = [f'{{solution: "{("LURD" * 4)[:shorter]}"}}  a correct solution shorter than {shorter + 1}'] if shorter else []
        return offer + ["{pass: true}  let it stand"]

    def news(self, before: IceMatch, after: IceMatch) -> list[str]:
        return list(after.history[len(before.history):])

    def rules_text(self, state: IceMatch) -> str:
        r, span = state.rules, clocks.span
        return (f"Ice maze (RULES D2): every order (L R U D) moves all snoms at once until a rock, the edge or "
                "another snom stops them; a snom that reaches a free goal stops and locks; solve it by locking "
                f"every snom. Buzz with the number of orders (1-15) you will present, then present exactly that many "
                f"within {span(r.present_seconds)}; the opponent then has {span(r.answer_seconds)} for a strictly "
                "shorter solution. The buzzer scores if right and not beaten; a wrong or late buzzer gives the "
                f"opponent the point. No buzz in {span(r.junk_seconds)} junks the maze; the leader may skip one "
                f"maze. First to {r.target} points, at most {r.max_rounds} rounds.")

    def deadline(self, state: IceMatch) -> Deadline | None:
        round_ = state.round
        at = round_.deadline(state.rules)
        if at is None or state.over:
            return None
        if round_.buzzer is None:
            return Deadline(at, None, f"nobody buzzed for maze {round_.maze + 1}: the round is junked")
        buzzer, other = state.players[round_.buzzer], state.players[1 - round_.buzzer]
        if round_.presented is None:
            return Deadline(at, buzzer, f"{buzzer} did not present {round_.claim} orders: {other} scores")
        return Deadline(at, other, f"no shorter answer from {other}: {buzzer} scores")

    def expire(self, state: IceMatch, deadline: Deadline) -> IceMatch:
        round_ = state.round
        if round_.buzzer is None:
            return _end_round(state, None, f"maze {round_.maze + 1}: nobody buzzed, round junked", deadline.at)
        name = state.players[round_.buzzer]
        if round_.presented is None:
            return _end_round(state, 1 - round_.buzzer, f"{name} did not present in time", deadline.at)
        return _end_round(state, round_.buzzer, f"{name}'s {round_.presented} stands; no answer in time", deadline.at)

    def extend(self, state: IceMatch, seconds: int, at: datetime | None) -> IceMatch:
        round_ = replace(state.round, extension=state.round.extension + seconds)
        return _note(replace(state, round=round_), f"GM extended the deadline by {seconds} s")

    def is_over(self, state: IceMatch) -> bool:
        return state.over

    def result(self, state: IceMatch) -> Result:
        return Result(state.over, _winner(state) if state.over else None, dict(zip(state.players, state.scores)),
                      termination=state.termination)

    def render_data(self, state: IceMatch) -> IceView:
        index = state.round.maze - state.over  # once the match is over, the last maze played
        return {
            "rows": maze_at(state, index).to_rows(),
            "title": f"Ice maze {index + 1}",
            "lines": [", ".join(f"{p} {s}" for p, s in zip(state.players, state.scores))
                      + f"; {state.rounds} round{'' if state.rounds == 1 else 's'} played", _status(state)],
            "players": list(state.players),
            "scores": list(state.scores),
            "history": list(state.history),
        }


def _judge(game: IceMaze, state: IceMatch, action: Action) -> tuple[str | None, IceMatch]:
    """(why the action is illegal, None if legal; the state after it)."""
    if state.over:
        return "the match is over", state
    at = utc(action.at)
    if at is not None and state.now is not None and at < state.now:
        return f"time stamp {at.isoformat()} is earlier than the previous action ({state.now.isoformat()})", state
    payload = dict(action.payload)
    keys = [key for key in KINDS if key in payload]
    extra = sorted(str(key) for key in payload if key not in KINDS)
    if "undercut" in payload:
        return "the Ice maze has no undercut: the opponent answers with a shorter {solution: ...}", state
    if extra or len(keys) != 1:
        return f"an Ice action is exactly one of {', '.join(PAYLOADS)}; got {', '.join(map(str, payload)) or 'nothing'}", state
    kind, value = keys[0], payload[keys[0]]
    if action.player != GM and action.player not in state.players:
        return f"{action.player!r} does not play in this match ({' and '.join(state.players)})", state
    if kind in clocks.CLOCK_KEYS:
        reason, after = clocks.judge_clock(game, _opened(state, at), action)
        return reason, replace(after, now=at or after.now)
    if action.player == GM:
        return f"the GM may only extend a deadline or close it (timeout), not {kind}", state
    me = state.players.index(action.player)
    state, _ = clocks.advance(game, _opened(state, at), at)
    state = replace(state, now=at or state.now)
    if state.over:
        return "the match is over", state
    return {"claim": _buzz, "solution": _solution, "skip": _skip, "pass": _pass}[kind](state, me, value, at)


def _opened(state: IceMatch, at: datetime | None) -> IceMatch:
    """The first time stamp opens the first round when no `start` did."""
    if at is None or state.round.opened is not None:
        return state
    return replace(state, round=replace(state.round, opened=at))


def _buzz(state: IceMatch, me: int, value: Any, at: datetime | None) -> tuple[str | None, IceMatch]:
    if not isinstance(value, int) or isinstance(value, bool) or not 1 <= value <= MAX_ORDERS:
        return f"not a buzz: {value!r} (a buzz is a number from 1 to {MAX_ORDERS})", state
    if state.round.buzzer is not None:
        return f"{state.players[state.round.buzzer]} has already buzzed in this round", state
    round_ = replace(state.round, buzzer=me, claim=value, buzzed=at or state.now, extension=0)
    return None, replace(state, round=round_)


def _solution(state: IceMatch, me: int, value: Any, at: datetime | None) -> tuple[str | None, IceMatch]:
    round_, name = state.round, state.players[me]
    if not isinstance(value, str):
        return f"a solution is a string of {', '.join(ORDERS)}, not {value!r}", state
    orders = "".join(value.split()).upper()
    wrong = [ch for ch in orders if ch not in ORDERS]
    if wrong:
        return f"{wrong[0]!r} in the solution is not an order (L, R, U or D)", state
    if round_.buzzer is None:
        return "nobody has buzzed; buzz first with {claim: N}", state
    maze = maze_at(state, round_.maze)
    if round_.presented is None:
        if me != round_.buzzer:
            return f"{state.players[round_.buzzer]} buzzed and presents first", state
        if len(orders) != round_.claim:
            return None, _end_round(state, 1 - me, f"{name} buzzed {round_.claim} but gave {len(orders)} orders", at)
        if not solves(maze, orders):
            return None, _end_round(state, 1 - me, f"{name}'s {orders} does not solve the maze", at)
        return None, replace(state, round=replace(round_, presented=orders, presented_at=at or state.now, extension=0))
    if me == round_.buzzer:
        return f"{name} has already presented {round_.presented}", state
    buzzer = state.players[round_.buzzer]
    if len(orders) < len(round_.presented) and solves(maze, orders):
        return None, _end_round(state, me, f"{name} beat {buzzer}'s {len(round_.presented)} with {orders}", at)
    return None, _end_round(state, round_.buzzer, f"{buzzer}'s {round_.presented} stands; {name}'s {orders} is not a shorter solution", at)


def _pass(state: IceMatch, me: int, value: Any, at: datetime | None) -> tuple[str | None, IceMatch]:
    round_ = state.round
    if value is not True:
        return "pass must be `pass: true`", state
    if round_.presented is None or round_.buzzer is None or me == round_.buzzer:
        return "a pass answers the opponent's presented solution", state
    buzzer = state.players[round_.buzzer]
    return None, _end_round(state, round_.buzzer, f"{buzzer}'s {round_.presented} stands; {state.players[me]} passed", at)


def _skip(state: IceMatch, me: int, value: Any, at: datetime | None) -> tuple[str | None, IceMatch]:
    if value is not True:
        return "skip must be `skip: true`", state
    if state.round.buzzer is not None:
        return "a maze can only be skipped before anyone buzzes", state
    if state.scores[me] <= state.scores[1 - me]:
        return f"only the leader may skip a maze ({_score_text(state)})", state
    if state.skipped[me]:
        return f"{state.players[me]} has already skipped a maze in this match", state
    skipped = tuple(used or i == me for i, used in enumerate(state.skipped))
    state = _note(state, f"maze {state.round.maze + 1} skipped by {state.players[me]}")
    return None, replace(state, skipped=skipped, round=Round(state.round.maze + 1, at or state.now))


def maze_at(state: IceMatch, index: int) -> Maze:
    """Maze `index` of the match: the transcript's, else one generated from the seed."""
    return state.mazes[index] if index < len(state.mazes) else _generated(state.rules, index)


@lru_cache(maxsize=64)
def _generated(rules: Rules, index: int) -> Maze:
    """From the bank when it holds the kind (no solver loaded), else by the generator."""
    banked = bank.for_round(rules.rows, rules.cols, rules.snoms, rules.moves, rules.seed, index + 1,
                            rules.bank)
    if banked is not None:
        return banked
    from .generate import generate  # the solver, only for a kind the bank lacks

    return generate(rules.rows, rules.cols, rules.moves, rules.snoms, f"{rules.seed}/maze {index + 1}")[0]


def _rules(setup: Setup) -> tuple[Rules, datetime | None]:
    """The match's rules from its options, each problem with them recorded in `setup`."""
    setup.two_players("the Ice maze")
    setup.no_variant("The Ice maze")
    values = setup.read(OPTIONS)
    size, start = values.pop("size"), values.pop("start")
    return Rules(**values, rows=size.rows, cols=size.cols, seed=setup.config.seed), start


def _size(text: Any) -> Size:
    size = Size.parse(text)
    if not (MIN_SIDE <= size.rows <= MAX_SIDE and MIN_SIDE <= size.cols <= MAX_SIDE):
        raise ValueError(f"{size} is not {MIN_SIDE}x{MIN_SIDE} to {MAX_SIDE}x{MAX_SIDE}")
    return size


def _end_round(state: IceMatch, scorer: int | None, why: str, at: datetime | None) -> IceMatch:
    scores = tuple(s + (i == scorer) for i, s in enumerate(state.scores))
    rounds = state.rounds + 1
    point = f"; {state.players[scorer]} scores" if scorer is not None else ""
    state = _note(state, f"round {rounds}: {why}{point}")
    ended = (Termination.TARGET_SCORE if max(scores) >= state.rules.target
             else Termination.ROUNDS_PLAYED if rounds >= state.rules.max_rounds else None)
    return replace(state, scores=scores, rounds=rounds, termination=ended,
                   round=Round(state.round.maze + 1, at or state.now))


def _answerer(round_: Round) -> int | None:
    """Who owed a solution in this round's running window."""
    if round_.buzzer is None:
        return None
    return round_.buzzer if round_.presented is None else 1 - round_.buzzer


def _winner(state: IceMatch) -> str | None:
    first, second = state.scores
    return None if first == second else state.players[0 if first > second else 1]


def _note(state: IceMatch, line: str) -> IceMatch:
    return replace(state, history=state.history + (line,))


def _score_text(state: IceMatch) -> str:
    return " - ".join(f"{p} {s}" for p, s in zip(state.players, state.scores))


def _status(state: IceMatch) -> str:
    round_ = state.round
    if state.over:
        winner = _winner(state)
        return f"match over: {winner} wins" if winner else "match over: a draw"
    if round_.buzzer is None:
        return f"round {state.rounds + 1}: buzz with the number of orders"
    buzzer = state.players[round_.buzzer]
    if round_.presented is None:
        return f"round {state.rounds + 1}: {buzzer} buzzed {round_.claim} and presents"
    return f"round {state.rounds + 1}: {buzzer} presented {len(round_.presented)}; {state.players[1 - round_.buzzer]} may answer shorter"
