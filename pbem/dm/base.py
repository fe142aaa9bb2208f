"""One interface for every game, in the spirit of OpenSpiel: the death matches, and BotWars/Geek-o through
their adapter (`campaign.py`).

A game is a stateless object listed by name in `pbem.games`; its states are plain data.
Every action is checked first (`check` returns the reason it is illegal) and
only a legal action is applied, so an illegal one changes nothing. All of it
is pure: time stamps come in with the actions, dice from the seeded RNG
(RULES B13) or from the action itself.
"""
from __future__ import annotations

from abc import ABC, abstractmethod
from dataclasses import dataclass, field
from datetime import datetime
from enum import StrEnum
from functools import partial
from typing import TYPE_CHECKING, Any, Callable, ClassVar, Generic, Iterable, Mapping, TypeVar

if TYPE_CHECKING:
    from .clock import Deadline


class SetupError(ValueError):
    """A game refusing its set-up, with every (field, message) problem at once.

    Fields are `players`, `variant`, `options.NAME` or `puzzles[I]`; the
    transcript reader turns them into file/line problems.
    """

    def __init__(self, problems: list[tuple[str, str]]):
        self.problems = list(problems)
        super().__init__("; ".join(f"{field}: {message}" for field, message in self.problems))


@dataclass(frozen=True)
class Option:
    """A set-up option declared as data: its default, and the values it may take — `choices`, a `whole` number
    of at least 1, or what `read(value, default)` accepts (it raises ValueError saying what is wrong); its `unit`
    and what it is `about`, for `pbem dm options` and `pbem dm new --help`."""

    default: Any = None
    choices: tuple[Any, ...] = ()
    whole: bool = False
    read: Callable[[Any, Any], Any] | None = None
    unit: str = ""
    about: str = ""
    shown_default: str | None = None  # the default in words, when it is not a plain value (e.g. "the variant's")
    new: Any = None  # what a match created now records when not given (`default`: what its absence means)

    def describe(self, name: str) -> dict[str, Any]:
        """The option as plain data: name, default (in words where it has no plain value), unit, the values it
        may take (a list of choices, or None), about."""
        default = self.shown_default if self.shown_default is not None else self.default
        return {"name": name, "default": default, "unit": self.unit, "choices": list(self.choices) or None,
                "about": self.about}


def new_options(spec: Mapping[str, Option], given: Mapping[str, Any]) -> dict[str, Any]:
    """A new match's options: those given, and each option's `new` value where it has one and none is given, so
    that a later pbem reads the match as it was made (a stored match without the option keeps its `default`)."""
    return {**given, **{name: option.new for name, option in spec.items() if option.new is not None
                        and name not in given}}


class Setup:
    """Reads a match's players, variant and options, collecting every problem (raised by `done`)."""

    def __init__(self, config: "Config", known: Iterable[str]):
        self.config = config
        known = tuple(known)
        self.problems: list[tuple[str, str]] = [
            (f"options.{key}", f"unknown option (known: {', '.join(known)})")
            for key in sorted(map(str, config.options)) if key not in known]

    def read(self, spec: Mapping[str, Option], defaults: Mapping[str, Any] | None = None) -> dict[str, Any]:
        """Every option of `spec` as given or by default (`defaults` overrides a declared default, e.g. the
        variant's); each bad one is a problem naming what it may be, and takes its default."""
        values = {}
        for name, option in spec.items():
            default = (defaults or {}).get(name, option.default)
            if option.whole:
                values[name] = self.whole(name, default)
            elif option.choices:
                values[name] = self.choice(name, default, option.choices)
            elif option.read is not None and name in self.config.options:
                read = partial(option.read, self.config.options[name], default)
                values[name] = self.checked(f"options.{name}", read, default)
            else:
                values[name] = self.config.options.get(name, default)
        return values

    def problem(self, field: str, message: str) -> None:
        self.problems.append((field, message))

    def two_players(self, title: str) -> None:
        players = self.config.players
        if len(players) != 2 or players[0] == players[1]:
            self.problem("players", f"{title} needs two different players")

    def no_variant(self, title: str) -> None:
        if self.config.variant is not None:
            self.problem("variant", f"{title} has no variants, not {self.config.variant!r}")

    def choice(self, name: str, default: Any, allowed: tuple[Any, ...]) -> Any:
        value = self.config.options.get(name, default)
        if value not in allowed or isinstance(value, bool) != isinstance(default, bool):
            self.problem(f"options.{name}", f"must be one of {', '.join(map(str, allowed))}, not {value!r}")
            return default
        return value

    def whole(self, name: str, default: int) -> int:
        value = self.config.options.get(name, default)
        if not isinstance(value, int) or isinstance(value, bool) or value < 1:
            self.problem(f"options.{name}", f"must be a whole number of at least 1, not {value!r}")
            return default
        return value

    def checked(self, field: str, read: Callable[[], Any], fallback: Any) -> Any:
        """`read()`, or `fallback` with its ValueError recorded as a problem of `field`."""
        try:
            return read()
        except ValueError as err:
            self.problem(field, str(err))
            return fallback

    def done(self) -> None:
        if self.problems:
            raise SetupError(self.problems)


@dataclass(frozen=True)
class Config:
    """A match's fixed set-up: the DESIGN.md transcript header."""

    game: str
    players: tuple[str, ...]
    variant: str | None = None
    options: Mapping[str, Any] = field(default_factory=dict)
    seed: int = 0
    puzzles: tuple[Any, ...] = ()


@dataclass(frozen=True)
class Action:
    """One submission: who, when (None when the transcript has no time), and what."""

    player: str
    payload: Mapping[str, Any]
    at: datetime | None = None


@dataclass(frozen=True)
class Result:
    """A game's outcome: whether it is over, who won (None: a draw, a shared first place, or still running), the
    tally (scores or lives), each player's place where the game ranks them (1 first, a tie sharing one), and why it
    ended (`termination`, None while it runs: a word of `engine.vocabulary.Termination` for the shipped games, any
    StrEnum a game declares for its own endings)."""

    over: bool
    winner: str | None
    scores: Mapping[str, int] | None = None
    lives: Mapping[str, int] | None = None
    termination: StrEnum | None = None
    places: Mapping[str, int] | None = None


S = TypeVar("S")  # a game's state: plain, frozen data
A = TypeVar("A")  # a game's action: what one player submits (the death matches: `Action`)


class Game(ABC, Generic[S, A]):
    """The rules of one game, over its own state type `S` and action type `A`."""

    name: ClassVar[str]
    title: ClassVar[str] = ""  # as players read it ("Take-Back-Toe")
    options: ClassVar[Mapping[str, "Option"]] = {}  # its set-up options, declared as data

    @abstractmethod
    def new_state(self, config: Config) -> S:
        """The position before the first action."""

    @abstractmethod
    def check(self, state: S, action: A) -> str | None:
        """Why `action` is illegal in `state`, or None when it is legal."""

    @abstractmethod
    def apply(self, state: S, action: A) -> S:
        """The state after a legal `action`; `state` itself is left unchanged."""

    @abstractmethod
    def is_over(self, state: S) -> bool: ...

    @abstractmethod
    def result(self, state: S) -> Result: ...

    @abstractmethod
    def render_data(self, state: S) -> Mapping[str, Any]:
        """What a renderer needs to draw the position (plain data, no rules): the game's view in `views.py`."""

    def candidates(self, state: S) -> list[A]:
        """Untimed actions worth trying now, a superset of the legal ones that matter for play (a game whose
        answers are free text lists the short ones); `legal_actions` keeps those `check` accepts."""
        return []

    def legal_actions(self, state: S) -> list[A]:
        """The legal actions among `candidates`, for random playouts and bots; empty once the game is over."""
        return [] if self.is_over(state) else [a for a in self.candidates(state) if self.check(state, a) is None]

    def hints(self, state: S, player: str) -> list[str]:
        """What `player` may send now, as example payloads with a word on each (empty: nothing, wait)."""
        return []

    def news(self, before: S, after: S) -> list[str]:
        """What happened between two states, in the words of the match's own record (an ack's headline)."""
        return []

    def rules_text(self, state: S) -> str:
        """This game's rules in a short paragraph with the match's option values (the opening mail's)."""
        return ""

    def waiting(self, state: S, player: str) -> str | None:
        """What `player`, with nothing to send, waits for when it is not the opponent (e.g. the GM's roll)."""
        return None

    def transcript_options(self, options: dict[str, Any], actions: list[A]) -> dict[str, Any]:
        """The options a transcript's history implies where its header is silent (DESIGN: written rolls)."""
        return options

    def deadline(self, state: S) -> Deadline | None:
        """The running `clock.Deadline`, or None (untimed, not started, or over)."""
        return None

    def expire(self, state: S, deadline: Deadline) -> S:
        """The state once `deadline` (the running one, perhaps moved earlier by the GM) has passed."""
        raise NotImplementedError(f"{self.name} has no deadlines")

    def extend(self, state: S, seconds: int, at: datetime | None) -> S:
        """The state with the running deadline `seconds` later (a GM extension made `at`, recorded)."""
        raise NotImplementedError(f"{self.name} has no deadlines")

    def restart(self, state: S, at: datetime) -> S:
        """The state with the running turn starting again `at`, with the full time: its player was told of it only
        then (D5 ruling on an inbox outage). A game without such turns keeps its deadlines."""
        return state


class JudgedGame(Game[S, A]):
    """A game whose rules are one function judging an action: its `check` and `apply` both come from `judge`."""

    @abstractmethod
    def judge(self, state: S, action: A) -> tuple[str | None, S]:
        """(why `action` is illegal, `state`) or (None, the state after it)."""

    def check(self, state: S, action: A) -> str | None:
        return self.judge(state, action)[0]

    def apply(self, state: S, action: A) -> S:
        reason, after = self.judge(state, action)
        if reason is not None:
            raise ValueError(reason)
        return after


def opponent(players: tuple[str, ...], player: str) -> str:
    """The other player of a two-player match."""
    first, second = players
    return second if player == first else first


AnyGame = Game[Any, Action]  # a death match whose state type the caller does not know
GAMES: dict[str, AnyGame] = {}  # each death match's rules object, made once when first asked for


def get_game(name: str) -> AnyGame:
    """The rules of the death match `name`, as `pbem.games` lists it; KeyError naming the known ones."""
    from .. import games

    if name not in GAMES:
        GAMES[name] = games.part(games.entry(name, games.Kind.MATCH).rules)()
    return GAMES[name]


@dataclass
class Replay:
    state: Any
    result: Result
    errors: list[tuple[int, str]]  # (index of the action in the transcript, reason)


def replay(config: Config, actions: list[Action]) -> Replay:
    """Apply a whole history; an illegal action is recorded in `errors` and skipped.

    Deadlines pass as they would live (`clock.submit`): one that passed before
    an action takes effect even when that action is refused.
    """
    from .clock import submit

    game = get_game(config.game)
    state = game.new_state(config)
    errors: list[tuple[int, str]] = []
    for index, action in enumerate(actions):
        records, state = submit(game, state, action)
        if records[-1].reason is not None:
            errors.append((index, records[-1].reason))
    return Replay(state, game.result(state), errors)
