"""Squares that act at the end of a stage or turn: flags, wrenches, armouries, computers (B5.9, B12, G6, G7)."""
from __future__ import annotations

from typing import TYPE_CHECKING

from ..cards import CARD_SETS
from ..events import FlagTouched, OptionGained, Repaired, UpgradeGained
from ..mechanism import Field, Mechanism, choice, positive_int, register
from ..options import initial_charges, option_names
from ..room import Element
from ..vocabulary import Mode

if TYPE_CHECKING:  # pragma: no cover
    from ..context import TurnContext


@register
class Flag(Mechanism):
    """botwars: touched in order at the end of a stage; the flag becomes the reinstatement square (B8.1).
    A rebooting robot touches nothing (B10)."""

    type = "flag"
    fields = {"number": Field(positive_int)}
    phases = ("end of stage",)
    robots_only = True
    each_square = True
    plain = True

    def act(self, ctx: TurnContext, phase: str, elements: list[Element]) -> None:
        if not ctx.ruleset.flags:
            return
        for element in elements:
            for robot in ctx.robots_at(element.at):
                if robot.mode != Mode.REBOOTING and element.get("number") == robot.next_flag:
                    robot.next_flag += 1
                    robot.reinstate_at = element.at
                    ctx.emit(FlagTouched(ctx.stage, robot.name, element.at, element.get("number")))


@register
class Wrench(Mechanism):
    """B12: a robot ending the turn here gets `count` × `wrench_repair` HP (capped) and unfuses registers;
    in botwars ending a stage here also makes it the reinstatement square (G6: not in geeko)."""

    type = "wrench"
    fields = {"count": Field(positive_int, required=False, default=1)}
    phases = ("end of stage", "wrench repairs")
    robots_only = True
    each_square = True

    def act(self, ctx: TurnContext, phase: str, elements: list[Element]) -> None:
        for element in elements:
            for robot in ctx.robots_at(element.at):
                if phase == "end of stage":
                    if ctx.ruleset.wrench_is_checkpoint and robot.mode != Mode.REBOOTING:
                        robot.reinstate_at = element.at
                    continue
                before = robot.hp
                robot.hp = min(ctx.ruleset.max_hp, robot.hp + element.get("count", 1) * ctx.ruleset.wrench_repair)
                if robot.hp > before:
                    ctx.emit(Repaired(ctx.stage, robot.name, robot.hp - before, element.key, robot.hp))
                    ctx.refuse(robot, before)


def _option_name(value: object) -> str:
    name = str(value).strip()
    if name not in option_names():
        raise ValueError(f"unknown option {value!r} (known: {', '.join(option_names())})")
    return name


@register
class Armoury(Mechanism):
    """G7: ending a stage here gives the square's option, once per robot per square. Ruling B11: nothing to a
    robot that already holds the option (no second copy, no fresh charges), and the square is not used up."""

    type = "armoury"
    fields = {"option": Field(_option_name)}
    phases = ("end of stage",)
    robots_only = True
    each_square = True

    def act(self, ctx: TurnContext, phase: str, elements: list[Element]) -> None:
        for element in elements:
            mark = f"{ctx.board.room.name}/{element.key}"
            for robot in ctx.robots_at(element.at):
                option = element.get("option")
                if mark in robot.armouries or option in robot.options:
                    continue
                robot.armouries.append(mark)
                robot.options.append(option)
                charges = initial_charges(option)
                if charges is not None:
                    robot.charges[option] = charges
                ctx.emit(OptionGained(ctx.stage, robot.name, option, element.key))


@register
class Computer(Mechanism):
    """G7: ending a stage here gives the upgrade `SET@ROOM NAME` (once per room); the set's cards become
    usable once the robot holds it from `upgrade_rooms` different rooms."""

    type = "computer"
    fields = {"set": Field(choice(*CARD_SETS))}
    phases = ("end of stage",)
    robots_only = True
    each_square = True

    def act(self, ctx: TurnContext, phase: str, elements: list[Element]) -> None:
        for element in elements:
            card_set = element.get("set")
            upgrade = f"{card_set}@{ctx.board.room.name}"
            for robot in ctx.robots_at(element.at):
                if upgrade in robot.upgrades:
                    continue
                robot.upgrades.append(upgrade)
                rooms = sum(1 for u in robot.upgrades if u.split("@", 1)[0] == card_set)
                ctx.emit(UpgradeGained(ctx.stage, robot.name, upgrade, element.key,
                                       rooms == ctx.ruleset.upgrade_rooms))
