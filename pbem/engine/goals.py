"""What a robot pilot aims at: the cost of a board for one player (lower is better; issue #16).

Geek-o (G1, G3): every robot out through a gate. While the gates a player needs
are shut, one robot goes to open them — a switch to press, or an eye to shoot
(with a laser option, fetched from an armoury first if need be) — and the other
heads for the gates as if they were open. BotWars: the next flag, flag by flag.
Destruction and damage cost extra. Distances are card counts (`distance`).
"""
from __future__ import annotations

from typing import Iterable

from .distance import UNREACHABLE, distances, square_goals
from .geometry import Dir, Square
from .mechanism import Mechanism, mechanism
from .probes import Node, steps
from .room import Element, Room
from .roomcache import RoomCache
from .ruleset import Ruleset
from .state import Board, Robot

DEAD = 100      # a destroyed robot: back to the start (Geek-o: room 1 and turns in transit)
CLOSED = 20     # the gates a player needs are still shut
ARMED = 8       # fetching a laser before shooting an eye
FLAG = 30       # BotWars: each flag still to touch
HURT = 1.5      # per point of damage (Geek-o: a fused register)
LASERS = {"laser": 0, "rear-laser": 2}  # option -> quarter turns from the firing direction to the facing
_flag_goals: RoomCache[dict[int, frozenset[Node]]] = RoomCache()


def player_cost(board: Board, names: Iterable[str], ruleset: Ruleset) -> float:
    hurt: float = 0
    dead = 0
    moving = []
    for name in names:
        robot = board.robots[name]
        if robot.on_board:
            hurt += HURT * (ruleset.max_hp - robot.hp)
            moving.append(robot)
        elif not robot.left_room:
            dead += DEAD
    if not moving:
        return hurt + dead
    if ruleset.flags:
        return hurt + dead + sum(_flag_cost(board, r, ruleset) for r in moving)
    return hurt + dead + _gate_cost(board, moving, ruleset)


def _at(field: dict[Node, int], robot: Robot) -> int:
    return UNREACHABLE if robot.at is None else field.get((robot.at, robot.facing), UNREACHABLE)


def _flag_cost(board: Board, robot: Robot, ruleset: Ruleset) -> float:
    flags = _flags(board.room)
    goal = flags.get(robot.next_flag)
    if goal is None:
        return 0
    left = sum(1 for number in flags if number >= robot.next_flag)
    return FLAG * left + _at(distances(board.room, board.elements, ruleset, goal), robot)


def _flags(room: Room) -> dict[int, frozenset[Node]]:
    """BotWars: the room's flags, number -> the nodes that touch it (the room file's last flag of a number),
    worked out once per room: the pilot asks for every board it weighs."""
    key = (id(room),)
    found = _flag_goals.recall(key)
    if found is None:
        squares = {int(e.get("number", 0)): e.at for e in room.of_type("flag")}
        found = _flag_goals.remember(key, room, {number: square_goals([at]) for number, at in squares.items()})
    return found


def _gate_cost(board: Board, robots: list[Robot], ruleset: Ruleset) -> float:
    gates = board.room.of_type("gate")
    if not gates:
        return UNREACHABLE * len(robots)
    gate = mechanism("gate")
    is_open = {g.key: board.elements.get(g.key) == "open" for g in gates}
    taken = {r.at for r in robots}
    needed = min(len(gates), len(robots))
    opened = [g.at for g in gates if is_open[g.key]]
    if len(opened) >= needed:
        def free_for(robot: Robot) -> list[Square]:
            return [sq for sq in opened if sq == robot.at or sq not in taken]
        return sum(_at(distances(board.room, board.elements, ruleset, square_goals(free_for(r)), opened), r)
                   for r in robots)
    wide = dict(board.elements)
    for g in gates:
        wide[g.key] = "open"
    towards = distances(board.room, wide, ruleset, square_goals(g.at for g in gates), [g.at for g in gates])
    shut = [g for g in gates if not is_open[g.key]]
    best = min(_opening_cost(board, shut, r, ruleset, gate) + sum(_at(towards, o) for o in robots if o is not r)
               for r in robots)
    return CLOSED + best


def _opening_cost(board: Board, shut: list[Element], robot: Robot, ruleset: Ruleset, gate: Mechanism) -> float:
    """Cards for `robot` to reach a position that flips a control opening one of the shut gates."""
    best: float = UNREACHABLE
    for element in shut:
        control = _control(board, element.get("control"))
        if control is None:
            continue
        want_on = gate.controlled_state(element, True) == "open"
        is_on = board.elements.get(control.key) == "on"
        if want_on == is_on:
            continue
        if control.type == "eye":
            best = min(best, _eye_cost(board, control, robot, ruleset))
        elif control.get("kind", "toggle") == "toggle" or want_on:
            field = distances(board.room, board.elements, ruleset, square_goals([control.at]))
            best = min(best, _at(field, robot))
    return best


def _control(board: Board, name: object) -> Element | None:
    if name is None:
        return None
    return next((e for e in board.room.elements if e.get("id") is not None and str(e.get("id")) == str(name)),
                None)


def _eye_cost(board: Board, eye: Element, robot: Robot, ruleset: Ruleset) -> float:
    """B6.8: a robot laser reaching the eye's wall head-on; without one, first an armoury that gives one."""
    wall = Dir.parse(eye.get("wall"))
    step = steps(board.room, board.elements, ruleset)
    line, square = [eye.at], eye.at
    while True:
        behind = square.step(wall.opposite)
        if step.get((behind, wall)) != square:
            break
        line.append(behind)
        square = behind
    armed = [turns for option, turns in LASERS.items() if option in robot.options]
    firing = {(sq, wall.turned(turns)) for sq in line for turns in (armed or LASERS.values())}
    aim = distances(board.room, board.elements, ruleset, firing)
    if armed:
        return _at(aim, robot)
    armouries = [e.at for e in board.room.of_type("armoury") if e.get("option") in LASERS]
    fetch = distances(board.room, board.elements, ruleset, square_goals(armouries))
    return _at(fetch, robot) + ARMED + min((aim.get((sq, d), UNREACHABLE) for sq in armouries for d in Dir),
                                           default=UNREACHABLE)
