"""The working state of one turn, and the few things every mechanism does through it.

A `TurnContext` owns the working copy of the board, the event list and the
stage number; damage (B7, B11), destruction (B8), pressing squares (B6.7) and
switching controls all go through it so that every change leaves its event.
A robot changes square only through `place`, which keeps the context's index of
robots by square true: asking who stands on a square costs the same whatever
the number of robots.
"""
from __future__ import annotations

import random
from bisect import insort
from operator import attrgetter
from typing import Mapping, Sequence

from .cards import Card
from .deal import fused_count
from .events import (
    DamageAbsorbed,
    Damaged,
    Destroyed,
    ElementChanged,
    Event,
    OptionSacrificed,
    RegisterFused,
    RegisterUnfused,
    SwitchFlipped,
)
from .geometry import Square
from .index import RoomIndex
from .options import option_effect
from .rng import derive_rng
from .room import Element
from .ruleset import Ruleset
from .state import Board, Robot
from .vocabulary import Cause, Mode

_name = attrgetter("name")  # a robot's name: the order the engine walks robots in


class TurnContext:
    def __init__(self, board: Board, ruleset: Ruleset, index: RoomIndex, *, seed: int | str, turn: int,
                 sequences: Mapping[str, Sequence[Card | None]] | None = None,
                 option_hp: Mapping[str, int] | None = None, declared_reboots: frozenset[str] = frozenset(),
                 record: bool = True):
        self.board = board
        self.ruleset = ruleset
        self.index = index
        self.seed = seed
        self.turn = turn
        self.stage = 0
        self.sequences = sequences or {}
        self.option_hp = option_hp or {}
        self.declared_reboots = declared_reboots
        self.events: list[Event] = []
        self.record = record  # False: events of what changes nothing may be left out (`resolve_turn`)
        self.destroyed: set[str] = set()  # robots destroyed during this turn (B10: their declared reboot lapses)
        # name order, whatever order the board was made in (a state read back from JSON has its keys sorted): the
        # events come in one order whether or not the state was reloaded; a turn adds or removes no robot
        self.robots_in_order = tuple(sorted(board.robots.values(), key=_name))
        self.started_rebooting = frozenset(n for n, r in board.robots.items() if r.mode == Mode.REBOOTING)
        self._standing: dict[Square, list[Robot]] | None = None  # see `standing`
        self._occupied: int | None = None  # see `occupied_cells`

    # --- bookkeeping ------------------------------------------------------
    def emit(self, event: Event) -> None:
        self.events.append(event)

    def rng(self, purpose: str, entity: str = "") -> random.Random:
        return derive_rng(self.seed, self.turn, self.stage, purpose, entity)

    @property
    def robots(self) -> list[Robot]:
        return list(self.robots_in_order)

    def on_board(self) -> list[Robot]:
        return [r for r in self.robots_in_order if r.on_board]

    @staticmethod
    def solid(robot: Robot) -> bool:
        """Takes part in robot interactions (B9: a virtual robot does not)."""
        return robot.on_board and robot.mode != Mode.VIRTUAL

    # --- where the robots stand ----------------------------------------------
    def standing(self) -> dict[Square, list[Robot]]:
        """The robots with a square, by square, each square's in name order (`robots_in_order`). Asked at every
        step and by every element acting on its own square: scanning every robot instead made a turn cost the
        square of the number of robots. Built when first asked (a context made to ask `locked` never needs it),
        then kept by `place`, the one way a robot changes square during a turn. Whether a robot counts (on the
        board, solid) is asked of the few robots found, so a change of mode needs no update."""
        if self._standing is None:
            self._standing = {}
            for robot in self.robots_in_order:
                if robot.at is not None:
                    self._standing.setdefault(robot.at, []).append(robot)
        return self._standing

    def place(self, robot: Robot, square: Square | None) -> None:
        """Put `robot` on `square` (None: off the board: destroyed, in transit, gone through a gate)."""
        self._occupied = None
        standing = self._standing
        if standing is not None:
            if robot.at is not None:
                here = standing[robot.at]
                if len(here) == 1:
                    del standing[robot.at]
                else:
                    here[:] = [other for other in here if other is not robot]
            if square is not None:
                there = standing.get(square)
                if there is None:
                    standing[square] = [robot]
                else:
                    insort(there, robot, key=_name)
        robot.at = square

    def solid_at(self, square: Square) -> Robot | None:
        """The robot taking part in robot interactions on `square` (B9), if any."""
        for robot in self.standing().get(square, ()):
            if robot.mode != Mode.VIRTUAL and robot.on_board:
                return robot
        return None

    def robots_at(self, square: Square) -> list[Robot]:
        """The robots on the board on `square`, in name order."""
        return [robot for robot in self.standing().get(square, ()) if robot.on_board]

    def occupied_cells(self) -> int:
        """The cells of the robots on the board, as bits (`RoomIndex.cell`). Kept until a robot is placed: a robot
        leaves the board only through `place` (destroyed, in transit, gone through a gate)."""
        if self._occupied is None:
            stride, cells = self.index.stride, 0
            for robot in self.robots_in_order:
                at = robot.at
                if at is not None and robot.on_board:
                    cells |= 1 << (at.row * stride + at.col)
            self._occupied = cells
        return self._occupied

    def locked(self, robot: Robot) -> bool:
        """G3: a mechanism holds the robot where it stands."""
        holders = self.index.holds.get(robot.at) if robot.at is not None else None
        if holders:  # asked for every step: most squares hold nobody, and no generator is made for them
            for mech, element in holders:
                if mech.holds(self, element, robot):
                    return True
        return False

    def state(self, element: Element) -> str | None:
        """The element's state word (as the room file gives it if the board has none recorded)."""
        return self.board.elements.get(element.key) or self.index.initial_states.get(element.key)

    def program_card(self, robot: Robot, register: int) -> Card | None:
        sequence = self.sequences.get(robot.name, ())
        return sequence[register - 1] if 0 < register <= len(sequence) else None

    # --- elements and controls (B6.7, B6.8) ---------------------------------
    def set_state(self, element: Element, word: str, control: str | None = None) -> bool:
        """Set a controlled element's state word; True (and an event) if it changed."""
        if self.board.elements.get(element.key) == word:
            return False
        self.board.elements[element.key] = word
        self.emit(ElementChanged(self.stage, None, element.key, element.type, word, control))
        return True

    def flip_control(self, control: Element, on: bool, cause: str, robot: Robot | None) -> None:
        """A switch or eye turns on/off: record it, then tell every element it controls."""
        word = "on" if on else "off"
        if self.board.elements.get(control.key) == word:
            return
        self.board.elements[control.key] = word
        self.emit(SwitchFlipped(self.stage, robot.name if robot else None, control.key, word, cause))
        for mech, element in self.index.controlled.get(control.key, ()):
            mech.on_control(self, element, on)

    def press(self, square: Square, cause: str, robot: Robot | None) -> None:
        """B6.7: something pressed the square (a robot moving in, a crusher coming down)."""
        for mech, element in self.index.press.get(square, ()):
            mech.on_press(self, element, cause, robot)

    # --- damage, fusing, destruction (B7, B8, B11) --------------------------
    def damage(self, robot: Robot, amount: int, cause: str, source: str | None) -> None:
        """B11 ruling: damage is dealt one point at a time, each point absorbed, cancelled or lost in turn.

        `_point` decides each point; runs of points with the same outcome make one event, so a lump that
        meets no option reads as one loss ("-2 HP"), and registers fuse after each run of HP lost."""
        if amount <= 0 or not robot.on_board:
            return
        runs: list[tuple[str, str | None, int]] = []  # (outcome, option, points), consecutive points merged
        hp = robot.hp
        for _ in range(amount):  # the points after the one that destroys the robot are reported with it
            outcome, option = self._point(robot, hp) if hp > 0 else ("lost", None)
            hp -= outcome == "lost"
            if runs and runs[-1][:2] == (outcome, option) and outcome != "sacrificed":
                runs[-1] = (outcome, option, runs[-1][2] + 1)
            else:
                runs.append((outcome, option, 1))
        for outcome, option, points in runs:
            if outcome == "absorbed":
                self.emit(DamageAbsorbed(self.stage, robot.name, option or "", points, robot.charges.get(option or "", 0)))
            elif outcome == "sacrificed":
                self.emit(OptionSacrificed(self.stage, robot.name, option or ""))
            else:
                before = robot.hp
                robot.hp = max(0, robot.hp - points)
                self.emit(Damaged(self.stage, robot.name, points, cause, source, robot.hp))
                if robot.hp <= 0:
                    self.destroy(robot, Cause.DAMAGE)  # B8.1: no registers fuse on a robot that is gone
                    return
                self.refuse(robot, before)

    def _point(self, robot: Robot, hp: int) -> tuple[str, str | None]:
        """B11: one point of damage: an ablative coat with points left absorbs it; else, where options may be
        given up, a robot at or below its option HP (`hp`, before this point) gives up the option gained last
        and the point is cancelled; else the robot loses 1 HP (the caller counts it)."""
        for option in robot.options:
            if option_effect(option).get("effect") == "absorb" and robot.charges.get(option, 0) > 0:
                robot.charges[option] -= 1
                if robot.charges[option] == 0:
                    del robot.charges[option]
                    robot.options.remove(option)
                return "absorbed", option
        if self.ruleset.options_absorb_damage and robot.options:
            if hp <= self.option_hp.get(robot.name, self.ruleset.option_hp):
                option = robot.options.pop()
                robot.charges.pop(option, None)
                return "sacrificed", option
        return "lost", None

    def refuse(self, robot: Robot, hp_before: int) -> None:
        """Fuse (B7.1, keeping this turn's card, B7.2) or unfuse (B7.4, lowest first) after an HP change."""
        top = self.ruleset.registers
        old, new = fused_count(hp_before, self.ruleset), fused_count(robot.hp, self.ruleset)
        for register in range(top - old, top - new, -1):
            if register not in robot.registers:
                card = self.program_card(robot, register)
                robot.registers[register] = card
                self.emit(RegisterFused(self.stage, robot.name, register, card))
        for register in sorted(robot.registers)[:max(0, old - new)]:
            card = robot.registers.pop(register)
            self.emit(RegisterUnfused(self.stage, robot.name, register, card))

    def unfuse_all(self, robot: Robot) -> None:
        """B10: every fused register unfuses, its card discarded."""
        for register in sorted(robot.registers):
            self.emit(RegisterUnfused(self.stage, robot.name, register, robot.registers.pop(register)))

    def destroy(self, robot: Robot, cause: str) -> None:
        """B8.1: removed at once; its remaining registers do not run."""
        if robot.mode == Mode.DESTROYED:
            return
        at = robot.at
        if self.ruleset.lives is not None:
            robot.lives = max(0, robot.lives - 1)
        robot.mode = Mode.DESTROYED
        self.place(robot, None)
        self.destroyed.add(robot.name)
        self.emit(Destroyed(self.stage, robot.name, at, cause, robot.lives))
