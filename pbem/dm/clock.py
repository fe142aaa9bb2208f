"""Clocks of the death-match games (RULES D5), checked against action time stamps.

A player's turn starts when the previous accepted action was stamped. Time
beyond the turn limit (plus any bonus for the kind of action, plus any GM
extension) comes out of the player's reserve in whole steps; a player whose
reserve cannot cover it has run out of time, and the game decides what that
means (the death matches here: an instant loss). Untimed actions (historical
transcripts without `at`) are never charged. A GM extends the current
deadline with `{extend: SECONDS}` from player `GM`; the opponent or the GM
claims a fallen flag with `{timeout: true}`. Both are recorded in the clock.
Answer windows (Gyulbot, Ice maze) use `within`.
"""
from __future__ import annotations

from dataclasses import dataclass, replace
from datetime import datetime, timedelta, timezone
from typing import Any, Mapping

from .base import Action

GM = "GM"
CLOCK_KEYS = ("extend", "timeout")


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


def start(control: TimeControl, players: tuple[str, ...]) -> Clock:
    return Clock(tuple((player, control.reserve) for player in players))


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
    return replace(clock, reserves=reserves, started=at if at is not None else clock.started, extra=0)


def utc(moment: datetime | None) -> datetime | None:
    """Time stamps without a zone are read as UTC, so all of them compare."""
    if moment is None or moment.tzinfo is not None:
        return moment
    return moment.replace(tzinfo=timezone.utc)


def within(opened: datetime | None, at: datetime | None, window: int, extra: int = 0) -> bool:
    """Whether an answer stamped `at` falls in a window of `window` (+`extra`) seconds from `opened`."""
    if opened is None or at is None:
        return True
    return at <= opened + timedelta(seconds=window + extra)


def is_clock_action(action: Action) -> bool:
    return any(key in action.payload for key in CLOCK_KEYS)


def check_clock_action(control: TimeControl, clock: Clock, to_move: str, action: Action) -> str | None:
    """Why an `extend` or `timeout` action is refused, or None."""
    payload = action.payload
    if set(payload) - {"extend", "timeout"} or len(payload) != 1:
        return "extend and timeout go alone in an action"
    if "extend" in payload:
        seconds = payload["extend"]
        if action.player != GM:
            return f"only the {GM} extends a deadline"
        if not isinstance(seconds, int) or isinstance(seconds, bool) or seconds <= 0:
            return "extend needs a positive number of seconds"
        return None
    if payload["timeout"] is not True:
        return "timeout must be `true`"
    if action.player == to_move:
        return "a player cannot claim their own time has run out"
    if action.at is None:
        return "a timeout claim needs a time stamp"
    if not out_of_time(control, clock, to_move, action.at, None):
        return f"{to_move} still has time at {action.at.isoformat()}"
    return None


def extend(clock: Clock, to_move: str, seconds: int, at: datetime | None) -> Clock:
    """The GM gives the player to move `seconds` more for this turn, recorded."""
    return replace(clock, extra=clock.extra + seconds, extensions=clock.extensions + (Extension(to_move, seconds, at),))
