"""The part every alternating-turn death match shares: turn order and the clock (RULES D5).

A subclass states its rules in `check_move`/`apply_move`; this class refuses
actions after the end and out of turn, states the running deadline for the one
clock (`clock.py`: extensions and timeouts are handled there), turns a late
action into a loss on time, and charges the mover's reserve. States are frozen dataclasses with `clock`, `over` and a
`to_move` property.
"""
from __future__ import annotations

from abc import abstractmethod
from dataclasses import Field, replace
from datetime import datetime
from typing import Any, ClassVar, Protocol, TypeVar

from . import clock as clocks
from .base import Action, Game
from .views import ClockView


class TurnState(Protocol):
    """What this class reads of a turn game's state: a frozen dataclass whose clock starts with the match."""

    __dataclass_fields__: ClassVar[dict[str, Field[Any]]]

    @property
    def clock(self) -> clocks.Clock | None: ...

    @property
    def over(self) -> bool: ...

    @property
    def winner(self) -> str | None: ...

    @property
    def ending(self) -> str: ...

    @property
    def to_move(self) -> str: ...


T = TypeVar("T", bound=TurnState)


class TurnGame(Game[T, Action]):
    @abstractmethod
    def time_control(self, state: T) -> clocks.TimeControl: ...

    @abstractmethod
    def check_move(self, state: T, action: Action) -> str | None:
        """Why the mover's own action is illegal, or None."""

    @abstractmethod
    def apply_move(self, state: T, action: Action) -> T:
        """The state after a legal move (the clock is charged afterwards)."""

    @abstractmethod
    def lose_on_time(self, state: T, player: str) -> T:
        """The state once `player` has run out of time."""

    def action_kind(self, action: Action) -> str | None:
        """The kind of action for time bonuses (e.g. "challenge"); None for none."""
        return None

    def check(self, state: T, action: Action) -> str | None:
        if state.over:
            return f"the game is over: {state.winner} won, {state.ending}"
        at, started = clocks.utc(action.at), _clock(state).started
        if at is not None and started is not None and at < started:
            return f"time stamp {at.isoformat()} is earlier than the previous action's ({started.isoformat()})"
        if clocks.is_clock_action(action):
            return self.judge_clock(state, action)[0]
        if action.player != state.to_move:
            return f"it is {state.to_move}'s turn, not {action.player}'s"
        if self._late(state, action):
            return None  # legal: its effect is the loss on time
        return self.check_move(state, action)

    def apply(self, state: T, action: Action) -> T:
        """The state after `action`; ValueError with the reason when it is illegal (as `check` says)."""
        reason = self.check(state, action)
        if reason is not None:
            raise ValueError(reason)
        if clocks.is_clock_action(action):
            return self.judge_clock(state, action)[1]
        if self._late(state, action):
            return self.lose_on_time(state, state.to_move)
        moved = self.apply_move(state, action)
        clock = clocks.charge(self.time_control(state), _clock(state), action.player, action.at, self.action_kind(action))
        return replace(moved, clock=clock)

    def judge_clock(self, state: T, action: Action) -> tuple[str | None, T]:
        """The GM's extension or timeout, or a timeout claim (`clock.judge_clock`)."""
        return clocks.judge_clock(self, state, action)

    def deadline(self, state: T) -> clocks.Deadline | None:
        if state.over:
            return None
        at = clocks.turn_deadline(self.time_control(state), _clock(state), state.to_move)
        if at is None:
            return None
        other = next(player for player, _ in _clock(state).reserves if player != state.to_move)
        return clocks.Deadline(at, state.to_move, f"{state.to_move} runs out of time; {other} wins")

    def expire(self, state: T, deadline: clocks.Deadline) -> T:
        """The mover lost on time; the ending names the deadline, for a move that comes after it."""
        lost = self.lose_on_time(state, state.to_move)
        return replace(lost, ending=f"{lost.ending} (the deadline was {clocks.when(deadline.at)})")

    def extend(self, state: T, seconds: int, at: datetime | None) -> T:
        return replace(state, clock=clocks.extend(_clock(state), state.to_move, seconds, at))

    def restart(self, state: T, at: datetime) -> T:
        return replace(state, clock=replace(_clock(state), started=clocks.utc(at), extra=0))

    def clock_data(self, state: T) -> ClockView | None:
        """What players see of the clock: the turn limit and each reserve (None when untimed)."""
        control = self.time_control(state)
        if control.turn is None:
            return None
        extra = _clock(state).extra if not state.over else 0  # this turn's extension only: an old one is spent
        return {"turn": control.turn, "bonus": dict(control.bonus or {}), "reserve": dict(_clock(state).reserves),
                "extended": [{"player": state.to_move, "seconds": extra}] if extra else []}

    def _late(self, state: T, action: Action) -> bool:
        control = self.time_control(state)
        return clocks.out_of_time(control, _clock(state), action.player, action.at, self.action_kind(action))


def _clock(state: TurnState) -> clocks.Clock:
    """The match's clock: a turn game starts it with the match (`clock.start`), untimed or not."""
    assert state.clock is not None, "a turn game's state has a clock"
    return state.clock
