"""The engine's closed vocabularies: every word a rule depends on, as an enum, so a misspelling is refused
where it enters (a room, a ruleset override, a plug-in's registration) instead of silently meaning nothing.

Each is a `StrEnum`: a member equals its word (`Mode.REAL == "real"`) and prints as it, so stored states and
events keep their plain words. `parse_word` is the one door for words read from outside.
"""
from __future__ import annotations

from enum import StrEnum
from typing import TypeVar

W = TypeVar("W", bound=StrEnum)


class Mode(StrEnum):
    """RULES B2.2: a robot's mode."""

    REAL = "real"
    VIRTUAL = "virtual"
    DESTROYED = "destroyed"
    REBOOTING = "rebooting"
    IN_TRANSIT = "in-transit"


class DeckOrder(StrEnum):
    """B4.2 shuffled every turn (botwars) | B4.3 a pre-set sequence (geeko); also B7.2's fill of empty fused
    registers (random | from the deck)."""

    SHUFFLED = "shuffled"
    PRESET = "preset"


class MissingOrders(StrEnum):
    """B4.6: a missing submission fills the registers from the hand (botwars), idles the robots (geeko), or has
    the robot pilot play them (`bot`, issue #16)."""

    FILL = "fill"
    IDLE = "idle"
    BOT = "bot"


class PhaseName(StrEnum):
    """The steps a mechanism may act in: a stage's phase table (B5) and the end of the turn (B12, G5)."""

    ROBOTS_MOVE = "robots move"
    EXPRESS_CONVEYORS = "express conveyors"
    CONVEYORS = "conveyors"
    PUSHERS = "pushers"
    GEARS = "gears"
    CRUSHERS = "crushers"
    LASERS = "lasers"
    BUZZSAWS = "buzzsaws"
    END_OF_STAGE = "end of stage"
    VIRTUAL_ROBOTS = "virtual robots"
    GATES = "gates"
    CATCH_UP = "catch up in transit"
    WRENCH_REPAIRS = "wrench repairs"
    REINSTATE = "reinstate destroyed robots"
    REBOOTS = "reboots"


class Cause(StrEnum):
    """The engine's own words for how a robot moved, what stopped, pressed, hurt or destroyed it (the events'
    `cause`, a mechanism hook's `how`). Not closed: an element acting stands for itself by its type (a `pit`,
    a `trapdoor`), and a plug-in mechanism may bring its own word (RULES G9), so the events keep `cause: str`."""

    CARD = "card"  # the robot's own program card
    PUSH = "push"  # pushed by a robot (B6.3)
    PUSHER = "pusher"  # B6b.2
    CONVEYOR = "conveyor"  # B6b.1
    TELEPORT = "teleport"  # B6.9: arriving on the far teleporter
    GEAR = "gear"  # B6b.3
    ROBOT = "robot"  # blocked by a robot that cannot move (B6.3, B6b.1)
    LOCKED = "locked"  # held in a gate (G3)
    WALL = "wall"  # B6.1, and every wall-mounted device
    FENCE = "fence"  # B6.2, the board's edge included
    LASER = "laser"  # a board laser (B6b.5), or a beam into an eye (B6.8)
    ROBOT_LASER = "robot-laser"  # a robot's own laser (B6b.5)
    SAW = "saw"  # B6b.6
    CRUSHER = "crusher"  # B6b.4
    DAMAGE = "damage"  # destroyed by losing its last HP (B8.1)


def parse_word(kind: type[W], value: object, what: str) -> W:
    """`value` as a member of `kind`, or ValueError naming `what` and the allowed words."""
    for member in kind:
        if member.value == value:
            return member
    raise ValueError(f"{what} must be one of {', '.join(m.value for m in kind)}, not {value!r}")


class Termination(StrEnum):
    """Why a game ended, as its outcome says (`campaign.result`, `dm.base.Result`): the rule that ended it. Who won
    is the outcome's own field: a match may end in a draw for any of these."""

    LAST_FLAG = "last flag"  # BotWars (B12): a robot touched the last flag
    ALL_OUT = "out of lives"  # BotWars (B8): every robot lost its last life; the standings decide
    ALL_THROUGH = "all through"  # Geek-o (G1): every player's robots left the last room
    ROUNDS_PLAYED = "rounds played"  # Gyulbot (D1.4), Ice maze (D2.3): the last round was played
    TIEBREAK = "tiebreak"  # Gyulbot (D1.4): a tie after the last round, settled by a round or the designated opponent
    TARGET_SCORE = "target score"  # Ice maze (D2.3): a player reached the points to win
    THREE_STACKS = "three equal stacks"  # Take-Back-Toe (D3.3)
    TURN_LIMIT = "turn limit"  # Take-Back-Toe (D3.4): every turn played, the home pieces decide
    NO_LIVES = "no lives left"  # Flower Field (D4.5): a player lost their last life
    BOARD_FULL = "board full"  # Flower Field (D4.5): the board is full, the lives decide
    OUT_OF_TIME = "out of time"  # D5: a player's clock ran out

# Whether a game is over before its first turn (`campaign.new_game(setup).is_over`): never — no winners yet, no
# player finished, every robot with at least one life (B8.2's range starts at 1). Said here, where the store's
# plain-SQL `game list` reads it without loading the engine; tests/test_read_rows.py checks the engine agrees.
NEW_GAME_IS_OVER = False
