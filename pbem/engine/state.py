"""What changes during play: robots and the state of a board's elements.

Plain dataclasses. The resolver never mutates its input: it works on
`Board.copy()`, which copies robots field by field (no deepcopy, it is in the
hot path). The store keeps them as canonical data (`pbem.formats.canonical`).
"""
from __future__ import annotations

from dataclasses import dataclass, field

from .cards import Card
from .geometry import Dir, Square
from .room import Room
from .vocabulary import Mode, parse_word

_OFF_BOARD = (Mode.DESTROYED, Mode.IN_TRANSIT)
_CONTAINERS = ("registers", "upgrades", "options", "armouries", "charges")  # the fields a copy must not share


@dataclass
class Robot:
    name: str
    owner: str = ""
    at: Square | None = None          # None when destroyed, in transit or gone through a gate
    facing: Dir = Dir.N
    hp: int = 10
    mode: Mode = Mode.REAL            # RULES B2.2
    # B7: fused registers, number -> the card kept in it; None = fused while empty
    # (B7.2: the campaign layer fills it from the deck, or the engine at random).
    registers: dict[int, Card | None] = field(default_factory=dict)
    upgrades: list[str] = field(default_factory=list)  # G7: "SET@ROOM NAME", one per computer room
    options: list[str] = field(default_factory=list)   # B11: option names, in the order gained
    next_flag: int = 1                 # botwars: the flag to touch next
    lives: int = 3                     # B8.2 botwars: robots left, this one included
    reinstate_at: Square | None = None  # B8.1: where the board reinstates it (start, last flag or wrench)
    reinstated_turn: int | None = None  # B9: the turn at whose end it was last reinstated
    left_room: bool = False            # G3: went through a gate; waits off-board
    armouries: list[str] = field(default_factory=list)  # G7: "ROOM NAME/element key" of armouries used
    charges: dict[str, int] = field(default_factory=dict)  # B11: option name -> points left (ablative-coat)

    def __post_init__(self) -> None:
        self.mode = parse_word(Mode, self.mode, "mode")  # a word from outside becomes the enum, or is refused

    @property
    def square(self) -> Square:
        """Its square, for a robot the rules act on there (one on the board: a caller has checked)."""
        assert self.at is not None, f"{self.name} has no square"
        return self.at

    @property
    def on_board(self) -> bool:
        """Standing on the board: it can be pushed, conveyed, shot and hurt."""
        return self.at is not None and self.mode not in _OFF_BOARD and not self.left_room

    @property
    def runs_program(self) -> bool:
        """Plays cards: rebooting, destroyed, in-transit and departed robots run nothing (B8, B10, G3, G5)."""
        return self.on_board and self.mode in (Mode.REAL, Mode.VIRTUAL)

    def copy(self) -> "Robot":
        """Every field, its lists and dicts copied (without `__init__`: its fields are already checked)."""
        clone = object.__new__(Robot)
        fields = clone.__dict__
        fields.update(self.__dict__)
        for name in _CONTAINERS:
            fields[name] = fields[name].copy()
        return clone


@dataclass
class Board:
    """One room in play with the robots in it (a Geek-o player's room, or the shared BotWars board).

    `robots` keeps robot order (a player's robots in their order), which the pictures and tables show; the
    engine walks them in name order (`TurnContext.robots_in_order`), the order a state read back from JSON
    has them in, so a turn's events do not depend on whether its state was stored and reloaded. `elements` holds the state word of every
    stateful element by `Element.key`: switch/eye on|off, trapdoor open|closed,
    drawbridge raised|lowered, teleporter active|inactive, gate open|closed, blaser on|off.
    Use `pbem.engine.elements.new_board` to build one with every state initialised.
    """

    room: Room
    robots: dict[str, Robot] = field(default_factory=dict)
    elements: dict[str, str] = field(default_factory=dict)

    def copy(self) -> "Board":
        return Board(self.room, {name: robot.copy() for name, robot in self.robots.items()}, dict(self.elements))
