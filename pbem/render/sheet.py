"""The turn sheet: what a player needs to write orders — HP, fused registers, the hand, and an
order file (DESIGN.md "Orders") already filled in with everything but the programs."""
from __future__ import annotations

from dataclasses import dataclass
from typing import Sequence

import yaml

from ..engine.cards import Card
from ..engine.state import Robot
from . import html

PROGRAMMABLE_MODES = ("real", "virtual")


@dataclass(frozen=True)
class SheetRobot:
    name: str
    mode: str
    hp: int
    fused: list[str]  # "register 9: FWD1#600", highest register first
    program_note: str  # how many registers the program may fill, or why it gets none


@dataclass(frozen=True)
class TurnSheet:
    game: str
    turn: int
    player: str
    robots: list[SheetRobot]
    hand: list[str]
    order_file: str


def _fused_lines(robot: Robot) -> list[str]:
    return [f"register {n}: {card if card else '(empty)'}" for n, card in sorted(robot.registers.items(),
                                                                                 reverse=True)]


def order_file(game: str, turn: int, player: str, robots: Sequence[Robot], hand: Sequence[Card],
               programmable: Sequence[str]) -> str:
    """The order file to edit and send back: valid YAML with empty programs and the hand in a comment."""
    body = yaml.safe_dump(
        {"game": game, "turn": turn, "player": player,
         "robots": {r.name: {"program": []} for r in robots if r.name in programmable}},
        sort_keys=False, allow_unicode=True, default_flow_style=None, width=1000)
    cards = " ".join(str(c) for c in hand) or "(none)"
    head = [f"# Orders for {player}, {game} turn {turn}.",
            "# Fill each program with cards from your hand, by kind (FWD2), number (540) or both (FWD1#500).",
            f"# Hand: {cards}"]
    tail = ["# reboot: [NAME]      # uncomment to reboot a robot next turn (RULES B10)"]
    return "\n".join(head) + "\n" + body + "\n".join(tail) + "\n"


def turn_sheet(game: str, turn: int, player: str, robots: Sequence[Robot], hand: Sequence[Card],
               registers: int = 9, programmable: Sequence[str] | None = None) -> TurnSheet:
    """`programmable`: the robots that receive cards this turn (default: those real or virtual)."""
    can = list(programmable) if programmable is not None else [r.name for r in robots
                                                               if r.mode in PROGRAMMABLE_MODES]
    rows = []
    for robot in robots:
        free = registers - len(robot.registers)
        note = (f"up to {free} card{'s' if free != 1 else ''}" if robot.name in can
                else f"no program this turn ({robot.mode})")
        rows.append(SheetRobot(robot.name, robot.mode, robot.hp, _fused_lines(robot), note))
    return TurnSheet(game, turn, player, rows, [str(c) for c in hand],
                     order_file(game, turn, player, robots, hand, can))


def turn_sheet_html(sheet: TurnSheet, templates: Sequence[str] = ()) -> str:
    return html.render("turn_sheet.html", templates, sheet=sheet)


def turn_sheet_text(sheet: TurnSheet) -> str:
    lines = [f"{sheet.game}, turn {sheet.turn}: turn sheet for {sheet.player}", ""]
    for robot in sheet.robots:
        lines.append(f"{robot.name}: {robot.mode}, HP {robot.hp}, {robot.program_note}")
        lines += [f"    fused {line}" for line in robot.fused]
    lines += ["", "Hand: " + (" ".join(sheet.hand) or "(none)"), "", "Your order file:", "", sheet.order_file]
    return "\n".join(lines)
