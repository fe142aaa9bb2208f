"""The Gyulbot death match (RULES D1.4, D5) as a `Game`: claims, undercuts, demonstrations.

Each round has three phases. `claims`: the first `{claim: n}` makes its author
Player A (a round without a claim in 10 minutes scores nobody; so does one
both players `skip`). `undercut`: for 1 minute Player B may `{undercut: m}`
with m < n, or `skip` to let A demonstrate at once; A may undercut themself
once, which restarts B's minute. `demo`: whoever holds the lowest count sends
`{solution: "Red URDL"}` within 2 minutes (an undercutting B gets the rest of
the minute too); it must reach the goal in at most that many moves. A failed
demonstration may be replaced until the deadline (D1.4 ruling): the round is
scored at the first correct one, or for the other player when the deadline
passes (or the demonstrator `skip`s). A failed undercut halves B's claim
window next round (never the undercut window). Deadlines are the one clock's
(`clock.py`): an action first lets every passed deadline take effect. Actions
without time stamps are never late, and there a failed demonstration is final.
"""
from __future__ import annotations

import dataclasses
from dataclasses import dataclass
from datetime import datetime, timedelta
from typing import Any

from ...engine.rng import derive_rng
from ...engine.vocabulary import Termination
from .. import clock as clocks
from .. import puzzlebank
from ..base import Action, Config, JudgedGame, Option, Result, Setup, opponent
from ..clock import GM, Deadline, utc
from ..views import GyulbotView
from . import bank
from .board import Puzzle, parse_solution, solved_after


def _moves(value: Any, edition: int) -> int:
    """The puzzles' minimum a match drawing from the bank's `edition` may ask (`bank.allows`; D1.5: puzzles of a
    requested minimum): read with the edition, so a match stored under an older one loads with what it allowed."""
    if not isinstance(value, int) or isinstance(value, bool) or value < 1 or not bank.allows(value, edition):
        bound = "of at least 1" if edition < bank.BOUNDED else f"from {bank.SHORTEST} to {bank.LONGEST}"
        raise ValueError(f"must be a whole number {bound}, not {value!r}")
    return value


OPTIONS = {
    "rounds": Option(5, whole=True, unit="rounds", about="D1.4: rounds in the match (5, 9 or 10)"),
    "claim_seconds": Option(600, whole=True, unit="seconds", about="a round with no claim in this time scores nobody"),
    "undercut_seconds": Option(60, whole=True, unit="seconds", about="the time to undercut a claim"),
    "demo_seconds": Option(120, whole=True, unit="seconds", about="the time to demonstrate"),
    "moves": Option(8, unit="moves",
                    about=f"the puzzles' proven minimum, {bank.SHORTEST} to {bank.LONGEST} (pbem's bank holds each)"),
    "bank": puzzlebank.OPTION,
    "tiebreak": Option(None, ("round", "opponent"), shown_default="round with 10 rounds, else opponent",
                       about="D1.4: a tie goes to a tiebreaker round or to the designated opponent"),
    "opponent": Option(None, unit="player", shown_default="the last player", about="the designated opponent"),
    "start": Option(None, read=clocks.read_moment, unit="time stamp", shown_default="the first action's time",
                    about="when round 1 opens (ISO 8601, like 2026-12-01T20:00Z)"),
}


@dataclass(frozen=True)
class Settings:
    players: tuple[str, ...]  # two
    rounds: int
    tiebreak: str  # "round" | "opponent"
    opponent: str
    claim: timedelta
    undercut: timedelta
    demo: timedelta
    moves: int  # minimum length of generated puzzles
    seed: int
    puzzles: tuple[Puzzle, ...]
    bank: int  # the edition of the puzzle bank its other rounds are drawn from
    start: datetime | None = None


@dataclass(frozen=True)
class State:
    settings: Settings
    puzzle: Puzzle  # this round's
    round: int = 1
    phase: str = "claims"  # claims | undercut | demo | over
    started: datetime | None = None  # when this round's claims opened
    deadline: datetime | None = None  # end of the undercut window or of the demonstration
    claimant: str | None = None  # Player A
    claim: int | None = None
    self_undercut: bool = False
    demonstrator: str | None = None
    demo_moves: int | None = None
    passed: tuple[str, ...] = ()
    halved: str | None = None  # whose answer time is halved this round
    halve_next: str | None = None
    scores: tuple[int, ...] = (0, 0)
    log: tuple[str, ...] = ()
    last_at: datetime | None = None
    winner: str | None = None
    ending: str = ""  # how a match won on the tiebreak was won
    termination: Termination | None = None
    extended: tuple[datetime, int] | None = None  # (the deadline the GM extended, by how many seconds in all)


    def claimed(self) -> tuple[str, int]:
        """Player A and the count standing (set in the undercut and demo phases)."""
        assert self.claimant is not None and self.claim is not None, self.phase
        return self.claimant, self.claim

    def shown(self) -> tuple[str, int]:
        """Who demonstrates, in at most how many moves (set in the demo phase)."""
        assert self.demonstrator is not None and self.demo_moves is not None, self.phase
        return self.demonstrator, self.demo_moves

class Gyulbot(JudgedGame[State, Action]):
    name = "gyulbot"
    title = "Gyulbot"
    options = OPTIONS

    def new_state(self, config: Config) -> State:
        settings = _settings(config)
        return State(settings, _puzzle(settings, 1), started=settings.start)

    def judge(self, state: State, action: Action) -> tuple[str | None, State]:
        """(why the action is illegal, the unchanged state) or (None, the state after it)."""
        players = state.settings.players
        if action.player != GM and action.player not in players:
            return f"{action.player!r} does not play in this match ({' and '.join(players)})", state
        at = utc(action.at)
        if at and state.last_at and at < state.last_at:
            return f"time stamp {at.isoformat()} is earlier than the previous action's", state
        if at and state.started is None and state.phase == "claims":
            state = dataclasses.replace(state, started=at)  # the first time stamp opens the round
        if clocks.is_clock_action(action) or action.player == GM:
            if not clocks.is_clock_action(action):
                return f"the {GM} may only extend a deadline or close it (timeout), not {', '.join(action.payload)}", state
            reason, after = clocks.judge_clock(self, state, action)
            return reason, dataclasses.replace(after, last_at=at or after.last_at)
        before = state
        state, passed = clocks.advance(self, state, at)
        if at:
            state = dataclasses.replace(state, last_at=at)
        if state.phase == "over":
            return ("the match is over", before) if not passed else (None, state)
        kinds = [k for k in ("claim", "undercut", "solution", "skip") if k in action.payload]
        if len(kinds) != 1 or len(action.payload) != 1:
            return "an action is exactly one of claim, undercut, solution or skip", before
        reason, new = _ACTIONS[kinds[0]](state, action.player, action.payload[kinds[0]], at)
        return (reason, before) if reason else (None, new)

    def candidates(self, state: State) -> list[Action]:
        """Claims and undercuts of 1 to 10 moves, skips, and every solution of one or two moves."""
        moves = [f"{colour} {d}" for colour in state.puzzle.colours for d in "UDLR"]
        solutions = moves + [f"{a} {b}" for a in moves for b in moves]
        found = []
        for player in state.settings.players:
            found += [Action(player, {kind: n}) for kind in ("claim", "undercut") for n in range(1, 11)]
            found += [Action(player, {"solution": text}) for text in solutions] + [Action(player, {"skip": True})]
        return found

    def hints(self, state: State, player: str) -> list[str]:
        if state.phase == "claims" and player not in state.passed:
            return ["{claim: 8}  the number of moves you can solve it in", "{skip: true}  pass this round"]
        if state.phase == "undercut":
            claimant, claim = state.claimed()
            undercut = [f"{{undercut: {claim - 1}}}  fewer moves than {claim}"] if claim > 1 else []
            if player != claimant:
                return undercut + [f"{{skip: true}}  let {claimant} demonstrate now"]
            if not state.self_undercut:
                return [hint + " (lower your own claim, once)" for hint in undercut]
        if state.phase == "demo" and player == state.demonstrator:
            colour = (state.puzzle.goal_colour or state.puzzle.colours[0]).capitalize()  # a colour that may finish
            return [f'{{solution: "{colour} {"URDL"[:state.demo_moves]}"}}  at most {state.demo_moves} moves: '
                    "a colour, then U D L R", "{skip: true}  give up"]
        return []

    def news(self, before: State, after: State) -> list[str]:
        return list(after.log[len(before.log):])

    def rules_text(self, state: State) -> str:
        s, span = state.settings, clocks.span
        tie = ("a tiebreaker round" if s.tiebreak == "round" else f"{s.opponent}, the designated opponent")
        return (f"Gyulbot (RULES D1), {s.rounds} rounds, one puzzle a round for both: move a robot of one colour "
                "in one direction (U D L R) and it slides until a wall, the edge or another robot stops it; reach "
                "the goal. The first claim of a number of moves makes its author Player A; the other player may "
                f"undercut with fewer moves within {span(int(s.undercut.total_seconds()))} (A may undercut "
                "themself once). Whoever holds the lowest count then demonstrates it within "
                f"{span(int(s.demo.total_seconds()))}; a failed demonstration may be replaced until then. Success "
                "scores the demonstrator, failure the other player (a failed undercut also halves that player's "
                f"claim time next round). A round with no claim in {span(int(s.claim.total_seconds()))} scores "
                f"nobody. Most points wins; a tie goes to {tie}.")

    def deadline(self, state: State) -> Deadline | None:
        base = _base_deadline(state)
        if base is None or state.phase == "over":
            return None
        at = base + timedelta(seconds=state.extended[1]) if state.extended and state.extended[0] == base else base
        if state.phase == "claims":
            return Deadline(at, None, f"no claim in round {state.round}: nobody scores")
        if state.phase == "undercut":
            claimant, claim = state.claimed()
            return Deadline(at, opponent(state.settings.players, claimant), f"no undercut: {claimant} demonstrates {claim}")
        demonstrator, moves = state.shown()
        other = opponent(state.settings.players, demonstrator)
        return Deadline(at, demonstrator, f"no demonstration of {moves} in time: {other} scores")

    def expire(self, state: State, deadline: Deadline) -> State:
        if state.phase == "claims":
            return _end_round(state, None, "no claim in time", deadline.at)
        if state.phase == "undercut":
            return dataclasses.replace(state, phase="demo", demonstrator=state.claimant, demo_moves=state.claim,
                                       deadline=deadline.at + state.settings.demo)
        demonstrator, moves = state.shown()
        return _demonstrated(state, False, f"{demonstrator} did not demonstrate {moves} in time", deadline.at)

    def extend(self, state: State, seconds: int, at: datetime | None) -> State:
        base = _base_deadline(state)
        assert base is not None  # the clock extends only a running deadline
        total = seconds + (state.extended[1] if state.extended and state.extended[0] == base else 0)
        log = state.log + (f"round {state.round}: the {GM} extended the deadline by {seconds} s",)
        return dataclasses.replace(state, extended=(base, total), log=log)

    def is_over(self, state: State) -> bool:
        return state.phase == "over"

    def result(self, state: State) -> Result:
        return Result(state.phase == "over", state.winner, scores=dict(zip(state.settings.players, state.scores)),
                      termination=state.termination)

    def render_data(self, state: State) -> GyulbotView:
        puzzle, running = state.puzzle, self.deadline(state)
        return {
            "rows": puzzle.rows,
            "cols": puzzle.cols,
            "walls": sorted([s.row, s.col, side.name] for s, side in puzzle.walls  # each wall once
                            if puzzle.on_board(s) and (side.name in "NW" or not puzzle.on_board(s.step(side)))),
            "robots": [{"colour": c, "squares": [[s.row, s.col] for s in squares]}
                       for c, squares in zip(puzzle.colours, puzzle.start)],
            "goal": {"at": [puzzle.goal.row, puzzle.goal.col], "colour": puzzle.goal_colour},
            "round": state.round,
            "rounds": state.settings.rounds,
            "phase": state.phase,
            "claimant": state.claimant,
            "claim": state.claim,
            "demonstrator": state.demonstrator,
            "demo_moves": state.demo_moves,
            "deadline": running.at.isoformat() if running else None,  # the GM's extension included
            "scores": dict(zip(state.settings.players, state.scores)),
            "log": list(state.log),
            "winner": state.winner,
            "ending": state.ending,
        }


def _settings(config: Config) -> Settings:
    setup = Setup(config, OPTIONS)
    setup.two_players("Gyulbot")
    setup.no_variant("Gyulbot")
    last = config.players[-1] if config.players else None
    values = setup.read(OPTIONS, {"tiebreak": "round" if config.options.get("rounds") == 10 else "opponent",
                                  "opponent": last})
    tiebreak, opponent = values["tiebreak"], values["opponent"]
    if opponent not in config.players:
        setup.problem("options.opponent", f"must be one of {', '.join(config.players)}, not {opponent!r}")
    moves = setup.checked("options.moves", lambda: _moves(values["moves"], values["bank"]), OPTIONS["moves"].default)
    for i, puzzle in enumerate(config.puzzles):
        if not isinstance(puzzle, Puzzle):
            setup.problem(f"puzzles[{i}]", f"not a Gyulbot puzzle: {type(puzzle).__name__}")
    setup.done()
    return Settings(tuple(config.players), values["rounds"], tiebreak, opponent,
                    timedelta(seconds=values["claim_seconds"]), timedelta(seconds=values["undercut_seconds"]),
                    timedelta(seconds=values["demo_seconds"]), moves, config.seed, tuple(config.puzzles),
                    values["bank"], values["start"])


def _puzzle(settings: Settings, number: int) -> Puzzle:
    """Round `number`'s puzzle: the transcript's, else one drawn from the bank or generated from the seed (B13)."""
    if number <= len(settings.puzzles):
        return settings.puzzles[number - 1]
    banked = bank.for_round(settings.moves, settings.seed, number, settings.bank)
    if banked is not None:  # the match's edition of the bank holds the length: every round its own puzzle
        return banked
    from .generator import generate  # the solver is only needed when the transcript lacks puzzles

    return generate(settings.moves, derive_rng(settings.seed, number, 0, "gyulbot puzzle"))


def _undercut_deadline(state: State, claimant: str, at: datetime | None) -> datetime | None:
    """When the opponent's window to undercut a claim made `at` closes (None when untimed); never halved (D1.4)."""
    return at + state.settings.undercut if at else None


def _claim_deadline(state: State, player: str) -> datetime | None:
    """When `player`'s claim window closes: half the round's for a player whose time is halved (D1.4 ruling)."""
    if state.started is None:
        return None
    return state.started + (state.settings.claim / 2 if state.halved == player else state.settings.claim)


def _base_deadline(state: State) -> datetime | None:
    """The running deadline before any GM extension: the round's claim time, else the phase's."""
    if state.phase == "claims":
        return state.started + state.settings.claim if state.started else None
    return state.deadline


def _count(value: Any) -> int | None:
    return value if isinstance(value, int) and not isinstance(value, bool) and value >= 1 else None


def _claim(state: State, player: str, value: Any, at: datetime | None) -> tuple[str | None, State]:
    if state.phase != "claims":
        return f"{state.claimant} already claimed {state.claim}; a lower count is an undercut", state
    if player in state.passed:
        return "you passed this round", state
    count = _count(value)
    if count is None:
        return f"a claim is a number of moves (1 or more), not {value!r}", state
    deadline = _claim_deadline(state, player)
    if at and deadline and at > deadline:  # only a halved player can get here: the round is still open
        return f"your answer time is halved this round (D1.4): claims closed for you at {deadline.isoformat()}", state
    window_end = _undercut_deadline(state, player, at)
    return None, dataclasses.replace(state, phase="undercut", claimant=player, claim=count, deadline=window_end)


def _undercut(state: State, player: str, value: Any, at: datetime | None) -> tuple[str | None, State]:
    if state.phase == "claims":
        return "nobody has claimed yet: make a claim", state
    if state.phase == "demo":
        return f"{state.demonstrator} is demonstrating {state.demo_moves}; undercutting is over", state
    _, claim = state.claimed()
    count = _count(value)
    if count is None or count >= claim:
        return f"an undercut must be fewer than {claim} moves, not {value!r}", state
    if player == state.claimant:
        if state.self_undercut:
            return "you have already undercut yourself once this round (D1.4)", state
        window_end = _undercut_deadline(state, player, at)
        return None, dataclasses.replace(state, claim=count, self_undercut=True, deadline=window_end)
    deadline = state.deadline + state.settings.demo if state.deadline else None
    return None, dataclasses.replace(state, phase="demo", demonstrator=player, demo_moves=count, deadline=deadline)


def _solution(state: State, player: str, value: Any, at: datetime | None) -> tuple[str | None, State]:
    if state.phase != "demo":
        if state.phase == "undercut" and player == state.claimant:
            other = opponent(state.settings.players, player)
            return f"{other} may still undercut; demonstrate when the window closes", state
        return "nobody has to demonstrate now", state
    if player != state.demonstrator:
        return f"{state.demonstrator} is demonstrating, not you", state
    try:
        moves = parse_solution(state.puzzle, str(value))
    except ValueError as err:
        return f"not a solution: {err}", state
    success = len(moves) <= state.shown()[1] and solved_after(state.puzzle, moves) is not None
    how = f"{len(moves)} moves" + (" reach the goal" if success else " fail")
    shown = f"{player} demonstrated {state.demo_moves}: {how}"
    if not success and state.deadline is not None:  # D1.4 ruling: may be replaced until the deadline
        tries = f"round {state.round}: {player}'s {how}; another may follow until the deadline"
        return None, dataclasses.replace(state, log=state.log + (tries,))
    return None, _demonstrated(state, success, shown, at)


def _skip(state: State, player: str, value: Any, at: datetime | None) -> tuple[str | None, State]:
    if value is not True:
        return "skip must be `skip: true`", state
    if state.phase == "claims":
        if player in state.passed:
            return "you already passed this round", state
        passed = tuple(p for p in state.settings.players if p in state.passed or p == player)
        state = dataclasses.replace(state, passed=passed)
        return None, (_end_round(state, None, "both passed", at) if len(passed) == 2 else state)
    if state.phase == "undercut":
        if player == state.claimant:
            return f"waiting for {opponent(state.settings.players, player)} to undercut or pass", state
        deadline = at + state.settings.demo if at else None
        return None, dataclasses.replace(state, phase="demo", demonstrator=state.claimant,
                                         demo_moves=state.claim, deadline=deadline)
    if player != state.demonstrator:
        return f"{state.demonstrator} is demonstrating, not you", state
    return None, _demonstrated(state, False, f"{player} gave up demonstrating {state.demo_moves}", at)


_ACTIONS = {"claim": _claim, "undercut": _undercut, "solution": _solution, "skip": _skip}


def _demonstrated(state: State, success: bool, what: str, at: datetime | None) -> State:
    """Score a demonstration (D1.4), `what` saying how it went; a failed undercut by B halves B's time next round."""
    demonstrator, moves = state.shown()
    scorer = demonstrator if success else opponent(state.settings.players, demonstrator)
    state = dataclasses.replace(state, halve_next=None if success or demonstrator == state.claimant else demonstrator)
    return _end_round(state, scorer, what, at)


def _end_round(state: State, scorer: str | None, what: str, at: datetime | None) -> State:
    settings = state.settings
    scores = tuple(s + (p == scorer) for p, s in zip(settings.players, state.scores))
    log = state.log + (f"round {state.round}: {what}; " + (f"{scorer} scores" if scorer else "no point"),)
    fresh = dataclasses.replace(state, scores=scores, log=log, phase="claims", started=at, deadline=None, extended=None,
                                claimant=None, claim=None, self_undercut=False, demonstrator=None,
                                demo_moves=None, passed=(), halved=state.halve_next, halve_next=None)
    if state.round >= settings.rounds:
        leader = _leader(settings.players, scores)
        if leader or state.round > settings.rounds or settings.tiebreak == "opponent":
            tie = (f"tied {scores[0]}-{scores[1]}: {settings.opponent} wins as the designated opponent" if not leader
                   else f"{leader} won the tiebreak round" if state.round > settings.rounds else "")
            why = Termination.TIEBREAK if tie else Termination.ROUNDS_PLAYED
            return dataclasses.replace(fresh, phase="over", winner=leader or settings.opponent, ending=tie,
                                       termination=why, log=log + ((tie,) if tie else ()))
    return dataclasses.replace(fresh, round=state.round + 1, puzzle=_puzzle(settings, state.round + 1))


def _leader(players: tuple[str, ...], scores: tuple[int, ...]) -> str | None:
    if scores[0] == scores[1]:
        return None
    return players[0] if scores[0] > scores[1] else players[1]
