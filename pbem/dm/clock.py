"""The one clock of every death-match game (RULES D5), run on action time stamps.

Every game states its running deadline (`Game.deadline`: when, whom it waits
for, what passing it does), how that deadline takes effect (`Game.expire`) and
how a GM extension moves it (`Game.extend`); everything else lives here, the
same for all four games: letting passed deadlines take effect (`advance`), the
GM's `{extend: SECONDS}` and `{timeout: true}` (close the running deadline
now), a player's `{timeout: true}` claim, and `submit`, which records a
deadline that passed before an action as the clock's own action (player `GM`)
so that it takes effect even when the late action itself is refused.

A player's turn starts when the previous accepted action was stamped. Time
beyond the turn limit (plus any bonus for the kind of action, plus any GM
extension) comes out of the player's reserve in whole steps; a player whose
reserve cannot cover it has run out of time, and the game decides what that
means (the death matches here: an instant loss). Untimed actions (historical
transcripts without `at`) are never charged. A GM extends the current
deadline with `{extend: SECONDS}` from player `GM`; the opponent or the GM
claims a fallen flag with `{timeout: true}`. Both are recorded in the clock.
The first mover's clock runs from the match's `start` option; `{told: true}`
from the `GM` starts the running turn again at its stamp with the full time:
the opening mail of a match without `start`, or the mail that tells a player
of an action the GM's inbox could not be read in time for (D5 rulings).
"""
from __future__ import annotations

from dataclasses import dataclass, replace
from datetime import datetime, timedelta, timezone
from typing import Any, Callable, Generic, Mapping, Protocol, TypeVar

from .base import Action, Game, Option

S = TypeVar("S")


class Stamped(Protocol):
    """What the clock reads of any game's action: when it was sent (None: untimed)."""

    @property
    def at(self) -> datetime | None: ...


A = TypeVar("A", bound=Stamped)

GM = "GM"
CLOCK_ABOUT = ("off, or {turn, reserve, step, bonus}: the seconds of a turn, the reserve spent beyond it in steps "
               "of `step`, and extra seconds by kind of action (bonus: {challenge: 60})")
CLOCK_KEYS = ("extend", "timeout", "told")


@dataclass(frozen=True)
class TimeControl:
    """A game's time limits in seconds; `turn=None` means untimed."""

    turn: int | None = None
    reserve: int = 0
    step: int = 1
    bonus: Mapping[str, int] | None = None  # extra seconds by action kind, e.g. {"challenge": 60}

    @classmethod
    def from_options(cls, options: Mapping[str, Any], default: "TimeControl") -> "TimeControl":
        """`options.clock`: `off`, or a mapping overriding turn, reserve, step and bonus."""
        given = options.get("clock")
        if given is None:
            return default
        if given is False or given == "off":
            return cls()
        if not isinstance(given, Mapping):
            raise ValueError("clock must be 'off' or a mapping of turn, reserve, step, bonus")
        unknown = sorted(set(given) - {"turn", "reserve", "step", "bonus"})
        if unknown:
            raise ValueError(f"clock has unknown keys: {', '.join(map(str, unknown))}")
        control = replace(default, **dict(given))
        for name in ("turn", "reserve", "step"):
            value = getattr(control, name)
            if value is not None and (not isinstance(value, int) or isinstance(value, bool) or value < 0):
                raise ValueError(f"clock.{name} must be a whole number of seconds")
        if control.step < 1:
            raise ValueError("clock.step must be at least 1 second")
        return control

    def allowance(self, kind: str | None) -> int:
        return (self.turn or 0) + (self.bonus or {}).get(kind or "", 0)


@dataclass(frozen=True)
class Extension:
    """A deadline extension granted by the GM, as recorded."""

    player: str
    seconds: int
    at: datetime | None


@dataclass(frozen=True)
class Clock:
    reserves: tuple[tuple[str, int], ...]
    started: datetime | None = None  # when the current turn began
    extra: int = 0  # GM extension of the current turn, in seconds
    extensions: tuple[Extension, ...] = ()

    def reserve(self, player: str) -> int:
        return dict(self.reserves)[player]


def start(control: TimeControl, players: tuple[str, ...], at: datetime | None = None) -> Clock:
    """A match's clock; the first mover's turn starts `at` (the `start` option; None: at the first action)."""
    return Clock(tuple((player, control.reserve) for player in players), started=utc(at))


def reserve_used(control: TimeControl, clock: Clock, at: datetime | None, kind: str | None) -> int:
    """Seconds of reserve an action stamped `at` costs (whole steps)."""
    if control.turn is None or at is None or clock.started is None:
        return 0
    over = (at - clock.started).total_seconds() - control.allowance(kind) - clock.extra
    if over <= 0:
        return 0
    steps = -(-int(over * 1000) // (control.step * 1000))
    return steps * control.step


def out_of_time(control: TimeControl, clock: Clock, player: str, at: datetime | None, kind: str | None) -> bool:
    return reserve_used(control, clock, at, kind) > clock.reserve(player)


def charge(control: TimeControl, clock: Clock, player: str, at: datetime | None, kind: str | None) -> Clock:
    """The clock after `player`'s accepted action: reserve spent, next turn started at `at`."""
    used = reserve_used(control, clock, at, kind)
    reserves = tuple((p, s - used if p == player else s) for p, s in clock.reserves)
    return replace(clock, reserves=reserves, started=utc(at), extra=0)  # untimed: no deadline runs (D5 ruling)


def utc(moment: datetime | None) -> datetime | None:
    """Time stamps without a zone are read as UTC, so all of them compare."""
    if moment is None or moment.tzinfo is not None:
        return moment
    return moment.replace(tzinfo=timezone.utc)



def moment(value: Any) -> datetime | None:
    """A time stamp option (a datetime, or ISO 8601 text as JSON stores it) in UTC; None when it is not one."""
    if isinstance(value, str):
        try:
            value = datetime.fromisoformat(value.replace("Z", "+00:00"))
        except ValueError:
            return None
    return utc(value) if isinstance(value, datetime) else None


def read_moment(value: Any, default: Any = None) -> datetime:
    """The `start` option's reader: a time stamp, else ValueError."""
    found = moment(value)
    if found is None:
        raise ValueError(f"must be a time stamp (ISO 8601, like 2026-12-01T20:00:00Z), not {value!r}")
    return found


START = Option(None, read=read_moment, unit="time stamp", shown_default="when the match is opened",
               about="D5: when the first mover's clock starts (ISO 8601, like 2026-12-01T20:00Z)")


def extend(clock: Clock, to_move: str, seconds: int, at: datetime | None) -> Clock:
    """The GM gives the player to move `seconds` more for this turn, recorded."""
    return replace(clock, extra=clock.extra + seconds, extensions=clock.extensions + (Extension(to_move, seconds, at),))


def turn_deadline(control: TimeControl, clock: Clock, player: str) -> datetime | None:
    """When `player`, to move, runs out of time (their reserve included); None when untimed or not started."""
    if control.turn is None or clock.started is None:
        return None
    most = max((control.bonus or {}).values(), default=0)
    return clock.started + timedelta(seconds=control.turn + most + clock.extra + clock.reserve(player))


@dataclass(frozen=True)
class Deadline:
    """A match's running deadline: when it passes, whom it waits for (None: either player) and what passing does."""

    at: datetime
    waiting: str | None
    effect: str
    by_kind: tuple[tuple[str, datetime], ...] = ()  # when actions of some kinds are due earlier: (what, when)


def span(seconds: int) -> str:
    """A duration as players read it: "4 h", "1 h 30 min", "10 min", "1 min 30 s", "45 s"."""
    hours, rest = divmod(seconds, 3600)
    minutes, rest = divmod(rest, 60)
    parts = (f"{hours} h" if hours else "", f"{minutes} min" if minutes else "", f"{rest} s" if rest else "")
    return " ".join(part for part in parts if part) or "0 s"


def control_text(control: TimeControl) -> str:
    """A time control in words, for the rules paragraph of an opening mail."""
    if control.turn is None:
        return "No clock."
    bonus = "".join(f" (+{span(s)} for a {kind})" for kind, s in sorted((control.bonus or {}).items()))
    reserve = f", then a reserve of {span(control.reserve)} spent in steps of {span(control.step)}" if control.reserve else ""
    return f"Clock: {span(control.turn)} a turn{bonus}{reserve}; out of time loses."


def when(moment: datetime) -> str:
    """A time stamp as players read it: to the second, in UTC."""
    return moment.astimezone(timezone.utc).strftime("%Y-%m-%d %H:%M:%S UTC")


def remaining(deadline: datetime, now: datetime) -> str:
    """Time left before `deadline`, as precise as it matters, never more than is left: "4 min 05 s" under ten
    minutes, "35 min" under an hour, "11 h 35 min" beyond ("passed" once it has)."""
    seconds = int((deadline - now).total_seconds())
    if seconds < 0:
        return "passed"
    hours, rest = divmod(seconds, 3600)
    if hours:
        return f"{hours} h {rest // 60} min" if rest >= 60 else f"{hours} h"
    if seconds >= 600:
        return f"{seconds // 60} min"
    return f"{seconds // 60} min {seconds % 60:02d} s"


def advance(game: Game[S, Any], state: S, at: datetime | None,
            running: Callable[[S], Deadline | None] | None = None) -> tuple[S, list[Deadline]]:
    """The state at `at`: every deadline that passed before it has had its effect (in order), and those deadlines
    (`running`: the deadline a claim acts on, when it is not the game's scheduled one)."""
    passed: list[Deadline] = []
    at = utc(at)
    running = running or game.deadline
    while at is not None and not game.is_over(state):
        deadline = running(state)
        if deadline is None or at <= deadline.at:
            break
        state = game.expire(state, deadline)
        passed.append(deadline)
    return state, passed


def judge_clock(game: Game[S, Action], state: S, action: Action,
                running: Callable[[S], Deadline | None] | None = None) -> tuple[str | None, S]:
    """The GM's `extend`/`timeout` and a player's `timeout` claim, the same in every game; `running` gives the
    deadline they act on when it is not the game's scheduled one (D5 ruling on rolls written in actions)."""
    payload, at = action.payload, utc(action.at)
    deadline_of = running or game.deadline
    if len(payload) != 1 or not set(payload) <= set(CLOCK_KEYS):
        return "extend and timeout go alone in an action", state
    if game.is_over(state):
        return "the match is over", state
    if "extend" in payload:
        seconds = payload["extend"]
        if action.player != GM:
            return f"only the {GM} extends a deadline", state
        if not isinstance(seconds, int) or isinstance(seconds, bool) or seconds <= 0:
            return f"extend takes a whole number of seconds, not {seconds!r}", state
        state, _ = advance(game, state, at, deadline_of)
        if game.is_over(state) or deadline_of(state) is None:
            return "no deadline is running", state
        return None, game.extend(state, seconds, at)
    if "told" in payload:
        if action.player != GM or payload["told"] is not True or at is None:
            return f"only the {GM}'s stamped `told: true` says when the player to move was told", state
        restarted = game.restart(state, at)
        if deadline_of(restarted) is None:
            return "no deadline is running", state
        return None, restarted
    if payload["timeout"] is not True:
        return "timeout must be `timeout: true`", state
    if at is None:
        return "a timeout needs a time stamp", state
    current = deadline_of(state)
    after, passed = advance(game, state, at, deadline_of)
    if passed:
        return None, after
    if current is None:
        return "no deadline is running", state
    if action.player != GM:
        if action.player == current.waiting:
            return "a player cannot claim their own time has run out", state
        waiting = current.waiting or "the running deadline"
        return f"{waiting} still has time until {when(current.at)} (claimed at {when(at)})", state
    return None, game.expire(state, replace(current, at=at))  # the GM closes the running deadline now


def is_clock_action(action: object) -> bool:
    """The GM's `extend`/`timeout` or a player's `timeout` claim (a campaign's orders never are)."""
    return isinstance(action, Action) and any(key in action.payload for key in CLOCK_KEYS)


@dataclass(frozen=True)
class Record(Generic[A]):
    """One action to keep: accepted when `reason` is None; `clock` marks the clock's own action."""

    action: A | Action
    reason: str | None
    clock: bool = False


def submit(game: Game[S, A], state: S, action: A, told: datetime | None = None) -> tuple[list[Record[A]], S]:
    """What one submission records, and the state after it (D5 ruling).

    A deadline that passed before a player's action is recorded first, as the
    clock's own `{timeout: true}` at the action's time, so it takes effect even
    when the late action is then refused; the refusal says so. `told`: when the
    player whose turn the action starts was told of it, when that was later than
    its stamp because the GM's inbox could not be read (D5 outage ruling); their
    clock then runs from `told` with the full time, recorded as the clock's own
    `{told: true}`.
    """
    records: list[Record[A]] = []
    passed: list[Deadline] = []
    if not is_clock_action(action):
        state, passed = advance(game, state, action.at)
        if passed:
            records.append(Record(Action(GM, {"timeout": True}, action.at), None, clock=True))
    reason = game.check(state, action)
    if reason is not None and passed:
        lapsed = "; ".join(f"at {when(d.at)} {d.effect}" for d in passed)
        reason = f"too late: {lapsed}. Now: {reason}"
    records.append(Record(action, reason))
    if reason is not None:
        return records, state
    state = game.apply(state, action)
    running = game.deadline(state)
    told, stamp = utc(told), utc(action.at)
    if told is None or running is None or running.waiting in (None, getattr(action, "player", None)) or (
            stamp is not None and told <= stamp):
        return records, state
    restarted = game.restart(state, told)
    if game.deadline(restarted) == running:  # a game whose windows run from the action itself
        return records, state
    return records + [Record(Action(GM, {"told": True}, told), None, clock=True)], restarted
