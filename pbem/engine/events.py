"""Typed events: everything that happens during a turn, in the order it happens.

Stage reports are built from these alone, so each carries what a report line
needs: the stage (1.., 0 for the end of the turn), the robot (None for a
board-only event), and the specifics — squares, cards with their numbers,
damage as ints, and the cause/source (an element key such as `laser@r2c1/W`,
a switch id, or a robot name).

The store keeps them as canonical data (`pbem.formats.canonical`), under their
class name; `EVENT_TYPES` maps the name back to the class.
"""
from __future__ import annotations

import dataclasses
from dataclasses import dataclass
from typing import Any

from .cards import Card
from .geometry import Dir, Square
from .vocabulary import Mode

EVENT_TYPES: dict[str, type["Event"]] = {}


@dataclass(frozen=True)
class Event:
    stage: int
    robot: str | None

    def __init_subclass__(cls, **kwargs: Any) -> None:
        super().__init_subclass__(**kwargs)
        EVENT_TYPES[cls.__name__] = cls

    @property
    def kind(self) -> str:
        return type(self).__name__


# --- robots acting (phase 1) ---------------------------------------------

@dataclass(frozen=True)
class CardPlayed(Event):
    """B5.1: a robot plays the card in its register (`fused` if the register is fused)."""
    register: int
    card: Card
    fused: bool = False


@dataclass(frozen=True)
class Moved(Event):
    """One step by the robot's own card (B3.2: n squares are n steps)."""
    card: Card
    from_sq: Square
    to_sq: Square
    direction: Dir


@dataclass(frozen=True)
class Turned(Event):
    """A turn in place by the robot's own card."""
    card: Card
    from_facing: Dir
    to_facing: Dir


@dataclass(frozen=True)
class Pushed(Event):
    """B6.3: pushed one square by a robot (`by`), directly or down a chain."""
    by: str
    from_sq: Square
    to_sq: Square
    direction: Dir


@dataclass(frozen=True)
class Obstacle(Event):
    """A step that did not happen (B6.1–B6.3, B6b): `cause` wall | fence | gate | drawbridge | robot | locked
    | conveyor (belt conflict); `source` the element key or the blocking robot's name. Causes are `Cause` words
    or element types (or a plug-in's word), kept as text."""
    at: Square
    direction: Dir
    cause: str
    source: str | None = None


@dataclass(frozen=True)
class Damaged(Event):
    """HP lost: `cause` fence | laser | robot-laser | saw (or a plug-in's word); `hp` after the damage."""
    amount: int
    cause: str
    source: str | None
    hp: int


@dataclass(frozen=True)
class DamageAbsorbed(Event):
    """B11: an option (ablative-coat) took `amount` points instead of the robot; `left` points remain."""
    option: str
    amount: int
    left: int


@dataclass(frozen=True)
class OptionSacrificed(Event):
    """B11 botwars: an option given up to cancel one point of damage."""
    option: str


# --- movement by the board -----------------------------------------------

@dataclass(frozen=True)
class Fell(Event):
    """B6.4–B6.6: into a pit, an open trap door or a raised drawbridge (`cause` its type, `source` its key)."""
    at: Square
    cause: str
    source: str


@dataclass(frozen=True)
class Teleported(Event):
    """B6.9: from one teleporter to the next (`source`/`target` their colours)."""
    from_sq: Square
    to_sq: Square
    source: str
    target: str


@dataclass(frozen=True)
class Conveyed(Event):
    """B6b.1: moved one square by a belt (`express` in the express phase)."""
    from_sq: Square
    to_sq: Square
    direction: Dir
    express: bool


@dataclass(frozen=True)
class Rotated(Event):
    """Turned by the board: `cause` conveyor | gear (or a plug-in's word), `source` the element key."""
    from_facing: Dir
    to_facing: Dir
    cause: str
    source: str


@dataclass(frozen=True)
class PushedByPusher(Event):
    """B6b.2: moved one square by a pusher (`source` its key); a robot it shoves on gets `Pushed`."""
    from_sq: Square
    to_sq: Square
    direction: Dir
    source: str


@dataclass(frozen=True)
class Crushed(Event):
    """B6b.4: an active crusher came down on the robot (followed by `Destroyed`)."""
    at: Square
    source: str


@dataclass(frozen=True)
class SawSpun(Event):
    """B6b.6: a buzzsaw drew above the threshold and spun (robot: the one on it, if any)."""
    at: Square
    source: str
    draw: str  # the draw, as text with 4 decimals, for the report (no floats in stored data)


# --- switches and element states ----------------------------------------

@dataclass(frozen=True)
class SwitchFlipped(Event):
    """B6.7/B6.8: a switch or eye changed (`source` its id; `state` on|off; `cause` robot | push | crusher
    | laser …; robot: the robot that pressed it, if any)."""
    source: str
    state: str
    cause: str


@dataclass(frozen=True)
class ElementChanged(Event):
    """A controlled element changed state (`source` its key, `state` the new word, `control` the id)."""
    source: str
    element_type: str
    state: str
    control: str | None


# --- end of stage -------------------------------------------------------

@dataclass(frozen=True)
class FlagTouched(Event):
    """B5.9 botwars: the next flag in order touched."""
    at: Square
    number: int


@dataclass(frozen=True)
class OptionGained(Event):
    """G7/B11: an armoury square gave an option."""
    option: str
    source: str


@dataclass(frozen=True)
class UpgradeGained(Event):
    """G7: a computer square gave an upgrade `SET@ROOM NAME`; `unlocked` when the set becomes usable."""
    upgrade: str
    source: str
    unlocked: bool


@dataclass(frozen=True)
class BecameReal(Event):
    """B9: a virtual robot ended a stage alone in its square."""
    at: Square


@dataclass(frozen=True)
class EnteredGate(Event):
    """G3: the robot entered an open gate; in a room of several gates it is locked there."""
    at: Square
    source: str
    locked: bool


@dataclass(frozen=True)
class LeftRoom(Event):
    """G3: the robot left the room through a gate."""
    at: Square
    room: str


# --- registers ----------------------------------------------------------

@dataclass(frozen=True)
class RegisterFused(Event):
    """B7.1: a register fused, keeping `card` (None: empty, filled later per B7.2)."""
    register: int
    card: Card | None


@dataclass(frozen=True)
class RegisterUnfused(Event):
    """B7.4: repair unfused the lowest fused register; its card is discarded."""
    register: int
    card: Card | None


@dataclass(frozen=True)
class RegisterFilled(Event):
    """B7.2/B10: an empty fused register was filled (`source` deck | random)."""
    register: int
    card: Card
    source: str


# --- destruction, repair, reinstatement, reboot -----------------------

@dataclass(frozen=True)
class Destroyed(Event):
    """B8.1: `cause` damage | pit | trapdoor | drawbridge | crusher (or a plug-in's word); `lives` left."""
    at: Square | None
    cause: str
    lives: int


@dataclass(frozen=True)
class Repaired(Event):
    """B12: HP back from a wrench square (`source` its key); `hp` after."""
    amount: int
    source: str
    hp: int


@dataclass(frozen=True)
class Reinstated(Event):
    """B8/G5: back on the board at the end of the turn."""
    at: Square
    facing: Dir
    mode: Mode
    hp: int


@dataclass(frozen=True)
class RebootStarted(Event):
    """B10: a declared reboot begins at the end of the turn: HP restored to `hp` for the rebooting turn."""
    hp: int


@dataclass(frozen=True)
class RebootEnded(Event):
    """B10: the robot is back online after a rebooting turn."""
    mode: Mode


def quick_init(cls: type) -> None:
    """Give a frozen dataclass (an event, a snapshot's robot) an `__init__` that writes the instance's fields
    straight into its `__dict__`: the one `dataclass(frozen=True)` writes sets each through
    `object.__setattr__`, and a turn makes dozens of events (this makes each ~2.5x cheaper). Same parameters,
    defaults and resulting instance."""
    fields = dataclasses.fields(cls)
    if any(f.default_factory is not dataclasses.MISSING or not f.init for f in fields):
        return  # left to dataclass
    defaults = {f"_{f.name}": f.default for f in fields if f.default is not dataclasses.MISSING}
    params = ", ".join(f.name + (f"=_{f.name}" if f"_{f.name}" in defaults else "") for f in fields)
    lines = "".join(f"\n    d[{f.name!r}] = {f.name}" for f in fields)
    namespace = dict(defaults)
    exec(f"def __init__(self, {params}):\n    d = self.__dict__{lines}", namespace)
    setattr(cls, "__init__", namespace["__init__"])  # noqa: B010 - mypy refuses assigning to __init__


for _cls in list(EVENT_TYPES.values()):
    quick_init(_cls)
