"""The report model: a turn's events and board snapshots turned into the rows of its tables.

Pure (no files, no HTML): templates and the plain-text writer only lay these
rows out, so the HTML page, the email and the text part always agree. Every
cell is a list of lines of plain text; escaping is the templates' job.

Input per board (a Geek-o player's room, or the shared BotWars board): the
snapshots the engine took at the start of each stage plus the final one, and
the turn's events (RULES B5 order). Stage tables follow seed 003: NAME, MODE,
CARDS, MOVE (outcome of the card and pushes), MECHANISMS, DAMAGE ("-1 HP"),
HP; the end-of-turn table NAME, MODE, REINSTATE, UPGRADES, OPTIONS (these two
only when some robot has any), NEXT FLAG (boards with flags), REBOOT/HP; then the
fused registers.
"""
from __future__ import annotations

import dataclasses
from dataclasses import dataclass, field
from functools import singledispatch
from types import MappingProxyType
from typing import AbstractSet, Any, Callable, Iterable, Mapping, Sequence

from ..engine import campaign
from ..engine import events as ev
from ..engine.events import Event
from ..engine.geometry import Dir, Square
from ..engine.room import Room
from ..engine.state import Board
from ..engine.vocabulary import Cause, MissingOrders, Mode

NONE = "—"

# Events that only happen after the robots have moved (B5 phases 2–9): the first one in a
# stage ends the MOVE part of the table.
_MECHANISM_PHASE: frozenset[type[Event]] = frozenset({
    ev.Conveyed, ev.Rotated, ev.PushedByPusher, ev.Crushed, ev.SawSpun, ev.BecameReal, ev.FlagTouched,
    ev.OptionGained, ev.UpgradeGained, ev.LeftRoom})
_MECHANISM_CAUSES = {Cause.LASER, Cause.ROBOT_LASER, Cause.SAW, Cause.CRUSHER}
# The DAMAGE row: hit points lost and what they cost (B7.1).
_DAMAGE: frozenset[type[Event]] = frozenset({ev.Damaged, ev.DamageAbsorbed, ev.OptionSacrificed, ev.RegisterFused})
# End of turn (B12): what a robot achieved goes under MODE, reinstatement under REINSTATE, the rest
# of its events (repairs, reboots, registers unfused or filled) under REBOOT/HP.
_END_RESULTS: frozenset[type[Event]] = frozenset({campaign.RoomCompleted, campaign.Won})
_END_REINSTATE: frozenset[type[Event]] = frozenset({ev.Reinstated, campaign.InTransit})
# A robot off the board in one of these modes went through a gate (G3).
_STANDING = (Mode.REAL, Mode.VIRTUAL, Mode.REBOOTING)
# A switch flipped by a robot moving onto it: the robot presses it.
_PRESSED_BY_MOVING = (Cause.CARD, Cause.PUSH, Cause.ROBOT, Cause.CONVEYOR, Cause.PUSHER, Cause.TELEPORT)


@dataclass(frozen=True)
class Position:
    """What one board picture shows: the room, its robots and its element states.

    Robots are anything with name, owner, at, facing, hp and mode: the engine's `Robot`
    or the `RobotView` of a snapshot.
    """

    room: Room
    robots: tuple[Any, ...]
    elements: Mapping[str, str]
    marks: tuple[Square, ...] = ()  # squares to point out (a turn sheet's next flag)
    own: tuple[str, ...] = ()  # robots ringed as the reader's own (a turn sheet on a shared board)

    @classmethod
    def of(cls, room: Room, board: Any, marks: tuple[Square, ...] = (), own: tuple[str, ...] = ()) -> "Position":
        """From a `Board` (robots by name) or an engine snapshot (a tuple of robot views)."""
        robots = board.robots.values() if isinstance(board.robots, Mapping) else board.robots
        return cls(room, tuple(robots), MappingProxyType(dict(board.elements)), tuple(marks), tuple(own))

    def with_wrecks(self, wrecks: Mapping[str, Square]) -> "Position":
        """The robots destroyed earlier in the turn and off the board shown where they fell (as wrecks)."""
        robots = tuple(dataclasses.replace(r, at=wrecks[r.name])
                       if r.name in wrecks and r.at is None and r.mode == Mode.DESTROYED else r for r in self.robots)
        return Position(self.room, robots, self.elements)

    def robot(self, name: str) -> Any:
        return next((r for r in self.robots if r.name == name), None)


@dataclass
class Row:
    label: str
    cells: list[list[str]]  # one cell per robot column, each a list of lines


@dataclass
class Table:
    caption: str
    columns: list[str]  # robot names
    rows: list[Row]
    notes: list[str] = field(default_factory=list)  # board events that belong to no robot
    owners: list[str] = field(default_factory=list)  # each column's robot's owner (a shared board names them)


@dataclass
class StageReport:
    number: int
    position: Position  # the board as it stood when the stage began
    table: Table


@dataclass
class BoardReport:
    """One board's turn: its stages, the final position, the end-of-turn and fused-register tables."""

    title: str
    stages: list[StageReport]
    final: Position
    end_of_turn: Table
    fused: Table | None

    def owner_key(self) -> list["OwnerKey"]:
        """Whose robots wear which colour on this board's pictures (the colours the pictures are drawn in)."""
        from .style import owner_colours  # the pictures' own palette (style loads Pillow)

        robots = self.stages[0].position.robots if self.stages else self.final.robots
        colours = owner_colours([robot.owner for robot in robots])
        return [OwnerKey(owner, "#%02x%02x%02x" % colours[owner],
                         sorted(robot.name for robot in robots if robot.owner == owner)) for owner in sorted(colours)]


@dataclass(frozen=True)
class OwnerKey:
    owner: str
    colour: str  # #rrggbb
    robots: list[str]


def _text(value: Any) -> str:
    return value.name if isinstance(value, Dir) else str(value)


def _word(element_type: str) -> str:
    """An element type as report text."""
    return {"trapdoor": "trap door"}.get(element_type, element_type)


def _damage_source(cause: str, source: str | None) -> str:
    """What hit the robot: "laser r1c6" (a board laser's square), "Rusty's laser", "fence" …"""
    if cause == Cause.ROBOT_LASER and source:
        return f"{source}'s laser"
    if source and "@" in source:
        return f"{cause} {source.split('@')[1].split('/')[0]}"
    return cause


# One line of report text per event class whose text is its fields put in place (registered with `describe`).
# The turn cycle's events (pbem.engine.campaign) come last.
_TEXT: dict[type[Event], str] = {
    ev.Moved: "{from_sq} → {to_sq}",
    ev.Pushed: "pushed by {by} {from_sq} → {to_sq}",
    ev.DamageAbsorbed: "{option} absorbs {amount} ({left} left)",
    ev.OptionSacrificed: "gives up {option}",
    ev.Teleported: "teleports {source} {from_sq} → {target} {to_sq}",
    ev.PushedByPusher: "pusher {from_sq} → {to_sq}",
    ev.Crushed: "crushed at {at}",
    ev.SawSpun: "the buzzsaw at {at} spins",
    ev.FlagTouched: "touches flag {number}",
    ev.OptionGained: "gains option {option}",
    ev.BecameReal: "becomes real",
    ev.LeftRoom: "leaves {room}",
    ev.RegisterUnfused: "register {register} unfused",
    ev.RegisterFilled: "register {register} filled with {card}",
    ev.Repaired: "+{amount} HP (wrench)",
    ev.RebootStarted: "rebooting next turn (HP {hp})",
    ev.RebootEnded: "back online",
    campaign.RoomCompleted: "completes room {room} ({room_name})",
    campaign.RoomOpened: "room {room} opens: {room_name}",
    campaign.PlayerFinished: "{player} has finished, in {turns} turns",
    campaign.Won: "touches the last flag: place {place}",
}


@singledispatch
def describe(event: Event) -> str:
    """One line of report text for an event (without the robot's name: it heads the column). Each event class
    has its own describer (registered below, by class); a mechanism the renderer has not met (RULES G9) gets
    its type and fields, in field order."""
    details = ", ".join(f"{n}={v}" for n, v in vars(event).items() if n not in ("stage", "robot"))
    return f"{type(event).__name__}: {details}" if details else type(event).__name__


def _field_text(template: str) -> Callable[[Event], str]:
    return lambda event: template.format(**vars(event))


for _event_type, _template in _TEXT.items():
    describe.register(_event_type, _field_text(_template))


@describe.register
def _(e: ev.CardPlayed) -> str:
    return f"{e.card}" + (" (fused)" if e.fused else "")


@describe.register
def _(e: ev.Turned) -> str:
    return f"turns {_text(e.from_facing)} → {_text(e.to_facing)}"


@describe.register
def _(e: ev.Obstacle) -> str:
    what = e.cause + (f" {e.source}" if e.cause == Cause.ROBOT and e.source else "")
    return f"obstacle: {what} ({_text(e.direction)} of {e.at})"


@describe.register
def _(e: ev.Damaged) -> str:
    return f"-{e.amount} HP ({_damage_source(e.cause, e.source)})"


@describe.register
def _(e: ev.Fell) -> str:
    return f"falls into the {_word(e.cause)} at {e.at}"


@describe.register
def _(e: ev.Conveyed) -> str:
    return f"{'express ' if e.express else ''}conveyor {e.from_sq} → {e.to_sq}"


@describe.register
def _(e: ev.Rotated) -> str:
    return f"turned {_text(e.from_facing)} → {_text(e.to_facing)} by the {e.cause}"


@describe.register
def _(e: ev.SwitchFlipped) -> str:
    if e.robot and e.cause in _PRESSED_BY_MOVING:
        return f"presses {e.source}: {e.state}"
    return f"{e.source} turns {e.state}" + (f" ({e.cause})" if e.cause else "")


@describe.register
def _(e: ev.ElementChanged) -> str:
    return f"{_word(e.element_type)} {e.source.split('@')[-1]} now {e.state}" + (f" ({e.control})" if e.control else "")


@describe.register
def _(e: ev.UpgradeGained) -> str:
    return f"upgrade {e.upgrade}" + (" — set unlocked" if e.unlocked else "")


@describe.register
def _(e: ev.EnteredGate) -> str:
    return f"enters the gate at {e.at}" + (" (locked until the other gate is held)" if e.locked else "")


@describe.register
def _(e: ev.RegisterFused) -> str:
    return f"register {e.register} fuses" + (f" with {e.card}" if e.card else " (empty)")


@describe.register
def _(e: ev.Destroyed) -> str:
    return "DESTROYED" + (f" ({_word(e.cause)})" if e.cause else "")


@describe.register
def _(e: ev.Reinstated) -> str:
    return f"{e.at} facing {_text(e.facing)}"


@describe.register
def _(e: campaign.InTransit) -> str:
    return f"in transit, {e.turns} turn{'s' if e.turns != 1 else ''} to go"


def _mechanism_start(events: Sequence[Event]) -> int:
    """Index of the first event of the stage that belongs to the mechanisms, not to the cards."""
    for i, event in enumerate(events):
        if type(event) in _MECHANISM_PHASE or getattr(event, "cause", None) in _MECHANISM_CAUSES:
            return i
    return len(events)


def _lines(events: list[Event]) -> list[str]:
    """Report lines for one robot's events; the steps of one card make one line (r6c1 → r4c1), and
    registers unfused together one line (registers 1, 2, 3 unfused)."""
    lines: list[str] = []
    last: Event | None = None
    for event in events:
        if (isinstance(event, ev.Moved) and isinstance(last, ev.Moved)
                and last.card == event.card and last.to_sq == event.from_sq):
            lines[-1] = f"{lines[-1].split(' → ')[0]} → {event.to_sq}"
        elif isinstance(event, ev.RegisterUnfused) and isinstance(last, ev.RegisterUnfused):
            registers = lines[-1].removeprefix("registers ").removeprefix("register ").removesuffix(" unfused")
            lines[-1] = f"registers {registers}, {event.register} unfused"
        else:
            lines.append(describe(event))
        last = event
    return lines


def _cells(robots: list[str], events: Iterable[Event], kinds: AbstractSet[type[Event]] | None = None,
           exclude: AbstractSet[type[Event]] = frozenset()) -> list[list[str]]:
    chosen: dict[str, list[Event]] = {name: [] for name in robots}
    for event in events:
        kind = type(event)
        if event.robot in chosen and kind not in exclude and (kinds is None or kind in kinds):
            chosen[event.robot].append(event)
    return [_lines(chosen[name]) or [NONE] for name in robots]


def _robot_row(label: str, robots: Sequence[Any], value: Callable[[Any], str]) -> Row:
    return Row(label, [[value(r)] for r in robots])


def _headed(heads: Iterable[str], cells: list[list[str]]) -> list[list[str]]:
    """Each column's cell led by its head line (the robot's mode, its HP), without the "—" of an empty one."""
    return [[head, *(x for x in cell if x != NONE)] for head, cell in zip(heads, cells)]


def _notes(events: Iterable[Event]) -> list[str]:
    """The events that belong to no robot (a switch flipped by a mechanism …)."""
    return [describe(e) for e in events if e.robot is None]


def mode(robot: Any) -> str:
    """The robot's mode as players read it: off the board and neither destroyed nor in transit means
    it went through a gate (G3)."""
    return "left the room" if robot.at is None and robot.mode in _STANDING else str(robot.mode)


def stage_table(number: int, before: Position, after: Position, events: Sequence[Event]) -> Table:
    names = [r.name for r in before.robots]
    robots_after = [after.robot(r.name) or r for r in before.robots]
    split = _mechanism_start(events)
    moving, mechanisms = events[:split], events[split:]
    rows = [
        _robot_row("MODE", robots_after, mode),
        Row("CARDS", _cells(names, moving, {ev.CardPlayed})),
        Row("MOVE", _cells(names, moving, exclude={ev.CardPlayed, *_DAMAGE})),
        Row("MECHANISMS", _cells(names, mechanisms, exclude=_DAMAGE)),
        Row("DAMAGE", _cells(names, events, _DAMAGE)),
        _robot_row("HP", robots_after, lambda r: str(r.hp)),
    ]
    return Table(f"Stage {number}", names, rows, _notes(events), [r.owner for r in before.robots])


def end_of_turn_table(final: Board, events: Sequence[Event]) -> Table:
    names = list(final.robots)
    robots = list(final.robots.values())
    rows = [
        Row("MODE", _headed(map(mode, robots), _cells(names, events, _END_RESULTS))),
        Row("REINSTATE", _cells(names, events, _END_REINSTATE)),
    ]
    rows.append(_robot_row("UPGRADES", robots, lambda r: ", ".join(r.upgrades) or NONE))  # DESIGN.md "Reports"
    rows.append(_robot_row("OPTIONS", robots, lambda r: ", ".join(r.options) or NONE))
    flags = len(final.room.of_type("flag"))
    if flags:  # botwars: the flag each robot must touch next (B5.9)
        rows.append(_robot_row("NEXT FLAG", robots,
                               lambda r: str(r.next_flag) if r.next_flag <= flags else "all touched"))
    extra = _cells(names, events, exclude=_END_RESULTS | _END_REINSTATE)  # repairs, reboots, registers …
    rows.append(Row("REBOOT/HP", _headed((f"HP {r.hp}" for r in robots), extra)))
    return Table("End of turn", names, rows, _notes(events), [r.owner for r in robots])


def fused_table(final: Board, following: Board | None = None) -> Table | None:
    """Seed 003: a reference table of every fused register's card, when any robot has one. The cards
    come from `following`, the board the next turn starts from, when given: dealing fills fused
    empty registers (B7.2) after the turn has ended, and all players should see those cards."""
    registers = following.robots if following is not None else final.robots
    robots = [registers[name] for name in final.robots if registers[name].registers]
    if not robots:
        return None
    numbers = sorted({n for r in robots for n in r.registers}, reverse=True)
    rows = [Row(f"REGISTER {n}", [[(str(r.registers[n]) if r.registers[n] else "(empty)")
                                   if n in r.registers else NONE] for r in robots]) for n in numbers]
    return Table("Fused registers", [r.name for r in robots], rows, owners=[r.owner for r in robots])


def _last_stage_end(start: Position, events: Sequence[Event]) -> Position:
    """The robots as the last stage ends. The snapshot after it is taken after the end-of-turn steps
    (B12: repairs, reinstatement, reboots), so the stage's own events are applied to its start."""
    robots = {r.name: r for r in start.robots}
    for event in events:
        robot = robots.get(event.robot) if event.robot else None
        if robot is None:
            continue
        if isinstance(event, ev.Damaged):
            robots[robot.name] = dataclasses.replace(robot, hp=event.hp)
        elif isinstance(event, ev.Destroyed):
            robots[robot.name] = dataclasses.replace(robot, mode=Mode.DESTROYED)
        elif isinstance(event, ev.BecameReal):
            robots[robot.name] = dataclasses.replace(robot, mode=Mode.REAL)
        elif isinstance(event, ev.LeftRoom):
            robots[robot.name] = dataclasses.replace(robot, at=None)
    return Position(start.room, tuple(robots.values()), start.elements)


def board_report(title: str, room: Room, snapshots: Sequence[Any], events: Sequence[Event],
                 final: Board, following: Board | None = None) -> BoardReport:
    """`snapshots`: the board at the start of stage 1, 2, …, then at the end of the turn (engine
    `Snapshot`s or `Board`s); `final`: the board as the turn left it, in `room` (robots with
    registers, upgrades …); `following`: the board the next turn starts from (see `fused_table`)."""
    if not snapshots:
        raise ValueError("a board report needs at least the end-of-turn snapshot")
    by_stage: dict[int, list[Event]] = {}
    for event in events:
        by_stage.setdefault(event.stage, []).append(event)
    positions: list[Position] = []
    wrecks: dict[str, Square] = {}
    for number, snap in enumerate(snapshots, start=1):
        positions.append(Position.of(room, snap).with_wrecks(wrecks))
        wrecks.update({e.robot: e.at for e in by_stage.get(number, [])
                       if isinstance(e, ev.Destroyed) and e.robot and e.at is not None})
    ends = positions[1:]
    if ends:  # the last stage ends before the end-of-turn snapshot
        ends[-1] = _last_stage_end(positions[-2], by_stage.get(len(ends), []))
    stages = [StageReport(i, before, stage_table(i, before, after, by_stage.get(i, [])))
              for i, (before, after) in enumerate(zip(positions, ends), start=1)]
    end = by_stage.get(0, [])
    return BoardReport(title, stages, positions[-1], end_of_turn_table(final, end), fused_table(final, following))


def fate_note(programs: Mapping[str, Sequence[Any]], policy: MissingOrders = MissingOrders.FILL) -> list[str]:
    """What will happen to a player's robots if their orders do not come (RULES B4.6), in words, from what the
    engine would play for them under the game's `missing_orders` policy (the bot's choice is not known yet)."""
    head = "If no orders come by then"
    if policy == MissingOrders.BOT:
        return [f"{head}, the robot pilot will choose a program for each of your robots from your hand."]
    played = {robot: cards for robot, cards in programs.items() if cards}
    if policy == MissingOrders.IDLE or not played:
        return [f"{head}, your robots will stand still this turn: they run no cards, but belts, pushers, lasers "
                "and the other mechanisms still act on them."]
    return [f"{head}, each of your robots will run the first cards of its hand, in the order they were dealt:",
            *(f"  {robot}: {' '.join(str(card) for card in cards)}" for robot, cards in sorted(played.items()))]


def missed_note(programs: Mapping[str, Sequence[Any]], policy: MissingOrders = MissingOrders.FILL) -> list[str]:
    """What a player whose orders were missing is told (RULES B4.6), from what the engine played for them under
    the game's `missing_orders` policy."""
    head = "We had no orders from you that counted for this turn (RULES B4.6)"
    played = {robot: cards for robot, cards in programs.items() if cards}
    if not played:
        return [f"{head}: your robots idled (they ran no cards), and the turn still counts."]
    how = ("your robots were played by the bot" if policy == MissingOrders.BOT
           else "your registers were filled from the top of your hand")
    return [f"{head}: {how}:",
            *(f"  {robot}: {' '.join(str(card) for card in cards)}" for robot, cards in sorted(played.items()))]
