"""Read-only questions about a board, answered with the engine's own rules, for the pictures: where each board
laser's beam stops, and whether an element has a state. A picture asks here and never traces a beam or keeps a
list of element kinds of its own, so it cannot disagree with a turn (or miss a G9 plug-in)."""
from __future__ import annotations

from dataclasses import dataclass
from typing import Any, Iterable, Mapping

from .context import TurnContext
from .geometry import Dir, Square
from .index import Occupancy, index_for
from .mechanism import mechanism
from .phases import trace
from .room import Element, Room
from .ruleset import GEEKO
from .state import Board
from .vocabulary import Mode

ABSENT = (Mode.DESTROYED, Mode.IN_TRANSIT)  # robots not standing on the board


@dataclass(frozen=True)
class Beam:
    """One board laser's beam as it stands: from `start` going `direction`, to the last square it reaches
    (`stop`), where it hits robot `hit` or stops at a wall, fence, eye, closed gate, raised bridge or the edge."""

    source: str  # the laser's element key
    start: Square
    direction: Dir
    stop: Square
    hit: str | None
    beams: int


def board_beams(room: Room, elements: Mapping[str, str], robots: Iterable[Any]) -> list[Beam]:
    """The beams the board's lasers fire in this position (element states `elements`; `robots`: anything with
    name, at, mode and left_room, a snapshot's robot views too). A room holding a kind no mechanism knows (only
    drawn, never played) has no beams the engine can trace."""
    try:
        index = index_for(room)
    except KeyError:
        return []
    ctx = TurnContext(Board(room, {}, dict(elements)), GEEKO, index, seed=0, turn=0)
    occupancy = Occupancy(index, [robot for robot in robots if robot.at is not None and robot.mode not in ABSENT
                                  and not getattr(robot, "left_room", False)])
    found = []
    for mech, element in ctx.index.beam_sources:
        for start, direction, _ in mech.beams(ctx, element):
            target, _, stop = trace(ctx, start, direction, shooter=None, occupancy=occupancy)
            found.append(Beam(element.key, start, direction, stop, None if target is None else target.name,
                              int(element.get("beams", 1) or 1)))
    return found


def has_state(element: Element) -> bool:
    """Whether the element's kind keeps a state on the board (switch on/off, gate open/closed …); a kind no
    mechanism is registered for keeps none."""
    try:
        return mechanism(element.type).initial_state(element) is not None
    except KeyError:
        return False
