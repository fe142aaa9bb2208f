"""The rules of Nim: heaps of objects (A, B, C, ...); in turn each player takes one or more objects from one heap;
whoever takes the last object wins, or loses in the `misere` variant. Every turn runs on the match clock as in
every other match (RULES D5 and its rulings, through `TurnGame`): out of time loses.

An action is `{take: N from HEAP}` (`take: 2 from B` in a mail's `action:` line).
"""
from __future__ import annotations

import re
from dataclasses import dataclass, replace
from datetime import datetime
from enum import StrEnum
from typing import Any

from pbem.dm import clock as clocks
from pbem.dm.base import Action, Config, Option, Result, Setup, opponent
from pbem.dm.turngame import TurnGame
from pbem.engine.vocabulary import Termination

from .board import NimView

HEAP_NAMES = "ABCDEFGHIJ"
MOST_OBJECTS = 99
MISERE = "misere"
DEFAULT_CLOCK = clocks.TimeControl(turn=24 * 3600, reserve=0, step=1)  # a day a move, no reserve
_TAKE = re.compile(r"^\s*(\d+)\s+from\s+(?:heap\s+)?([A-Za-z])\s*$", re.IGNORECASE)


class Ending(StrEnum):
    """Why a game of Nim ended, besides the clock (`Termination.OUT_OF_TIME`): Nim declares its own word."""

    LAST_OBJECT = "last object taken"


def read_heaps(value: Any, default: tuple[int, ...]) -> tuple[int, ...]:
    """`3,4,5` or `[3, 4, 5]`: one to ten heaps of 1 to 99 objects."""
    items = value.split(",") if isinstance(value, str) else value if isinstance(value, list) else None
    try:
        heaps = tuple(int(str(item).strip()) for item in items or [] if not isinstance(item, bool))
    except ValueError:
        heaps = ()
    if not items or len(heaps) != len(items) or not 1 <= len(heaps) <= len(HEAP_NAMES) \
            or not all(1 <= n <= MOST_OBJECTS for n in heaps):
        raise ValueError(f"one to {len(HEAP_NAMES)} heaps of 1 to {MOST_OBJECTS} objects, like 3,4,5, not {value!r}")
    return heaps


OPTIONS = {
    "heaps": Option((3, 4, 5), read=read_heaps, unit="objects", shown_default="3,4,5",
                    about="the objects in each heap, heaps A, B, C, ... in order"),
    "clock": Option(DEFAULT_CLOCK, read=lambda value, default: clocks.TimeControl.from_options({"clock": value}, default),
                    unit="seconds", shown_default="{turn: 86400, reserve: 0, step: 1}", about=clocks.CLOCK_ABOUT),
    "start": clocks.START,
}


@dataclass(frozen=True)
class Settings:
    heaps: tuple[int, ...]
    clock: clocks.TimeControl
    start: datetime | None = None


@dataclass(frozen=True)
class Take:
    player: str
    count: int
    heap: int


@dataclass(frozen=True)
class State:
    config: Config
    settings: Settings
    heaps: tuple[int, ...]
    takes: tuple[Take, ...] = ()
    winner: str | None = None
    ending: str = ""
    termination: StrEnum | None = None
    clock: clocks.Clock | None = None

    @property
    def players(self) -> tuple[str, str]:
        return self.config.players  # type: ignore[return-value]

    @property
    def to_move(self) -> str:
        return self.players[len(self.takes) % 2]

    @property
    def over(self) -> bool:
        return self.winner is not None

    @property
    def misere(self) -> bool:
        return self.config.variant == MISERE


def parse_take(text: object, heaps: int) -> tuple[int, int]:
    """`2 from B` -> (2, heap index 1); ValueError saying what an action looks like."""
    found = _TAKE.match(str(text))
    heap = HEAP_NAMES.find(found.group(2).upper()) if found else -1
    if found is None or not 0 <= heap < heaps:
        names = f"{HEAP_NAMES[0]}-{HEAP_NAMES[heaps - 1]}" if heaps > 1 else HEAP_NAMES[0]
        raise ValueError(f"a take is N from HEAP (heaps {names}), like 'take: 2 from B', not {text!r}")
    return int(found.group(1)), heap


class Nim(TurnGame[State]):
    name = "nim"
    title = "Nim"
    options = OPTIONS

    def new_state(self, config: Config) -> State:
        setup = Setup(config, OPTIONS)
        setup.two_players("Nim")
        if config.variant not in (None, MISERE):
            setup.problem("variant", f"Nim's one variant is {MISERE} (who takes the last object loses), "
                                     f"not {config.variant!r}")
        settings = Settings(**setup.read(OPTIONS))
        setup.done()
        return State(config, settings, settings.heaps, clock=clocks.start(settings.clock, config.players,
                                                                           settings.start))

    def candidates(self, state: State) -> list[Action]:
        return [Action(state.to_move, {"take": f"{count} from {HEAP_NAMES[heap]}"})
                for heap, size in enumerate(state.heaps) for count in range(1, size + 1)]

    def hints(self, state: State, player: str) -> list[str]:
        if state.over or player != state.to_move:
            return []
        heap = max(range(len(state.heaps)), key=lambda index: state.heaps[index])
        return [f"{{take: 1 from {HEAP_NAMES[heap]}}}  take 1 or more objects from one heap (any such take: "
                "N from HEAP)"]

    def news(self, before: State, after: State) -> list[str]:
        lines = [f"{take.player} took {take.count} from {HEAP_NAMES[take.heap]}"
                 for take in after.takes[len(before.takes):]]
        return lines + ([f"{after.winner} wins: {after.ending}"] if after.over and not before.over else [])

    def rules_text(self, state: State) -> str:
        first = state.players[0]
        heaps = ", ".join(f"{HEAP_NAMES[i]} {n}" for i, n in enumerate(state.settings.heaps))
        last = "loses (misere)" if state.misere else "wins"
        return (f"Nim: heaps of objects ({heaps}). In turn, {first} first, each player takes one or more objects "
                f"from one heap; whoever takes the last object {last}. {clocks.control_text(state.settings.clock)}")

    def time_control(self, state: State) -> clocks.TimeControl:
        return state.settings.clock

    def check_move(self, state: State, action: Action) -> str | None:
        unknown = sorted(map(str, set(action.payload) - {"take"}))
        if unknown or "take" not in action.payload:
            return f"unknown field {unknown[0]!r} (a turn is take: N from HEAP)" if unknown else \
                "a turn is take: N from HEAP, like {take: 2 from B}"
        try:
            count, heap = parse_take(action.payload["take"], len(state.heaps))
        except ValueError as err:
            return str(err)
        if not 1 <= count <= state.heaps[heap]:
            return f"heap {HEAP_NAMES[heap]} holds {state.heaps[heap]}: take 1 to {state.heaps[heap]}, not {count}" \
                if state.heaps[heap] else f"heap {HEAP_NAMES[heap]} is empty"
        return None

    def apply_move(self, state: State, action: Action) -> State:
        count, heap = parse_take(action.payload["take"], len(state.heaps))
        heaps = tuple(size - count if index == heap else size for index, size in enumerate(state.heaps))
        after = replace(state, heaps=heaps, takes=state.takes + (Take(action.player, count, heap),))
        if any(heaps):
            return after
        winner = opponent(state.players, action.player) if state.misere else action.player
        how = f"{action.player} took the last object" + (" (misere: that loses)" if state.misere else "")
        return replace(after, winner=winner, ending=how, termination=Ending.LAST_OBJECT)

    def lose_on_time(self, state: State, player: str) -> State:
        return replace(state, winner=opponent(state.players, player), ending=f"{player} ran out of time",
                       termination=Termination.OUT_OF_TIME)

    def is_over(self, state: State) -> bool:
        return state.over

    def result(self, state: State) -> Result:
        return Result(state.over, state.winner, termination=state.termination)

    def render_data(self, state: State) -> NimView:
        last = state.takes[-1] if state.takes else None
        return {
            "game": self.name,
            "heaps": {HEAP_NAMES[index]: size for index, size in enumerate(state.heaps)},
            "misere": state.misere,
            "to_move": None if state.over else state.to_move,
            "last": None if last is None else {"player": last.player, "count": last.count,
                                               "heap": HEAP_NAMES[last.heap]},
            "clock": self.clock_data(state),
            "winner": state.winner,
            "ending": state.ending,
        }
