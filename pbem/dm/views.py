"""What each death-match game's `render_data` gives its renderers: plain data, typed, no rules.

The pictures, the text boards, the mail and the match page read these and nothing else; a game that changes what
it shows changes its view here, and mypy points at every reader.
"""
from __future__ import annotations

from typing import Optional, TypedDict


class ExtensionView(TypedDict):
    player: str
    seconds: int


class ClockView(TypedDict):
    """A turn game's clock (RULES D5): the turn limit, bonuses by action kind, reserves, GM extensions (seconds)."""

    turn: int
    bonus: dict[str, int]
    reserve: dict[str, int]
    extended: list[ExtensionView]


class TurnView(TypedDict):
    player: str
    roll: int
    move: Optional[list[str]]  # [from, to] cell names; None for a skipped turn


class SkipView(TypedDict):
    player: str
    roll: int


class TakeBackToeView(TypedDict):
    game: str
    rows: list[list[int]]  # stack sizes, rows A-C
    homes: dict[str, str]  # home row letter -> player
    to_move: Optional[str]
    roll: Optional[int]
    turns: dict[str, int]
    turn_limit: int
    clock: Optional[ClockView]
    last: Optional[TurnView]
    skipped: list[SkipView]  # turns skipped automatically since the player to move last moved
    winner: Optional[str]
    ending: str


class KindView(TypedDict):
    letter: str
    name: str
    colour: str


class PlantView(TypedDict):
    player: str
    cells: list[str]


class MissedView(TypedDict):
    pair: list[list[str]]  # two fields, each its four cell names
    move: int  # the plant's place among the plants standing at the end (for order)
    planted: str  # that plant as the mails name it ("R D5 B C4"), "" for the start position
    player: str  # who made the pair ("" for the start position)
    missed_by: Optional[str]


class FlowerFieldView(TypedDict):
    game: str
    variant: str
    kinds: list[KindView]
    board: list[str]  # seven rows of seven letters, "." empty
    lives: dict[str, int]
    clock: Optional[ClockView]
    to_move: Optional[str]
    last: Optional[PlantView]
    event: str
    winner: Optional[str]
    ending: str
    missed: list[MissedView]  # the post-game report (D4.6), once the game is over


class GoalView(TypedDict):
    at: list[int]  # [row, column], from 1
    colour: Optional[str]


class RobotView(TypedDict):
    colour: str
    squares: list[list[int]]


class GyulbotView(TypedDict):
    rows: int
    cols: int
    walls: list[list[int | str]]  # [row, column, side]: each wall once
    robots: list[RobotView]
    goal: GoalView
    round: int
    rounds: int
    phase: str  # claims | undercut | demo | over
    claimant: Optional[str]
    claim: Optional[int]
    demonstrator: Optional[str]
    demo_moves: Optional[int]
    deadline: Optional[str]  # ISO 8601
    scores: dict[str, int]
    log: list[str]
    winner: Optional[str]
    ending: str  # how a match won on a tiebreak was won, else ""


class IceView(TypedDict):
    rows: list[str]  # the maze's map rows
    title: str
    lines: list[str]
    players: list[str]
    scores: list[int]
    history: list[str]
