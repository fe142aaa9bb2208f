"""The mechanism plug-in interface (RULES G9) and its registry.

Every element type of a room file is a `Mechanism` subclass registered by its
type name. A mechanism says which room-file fields it takes (`fields`, used by
the room loader for its error messages), which state word it starts in, and
which hooks it implements:

Always-on hooks (RULES B6), called by the movement code during any step:
- `blocks_step(ctx, element, robot, frm, to, direction) -> Block | None` — for
  elements on the crossed edge (walls, fences, mounts) or on the entered square
  (closed gates, raised bridge sides): the step does not happen.
- `on_enter(ctx, element, robot, frm, direction, how) -> bool` — the robot has
  moved into the element's square (`how`: card | push | conveyor | pusher |
  teleport or a plug-in's word); True ends the robot's movement (it fell, was
  locked …). Called in `enter_order` (B6.11: falls, presses, teleports), across
  all robots of a simultaneous move in reading order of their squares.
- `holds(ctx, element, robot) -> bool` — the robot cannot be moved off this square.
- `on_press(ctx, element, cause, robot)` — something pressed the square (B6.7).
- `controlled_state(element, on)` / `changed(ctx, element)` — the element's control (switch/eye)
  changed: its new state word, and what follows the change.
- `blocks_beam(ctx, element, square, direction) -> bool` — a laser beam stops
  at this edge (edge elements) or before this square (square elements).
- `on_beam(ctx, element, square, direction)` — a beam stopped at this edge (eyes).
- `beams(ctx, element) -> [(square, direction, damage)]` — board lasers.

Phase hook: `act(ctx, phase, elements)` runs once per stage for every phase
name in `phases` (a `PhaseName`: a step of `pbem.engine.phases.PHASES` or of
the end of the turn), with all elements of this type in reading order of their
squares (never the room file's order). A kind whose `act` does nothing unless a
robot stands on one of its elements sets `robots_only`: its `act` is then not
called while no robot stands on them (the robots' cells are the context's,
kept until a robot is placed). One whose `act` treats each element by
the robots on it alone (no element's effect depends on another element's robots)
also sets `each_square`: it is then given only the elements a robot stands on
(a room four times the size, with four times the robots, costs four times as
much, not sixteen). A mechanism that moves a robot does so with `step` (pbem.engine.movement) or
`ctx.place(robot, square)`, never by setting `robot.at`: the context keeps an index of the robots by
square that every move must update. A new kind only subclasses `Mechanism`,
fills these in and calls `register`, which refuses an unknown phase or a
misspelt hook; the stage loop never changes.
"""
from __future__ import annotations

import difflib
import re
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any, Callable, ClassVar, Iterable

from .geometry import Dir, Square
from .room import Element, Room
from .ruleset import MAX_REGISTERS
from .vocabulary import PhaseName

if TYPE_CHECKING:  # pragma: no cover
    from .context import TurnContext
    from .state import Robot


@dataclass(frozen=True)
class Block:
    """Why a step does not happen: `cause` (wall, fence, gate …), `source` (element key) and HP it costs."""

    cause: str
    source: str
    damage: int = 0


@dataclass(frozen=True)
class Field:
    """One field of an element in a room file: `parse` turns the YAML value into the stored one or raises
    ValueError with the reason; a field that is not `required` takes `default` when absent."""

    parse: Callable[[Any], Any]
    required: bool = True
    default: Any = None


class Mechanism:
    type: ClassVar[str] = ""
    phases: ClassVar[tuple[str, ...]] = ()
    fields: ClassVar[dict[str, Field]] = {}
    enter_order: ClassVar[int] = 50     # B6.11: falls (0), presses (10), teleports (20), gates (30), plug-ins
    is_control: ClassVar[bool] = False  # switches and eyes: other elements name its `id` as `control`
    plain: ClassVar[bool] = False       # decoration only (flags, starts): G8 "not plain floor" ignores it
    robots_only: ClassVar[bool] = False  # `act` needs a robot on one of its elements (see above)
    each_square: ClassVar[bool] = False  # robots_only, each element acting alone on its robots (see above)
    replaces: ClassVar[str] = ""        # a kind already registered that this class means to replace (G9)

    # --- set-up -------------------------------------------------------
    def edges(self, element: Element) -> tuple[tuple[Square, Dir], ...]:
        """The cell edges the element stands on (each is also indexed from its other side)."""
        return ()

    def place(self, element: Element) -> Any:
        """Where the element stands: two elements of one type in one place are a duplicate (refused on
        loading). A square element's square; an edge element's edges."""
        return self.edges(element) or element.at

    def initial_state(self, element: Element) -> str | None:
        """The state word as the room file gives it (for a controlled element: while its control is off),
        or None for a stateless element."""
        return None

    def safe_start(self, element: Element) -> bool:
        """Whether a start square may hold this element (a pit may not)."""
        return True

    def check_room(self, room: Room, elements: list[Element]) -> Iterable[tuple[Element, str, str]]:
        """Room-level problems among this type's elements: (element, field, message)."""
        return ()

    # --- always-on hooks (B6) --------------------------------------------
    def blocks_step(self, ctx: "TurnContext", element: Element, robot: "Robot", frm: Square, to: Square,
                    direction: Dir) -> Block | None:
        return None

    def on_enter(self, ctx: "TurnContext", element: Element, robot: "Robot", frm: Square, direction: Dir,
                 how: str) -> bool:
        return False

    def holds(self, ctx: "TurnContext", element: Element, robot: "Robot") -> bool:
        return False

    def on_press(self, ctx: "TurnContext", element: Element, cause: str, robot: "Robot | None") -> None:
        return None

    def controlled_state(self, element: Element, on: bool) -> str | None:
        """The state word an element takes while its control is on/off (None: no change)."""
        return None

    def on_control(self, ctx: "TurnContext", element: Element, on: bool) -> None:
        word = self.controlled_state(element, on)
        if word is not None and ctx.set_state(element, word, element.get("control")):
            self.changed(ctx, element)

    def changed(self, ctx: "TurnContext", element: Element) -> None:
        """After the element's state changed (a trap door opening under a robot …)."""
        return None

    def blocks_beam(self, ctx: "TurnContext", element: Element, square: Square, direction: Dir) -> bool:
        return False

    def on_beam(self, ctx: "TurnContext", element: Element, square: Square, direction: Dir) -> None:
        return None

    def beams(self, ctx: "TurnContext", element: Element) -> list[tuple[Square, Dir, int]]:
        return []

    # --- phase hook (B6b, B5.9, B12) -------------------------------------
    def act(self, ctx: "TurnContext", phase: str, elements: list[Element]) -> None:
        return None


HOOKS = ("blocks_step", "on_enter", "holds", "on_press", "blocks_beam", "on_beam", "beams")

MECHANISMS: dict[str, Mechanism] = {}
_VERSION = [0]  # bumped by every registration, so cached room indexes notice


INTERFACE = frozenset(name for name in vars(Mechanism) if not name.startswith("_"))
HOOK_PREFIXES = ("on_", "blocks_")
PHASE_WORDS = frozenset(p.value for p in PhaseName)


def register(cls: type[Mechanism]) -> type[Mechanism]:
    """Register a mechanism class under its `type` (usable as a class decorator).

    Refused (ValueError naming the word): a kind already registered by another class, unless the new class says
    `replaces = "pit"` (a plug-in that silently took over `pit` would change every room's pits); a phase that is not one of `PhaseName` (a mechanism for "gear"
    would never act), and a method that looks like a hook but is none (`on_entr`, `blocks_beams`, `holds_`):
    named like a hook, or one letter or two away from one, it would never be called."""
    if not cls.type:
        raise ValueError(f"{cls.__name__} has no type name")
    existing = MECHANISMS.get(cls.type)
    if existing is not None and not _same_class(type(existing), cls) and cls.replaces != cls.type:
        raise ValueError(f"{cls.__name__} registers {cls.type!r}, a kind that exists already "
                         f"({type(existing).__module__}.{type(existing).__qualname__}); to replace it on purpose, "
                         f"give the class replaces = {cls.type!r}")
    for phase in cls.phases:
        if phase not in PHASE_WORDS:
            raise ValueError(f"{cls.__name__} ({cls.type}): unknown phase {phase!r} "
                             f"(phases: {', '.join(p.value for p in PhaseName)})")
    for klass in cls.__mro__[:cls.__mro__.index(Mechanism)]:
        for name, value in vars(klass).items():
            if callable(value) and name not in INTERFACE and _hook_like(name):
                raise ValueError(f"{cls.__name__} ({cls.type}): unknown hook {name!r} "
                                 f"(hooks: {', '.join(sorted(n for n in INTERFACE if callable(getattr(Mechanism, n))))})")
    MECHANISMS[cls.type] = cls()
    _VERSION[0] += 1
    return cls


def _same_class(old: type, new: type) -> bool:
    """The same class, or the same definition run again (a campaign's plug-in file loaded by a second command in
    one process)."""
    return old is new or (old.__module__, old.__qualname__) == (new.__module__, new.__qualname__)


def _hook_like(name: str) -> bool:
    if name.startswith("_"):
        return False
    return name.startswith(HOOK_PREFIXES) or bool(difflib.get_close_matches(name, INTERFACE, n=1, cutoff=0.8))


def registry_version() -> int:
    return _VERSION[0]


def mechanism(type_name: str) -> Mechanism:
    load_builtin()
    return MECHANISMS[type_name]


def known_types() -> list[str]:
    """Every registered element type, sorted."""
    load_builtin()
    return sorted(MECHANISMS)


def implements(mech: Mechanism, hook: str) -> bool:
    """Whether a mechanism overrides a hook (the index only calls those that do)."""
    return getattr(type(mech), hook) is not getattr(Mechanism, hook)


def load_builtin() -> None:
    """The built-in families, then any plug-ins (`plugins.add_loader`) not loaded yet. (Asked once per turn:
    the imports run once.)"""
    if not _BUILTIN:
        from . import mechanisms  # noqa: F401  (registers the built-in families)
        from .plugins import run_loaders

        _BUILTIN.append(run_loaders)
    _BUILTIN[0]()


_BUILTIN: list[Callable[[], None]] = []  # plugins.run_loaders, once the built-in families are registered


# --- field parsers shared by the built-in families --------------------


def direction(value: Any) -> Dir:
    return Dir.parse(value)


def positive_int(value: Any) -> int:
    if isinstance(value, bool) or not isinstance(value, int) or value < 1:
        raise ValueError(f"must be a whole number of at least 1, not {value!r}")
    return value


def stages(value: Any) -> tuple[int, ...]:
    """Register stages 1..MAX_REGISTERS, each once; every bad entry is named in one message."""
    if isinstance(value, int) and not isinstance(value, bool):
        value = [value]
    if not isinstance(value, list) or not value:
        raise ValueError(f"must be a list of stage numbers, not {value!r}")
    reasons, seen = [], set()
    for i, stage in enumerate(value):
        if isinstance(stage, bool) or not isinstance(stage, int) or not 1 <= stage <= MAX_REGISTERS:
            reasons.append(f"[{i}] {stage!r} is not a stage 1..{MAX_REGISTERS}")
        elif stage in seen:
            reasons.append(f"[{i}] stage {stage} is listed twice")
        seen.add(stage)
    if reasons:
        raise ValueError("; ".join(reasons))
    return tuple(sorted(seen))


def boolean(value: Any) -> bool:
    if not isinstance(value, bool):
        raise ValueError(f"must be true or false, not {value!r}")
    return value


def text(value: Any) -> str:
    if not isinstance(value, (str, int)) or isinstance(value, bool) or not str(value).strip():
        raise ValueError(f"must be a name, not {value!r}")
    return str(value).strip()


def word(value: Any) -> str:
    """A name made of letters (a teleporter colour: amber, blue …)."""
    if not isinstance(value, str) or not re.fullmatch(r"[^\W\d_]+(?:[- ][^\W\d_]+)*", value.strip()):
        raise ValueError(f"must be a word such as amber or blue, not {value!r}")
    return value.strip()


def choice(*words: str) -> Callable[[Any], str]:
    def parse(value: Any) -> str:
        word = str(value).strip().lower()
        if word not in words:
            raise ValueError(f"must be one of {', '.join(words)}, not {value!r}")
        return word
    return parse


CONTROL = Field(text, required=False)  # the `id` of a switch or eye (checked by the room loader)
