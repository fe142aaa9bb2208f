"""What changes during play: robots and the state of a board's elements.

Plain, mutable-by-copy dataclasses; the resolver never mutates its input but
works on a deep copy. `formats.canonical` turns them into canonical JSON.
"""
from __future__ import annotations

from dataclasses import dataclass, field

from .cards import Card
from .geometry import Dir, Square
from .room import Room

MODES = ("real", "virtual", "destroyed", "rebooting", "in-transit")


@dataclass
class Robot:
    name: str
    owner: str = ""
    at: Square | None = None
    facing: Dir = Dir.N
    hp: int = 10
    mode: str = "real"
    registers: dict[int, Card] = field(default_factory=dict)  # fused register number -> its card
    upgrades: list[str] = field(default_factory=list)  # G7 computer visits, e.g. "strafe@Loading Dock"
    options: list[str] = field(default_factory=list)  # B11 option names, in the order gained
    next_flag: int = 1  # botwars: the flag to touch next


@dataclass
class Board:
    """One room in play with the robots in it (a Geek-o player's room, or the shared BotWars board)."""

    room: Room
    robots: dict[str, Robot] = field(default_factory=dict)
    elements: dict[str, str] = field(default_factory=dict)  # Element.key -> state word ("on", "open", …)
