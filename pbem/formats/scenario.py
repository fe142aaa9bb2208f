"""Rule scenarios (DESIGN.md "Rule scenario"): one turn on a small room, and what must come of it.

    rules: [B6b.1]
    title: two robots conveyed onto one square both stay
    ruleset: botwars                  # botwars (default) | geeko
    ruleset_options: {fence_damage: 3}   # optional: Ruleset fields overridden by name
                                      # (or ruleset: {name: botwars, ruleset_options: {...}})
    seed: 1
    turn: 1                           # optional, default 1 (virtual robots, B9, count turns)
    room: {size: 5x5, elements: [...]}   # a room inline (it may draw a `map:`, docs/rooms.md), or a
                                      # path: rooms/x.yaml (looked up from the scenario's folder upwards)
    robots:
      - {name: Red, at: r3c1, facing: E}
    programs: {Red: [FWD1#500]}       # KIND#NUMBER (or a bare number of the standard/upgrade decks)
    reboots: [Red]                    # optional: reboot declared for next turn (B10)
    option_hp: {Red: 6}               # optional: botwars option give-up HP (B11)
    elements: {s1: on}                # optional: element states at the start, by switch/eye id or key
    expect:
      robots:
        Red: {at: r3c2, facing: E, hp: 10, mode: real}
      elements: {s1: on}

Robot keys accepted: name (required), at (required unless mode is destroyed or
in-transit, or left_room), facing (N), hp (max_hp), mode (real; `rebooting`
is the robot's rebooting turn, B10: full HP, no fused register), registers
(fused register -> card or null: `{9: FWD1#600}`; only registers B7.1 fuses at
that hp; a fused register left out is empty, for B7.2 to fill), upgrades (`SET@ROOM NAME`),
options (in the order gained: B11 gives up the last first), next_flag, lives, owner, reinstate_at, reinstated_turn, left_room,
armouries, charges (option -> points left). A robot's reinstatement square
defaults to the room's start square in robot order (the last one if there
are fewer), so a destroyed robot is reinstated only if the room lists `starts`.

Expect keys per robot: at (null for a robot off the board), facing, hp, mode,
registers, upgrades, options (both compared as sorted lists), next_flag,
lives, left_room, reinstate_at, charges, hand_size (RULES B4.1 after the turn).
`expect.elements` must hold in every copy of the room; in `geeko` each robot's
`owner` plays in their own copy (RULES G2), and `expect.elements_of: {OWNER:
{s1: on}}` checks one owner's copy. Expected element states use the words on|off (switch, eye, blaser),
open|closed (trapdoor, gate), raised|lowered (drawbridge), active|inactive
(teleporter), keyed by the switch/eye `id`, else by `Element.key`
(`trapdoor@r5c5`, `laser@r2c1/W`).
"""
from __future__ import annotations

from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, Callable, Iterator

import yaml

from ..engine.cards import Card, standard_cards, upgrade_cards
from ..engine.deal import fused_registers
from ..engine.elements import new_board
from ..engine.events import Event
from ..engine.geometry import Dir, Square
from ..engine.room import Room
from ..engine.ruleset import Ruleset, get_ruleset
from ..engine.state import Board, Robot
from ..engine.turn import TurnResult, hand_size, resolve_apart
from ..engine.vocabulary import Mode, parse_word
from .fields import Fields, flag, is_whole, whole
from .problems import line_of
from .rooms import check_room_data, read_room, state_word
from .yamlfile import FormatError, Problem, read_yaml_file

TOP_KEYS = ("rules", "title", "name", "notes", "ruleset", "ruleset_options", "seed", "turn", "room", "robots",
            "programs", "reboots", "option_hp", "elements", "expect")


@dataclass
class Scenario:
    source: str
    rules: list[str]
    title: str
    ruleset: Ruleset
    seed: int | str
    turn: int
    board: Board
    programs: dict[str, list[Card]]
    reboots: list[str] = field(default_factory=list)
    option_hp: dict[str, int] = field(default_factory=dict)
    expect_robots: dict[str, dict[str, Any]] = field(default_factory=dict)
    expect_elements: dict[str, str] = field(default_factory=dict)
    expect_elements_of: dict[str, dict[str, str]] = field(default_factory=dict)  # owner -> their copy's states


@dataclass
class ScenarioResult:
    """The turn as played: one result per copy of the room (G2: one per owner in `geeko`, else one)."""

    copies: dict[str, TurnResult]

    @property
    def events(self) -> list[Event]:
        return [event for result in self.copies.values() for event in result.events]

    @property
    def robots(self) -> dict[str, Robot]:
        return {name: robot for result in self.copies.values() for name, robot in result.board.robots.items()}

    def board_of(self, robot: str) -> Board:
        return next(result.board for result in self.copies.values() if robot in result.board.robots)


# --- value parsers (ValueError carries the message) -------------------------

_DECK = {card.number: card for card in standard_cards() + upgrade_cards()}


def parse_card(value: Any) -> Card:
    if is_whole(value):
        if value not in _DECK:
            raise ValueError(f"no card numbered {value} in the standard or upgrade cards; write KIND#NUMBER")
        return _DECK[value]
    return Card.parse(value)


def _name(value: Any) -> str:
    if not isinstance(value, str) or not value:
        raise ValueError(f"must be a name, not {value!r}")
    return value


def _square_or_none(value: Any) -> Square | None:
    return None if value is None else Square.parse(value)


_int = whole("must be a whole number, not {value!r}")
_bool = flag("must be true or false, not {value!r}")


def _mode(value: Any) -> Mode:
    return parse_word(Mode, value, "mode")


def _names(value: Any) -> list[str]:
    return sorted(_names_in_order(value))


def _names_in_order(value: Any) -> list[str]:
    if not isinstance(value, list) or not all(isinstance(v, str) for v in value):
        raise ValueError(f"must be a list of names, not {value!r}")
    return list(value)


def _registers(value: Any) -> dict[int, Card | None]:
    if not isinstance(value, dict):
        raise ValueError("must map register numbers to cards, e.g. {9: FWD1#600}")
    registers = {}
    for number, card in value.items():
        register = int(number)
        if register < 1:
            raise ValueError(f"register {number!r} is not a register number")
        registers[register] = None if card is None else parse_card(card)
    return registers


def _charges(value: Any) -> dict[str, int]:
    if not isinstance(value, dict):
        raise ValueError("must map option names to points")
    return {str(k): _int(v) for k, v in value.items()}


ROBOT_FIELDS: dict[str, Callable[[Any], Any]] = {
    "owner": _name, "at": _square_or_none, "facing": Dir.parse, "hp": _int, "mode": _mode,
    "registers": _registers, "upgrades": _names, "options": _names_in_order, "next_flag": _int, "lives": _int,
    "reinstate_at": _square_or_none, "reinstated_turn": _int, "left_room": _bool, "armouries": _names,
    "charges": _charges,
}
EXPECT_FIELDS: dict[str, Callable[[Any], Any]] = {
    "at": _square_or_none, "facing": Dir.parse, "hp": _int, "mode": _mode, "registers": _registers,
    "upgrades": _names, "options": _names, "next_flag": _int, "lives": _int, "left_room": _bool,
    "reinstate_at": _square_or_none, "charges": _charges, "hand_size": _int,
}


# --- reading ------------------------------------------------------------


def read_scenario(path: str | Path) -> Scenario:
    """A scenario file, or FormatError with every problem."""
    path = Path(path)
    return load_scenario(read_yaml_file(path), str(path), path.parent)


def load_scenario(data: Any, source: str, folder: Path) -> Scenario:
    out = Fields(source)
    if not isinstance(data, dict):
        raise FormatError([Problem(source, None, "", "a scenario must be a mapping (rules, room, robots, ...)")])
    if "turns" in data:
        raise FormatError([Problem(source, line_of(data, "turns"), "turns", "a multi-turn scenario: `pbem scenario "
                                   "check` plays it (`scenario run` and this reader take one turn)")])
    out.unknown(data, TOP_KEYS, f"unknown key (known: {', '.join(TOP_KEYS)})")
    ruleset = _ruleset(data, out)
    room = _room(data, folder, out)
    robots = _robots(data, room, ruleset, out)
    programs = _programs(data, robots, out)
    seed = data.get("seed", 0)
    turn = out.value(data, "turn", "turn", _int) if "turn" in data else 1
    reboots, option_hp = reboots_and_option_hp(data, robots, out)
    expect_robots, expect_elements, expect_elements_of = _expect(data, robots, out)
    board = None
    if room is not None and ruleset is not None:
        board = new_board(room, robots.values())
        _initial_elements(data, board, out)
    if out.problems or ruleset is None or board is None:
        raise FormatError(out.problems)
    rules = data.get("rules", [])
    return Scenario(source, [str(r) for r in rules] if isinstance(rules, list) else [str(rules)],
                    str(data.get("title", "")), ruleset, seed, turn, board, programs, reboots, option_hp,
                    expect_robots, expect_elements, expect_elements_of)


def reboots_and_option_hp(data: dict[str, Any], robots: dict[str, Robot], out: Fields,
                          where: str = "") -> tuple[list[str], dict[str, int]]:
    """A turn's `reboots` (B10) and `option_hp` (B11) beside its programs; `where` prefixes the field names."""
    reboots = out.value(data, "reboots", f"{where}reboots", _names) if "reboots" in data else []
    for name in reboots or []:
        if name not in robots:
            out.add(data, "reboots", f"{where}reboots", f"no robot named {name!r}")
    option_hp = {}
    if "option_hp" in data:
        raw = data["option_hp"]
        if isinstance(raw, dict):
            option_hp = {str(k): out.value(raw, k, f"{where}option_hp.{k}", _int) for k in raw}
        else:
            out.add(data, "option_hp", f"{where}option_hp", "must map robot names to HP")
    return reboots or [], option_hp


def _ruleset(data: dict[str, Any], out: Fields) -> Ruleset | None:
    """`ruleset: NAME` with top-level `ruleset_options`, or `ruleset: {name: NAME, ruleset_options: {...}}`."""
    spec = data.get("ruleset", "botwars")
    container, key = data, "ruleset_options"
    if isinstance(spec, dict):
        container, name = spec, spec.get("name", "botwars")
    else:
        name = spec
    options = container.get(key, {}) or {}
    if not isinstance(options, dict):
        out.add(container, key, key, "must map ruleset fields to values")
        options = {}
    try:
        preset = get_ruleset(str(name))
    except ValueError as err:
        out.add(container, "name" if isinstance(spec, dict) else "ruleset", "ruleset", str(err))
        return None
    refused = False
    for option, value in options.items():
        try:
            preset.with_options({option: value})
        except ValueError as err:
            out.add(options, option, f"{key}.{option}", str(err))
            refused = True
    return None if refused else preset.with_options(options)


def _room(data: Any, folder: Path, out: Fields, key: Any = "room", where: str = "room") -> Room | None:
    """`data[key]`: a room inline or a room file's path (looked up from the scenario's folder upwards)."""
    raw = data[key] if isinstance(data, list) else data.get(key)
    if raw is None:
        out.add(data, None, where, "missing (a room mapping or a room file path)")
        return None
    if isinstance(raw, str):
        for base in (folder, *folder.resolve().parents, Path.cwd()):
            if (base / raw).is_file():
                try:
                    return read_room(base / raw)
                except FormatError as err:
                    out.problems.extend(err.problems)
                    return None
        out.add(data, key, where, f"no room file {raw!r} from {folder} upwards")
        return None
    room, problems = check_room_data(raw, out.source)
    for problem in problems:
        out.problems.append(Problem(problem.source, problem.line, f"{where}.{problem.field}".rstrip("."),
                                    problem.message))
    return room


def robot_entries(data: dict[str, Any], out: Fields, shape: str) -> Iterator[tuple[int, str, dict[str, Any]]]:
    """Each robot entry of `robots:` with a name not listed before: its index, its field name, the entry
    (`shape` describes an entry in the problem of a list that is missing)."""
    raw = data.get("robots")
    if not isinstance(raw, list) or not raw:
        out.add(data, "robots", "robots", f"must be a list of robots, each {shape}")
        return
    seen = set()
    for index, item in enumerate(raw):
        where = f"robots[{index}]"
        if not isinstance(item, dict) or not isinstance(item.get("name"), str):
            out.add(raw, index, where, "must be a mapping with a name")
        elif item["name"] in seen:
            out.add(item, "name", f"{where}.name", f"robot {item['name']!r} listed twice")
        else:
            seen.add(item["name"])
            yield index, where, item


def _robots(data: dict[str, Any], room: Room | None, ruleset: Ruleset | None, out: Fields) -> dict[str, Robot]:
    robots: dict[str, Robot] = {}
    for i, where, item in robot_entries(data, out, "{name, at, facing, ...}"):
        robots[item["name"]] = _robot(item, where, ruleset, out)
        _place(robots[item["name"]], item, where, room, i, out)
        if ruleset is not None:
            _check_damage(robots[item["name"]], item, where, ruleset, out)
    return robots


def _robot(item: dict[str, Any], where: str, ruleset: Ruleset | None, out: Fields, base: Robot | None = None) -> Robot:
    """A robot as its entry gives it: `base` (else the ruleset's HP and lives), then every field in the file's
    order."""
    robot = base.copy() if base is not None else Robot(
        item["name"], hp=ruleset.max_hp if ruleset else 10,
        lives=ruleset.lives if ruleset and ruleset.lives is not None else 3)
    for key in item:
        if key != "name" and key not in ROBOT_FIELDS:
            out.add(item, key, f"{where}.{key}", f"unknown robot field (known: name, {', '.join(ROBOT_FIELDS)})")
        elif key != "name":
            value = out.value(item, key, f"{where}.{key}", ROBOT_FIELDS[key])
            if value is not None or key in ("at", "reinstate_at"):
                setattr(robot, key, value)
    return robot


def _check_damage(robot: Robot, item: dict[str, Any], where: str, ruleset: Ruleset, out: Fields) -> None:
    """A robot's `hp`, `mode` and `registers` must agree with B7.1 (damage fuses the top registers) and B10 (`mode:
    rebooting` is the robot's rebooting turn: its HP was restored to full when that turn began, and the restore
    unfused every register, so it has full HP and no fused register)."""
    if not 0 <= robot.hp <= ruleset.max_hp:
        out.add(item, "hp", f"{where}.hp", f"must be 0 to {ruleset.max_hp} (the ruleset's max_hp), not {robot.hp}")
        return
    if robot.mode == Mode.REBOOTING and robot.hp != ruleset.max_hp:
        out.add(item, "hp", f"{where}.hp", f"a rebooting robot has full HP ({ruleset.max_hp}): B10 restores it when "
                f"the rebooting turn begins, and mode: rebooting is that turn (not hp {robot.hp})")
    fused = set(fused_registers(robot, ruleset))
    unknown = sorted(n for n in robot.registers if not 1 <= n <= ruleset.registers)
    extra = sorted(n for n in robot.registers if n not in fused and n not in unknown)
    if unknown:
        out.add(item, "registers", f"{where}.registers",
                f"no register {', '.join(map(str, unknown))}: {ruleset.name} has registers 1-{ruleset.registers}")
    if extra:
        at_hp = f"at hp {robot.hp} ({ruleset.max_hp - robot.hp} damage)"
        which = f"registers {min(fused)}-{max(fused)} are" if fused else "none is"
        out.add(item, "registers", f"{where}.registers",
                f"register {', '.join(map(str, extra))} is not fused {at_hp}: {which} (B7.1: {ruleset.name} fuses "
                f"register {ruleset.registers} first, at {ruleset.fuse_from_damage} damage)")


def _place(robot: Robot, item: dict[str, Any], where: str, room: Room | None, index: int, out: Fields) -> None:
    """Checks the robot's square against the room; a robot whose reinstatement square is not given is
    reinstated on the room's start square in robot order (the last one if there are fewer)."""
    if robot.at is None and robot.mode not in ("destroyed", "in-transit") and not robot.left_room:
        out.add(item, "at" if "at" in item else None, f"{where}.at", "missing (the robot's square)")
    if robot.at is not None and room is not None and not room.size.contains(robot.at):
        out.add(item, "at", f"{where}.at", f"{robot.at} is off the {room.size} board")
    if "reinstate_at" not in item and room is not None and room.starts:
        robot.reinstate_at = room.starts[min(index, len(room.starts) - 1)]


def _programs(data: dict[str, Any], robots: dict[str, Robot], out: Fields,
              where: str = "programs") -> dict[str, list[Card]]:
    raw = data.get("programs", {}) or {}
    if not isinstance(raw, dict):
        out.add(data, "programs", where, "must map robot names to lists of cards")
        return {}
    programs = {}
    for name, cards in raw.items():
        if name not in robots:
            out.add(raw, name, f"{where}.{name}", "no robot of that name")
            continue
        if not isinstance(cards, list):
            out.add(raw, name, f"{where}.{name}", "must be a list of cards (KIND#NUMBER)")
            continue
        parsed = [out.value(cards, i, f"{where}.{name}[{i}]", parse_card) for i in range(len(cards))]
        programs[name] = [c for c in parsed if c is not None]
    return programs


def _expect(data: dict[str, Any], robots: dict[str, Robot], out: Fields, where: str = "expect",
            more: tuple[str, ...] = ()) -> tuple[dict[str, Any], dict[str, Any], dict[str, Any]]:
    """`data["expect"]` (named `where` in problems): robots, elements and elements_of; `more`: the other keys the
    caller reads (a multi-turn scenario's standings, winners, room, filled)."""
    raw = data.get("expect")
    if not isinstance(raw, dict):
        out.add(data, "expect", where, "missing (expect: {robots: ..., elements: ...})")
        return {}, {}, {}
    known = ("robots", "elements", "elements_of", *more)
    for key in raw:
        if key not in known:
            out.add(raw, key, f"{where}.{key}", f"unknown key (known: {', '.join(known)})")
    expect_robots: dict[str, dict[str, Any]] = {}
    for name, fields in (raw.get("robots") or {}).items():
        where_robot = f"{where}.robots.{name}"
        if name not in robots:
            out.add(raw["robots"], name, where_robot, "no robot of that name")
            continue
        if not isinstance(fields, dict):
            out.add(raw["robots"], name, where_robot, "must be a mapping of fields")
            continue
        wanted = {}
        for key in fields:
            if key not in EXPECT_FIELDS:
                out.add(fields, key, f"{where_robot}.{key}",
                        f"not an expectable field (known: {', '.join(EXPECT_FIELDS)})")
                continue
            try:
                wanted[key] = EXPECT_FIELDS[key](fields[key])
            except (ValueError, TypeError) as err:
                out.add(fields, key, f"{where_robot}.{key}", str(err))
        expect_robots[name] = wanted
    elements = _states(raw, "elements", f"{where}.elements", out)
    owners = {robot.owner for robot in robots.values()}
    by_owner = raw.get("elements_of") or {}
    if not isinstance(by_owner, dict):
        out.add(raw, "elements_of", f"{where}.elements_of", "must map owners to element states")
        by_owner = {}
    elements_of = {}
    for owner in by_owner:
        if str(owner) not in owners:
            out.add(by_owner, owner, f"{where}.elements_of.{owner}",
                    f"no robot has this owner (owners: {', '.join(sorted(owners))})")
        else:
            elements_of[str(owner)] = _states(by_owner, owner, f"{where}.elements_of.{owner}", out)
    return expect_robots, elements, elements_of


def _states(container: dict[str, Any], key: Any, where: str, out: Fields) -> dict[str, str]:
    states = container.get(key) or {}
    if not isinstance(states, dict):
        out.add(container, key, where, "must map element ids or keys to state words")
        return {}
    return {str(k): state_word(v) for k, v in states.items()}


def _initial_elements(data: dict[str, Any], board: Board, out: Fields) -> None:
    raw = data.get("elements") or {}
    if not isinstance(raw, dict):
        out.add(data, "elements", "elements", "must map element ids or keys to state words")
        return
    for key, word in raw.items():
        if str(key) not in board.elements:
            out.add(raw, key, f"elements.{key}", f"no stateful element {key!r} (known: {', '.join(board.elements)})")
        else:
            board.elements[str(key)] = state_word(word)


# --- running and comparing --------------------------------------------------


def run_scenario(scenario: Scenario) -> ScenarioResult:
    """The scenario's turn; in `geeko` each owner's robots in their own copy of the room (RULES G2)."""
    return ScenarioResult(resolve_apart(scenario.board, scenario.programs, scenario.ruleset, seed=scenario.seed,
                                        turn=scenario.turn, reboots=scenario.reboots, option_hp=scenario.option_hp))


def robot_outcome(board: Board, name: str, ruleset: Ruleset) -> dict[str, Any]:
    """Every expectable field of one robot after the turn, as comparable values."""
    robot = board.robots[name]
    return {
        "at": robot.at if robot.on_board else None, "facing": robot.facing, "hp": robot.hp, "mode": robot.mode,
        "registers": dict(sorted(robot.registers.items())), "upgrades": sorted(robot.upgrades),
        "options": sorted(robot.options), "next_flag": robot.next_flag, "lives": robot.lives,
        "left_room": robot.left_room, "reinstate_at": robot.reinstate_at, "charges": dict(robot.charges),
        "hand_size": hand_size(board, name, ruleset),
    }


def differences(scenario: Scenario, result: ScenarioResult) -> list[str]:
    diffs = []
    for name, wanted in scenario.expect_robots.items():
        actual = robot_outcome(result.board_of(name), name, scenario.ruleset)
        for key, value in wanted.items():
            if actual[key] != value:
                diffs.append(f"robots.{name}.{key}: expected {_show(value)}, got {_show(actual[key])}")
    several = len(result.copies) > 1
    for owner, copy in result.copies.items():  # `elements`: every copy
        where = f" (in {owner}'s copy)" if several else ""
        diffs += _element_differences(scenario.expect_elements, copy.board, "elements", where)
    for owner, wanted in scenario.expect_elements_of.items():
        copy = result.copies.get(owner) or next(iter(result.copies.values()))  # one shared copy: everyone's
        diffs += _element_differences(wanted, copy.board, f"elements_of.{owner}", "")
    return diffs


def _element_differences(wanted: dict[str, str], board: Board, prefix: str, where: str) -> list[str]:
    diffs = []
    for key, word in wanted.items():
        got = board.elements.get(key)
        if got != word:
            diffs.append(f"{prefix}.{key}: expected {word}, got {got if got is not None else 'no such element'}{where}")
    return diffs


def _show(value: Any) -> str:
    if value is None:
        return "null"
    if isinstance(value, Dir):
        return value.name
    if isinstance(value, dict):
        return "{" + ", ".join(f"{k}: {_show(v)}" for k, v in value.items()) + "}"
    if isinstance(value, list):
        return "[" + ", ".join(_show(v) for v in value) + "]"
    return str(value)


def check_scenario(path: str | Path) -> list[str]:
    """What is wrong with a scenario: its format problems, or how the turn differs from `expect` ([] = pass)."""
    from .scenario_turns import is_multi_turn, load_turns_scenario, turns_differences  # it builds on this module

    path = Path(path)
    try:
        data = read_yaml_file(path)
        if is_multi_turn(data):
            return turns_differences(load_turns_scenario(data, str(path), path.parent))
        scenario = load_scenario(data, str(path), path.parent)
    except FormatError as err:
        return [str(problem) for problem in err.problems]
    return differences(scenario, run_scenario(scenario))


def outcome_yaml(scenario: Scenario, result: ScenarioResult) -> str:
    """The state after the turn as YAML in the `expect` shape (registers only when any are fused; element
    states per owner, `elements_of`, where owners play in copies of their own)."""
    robots = {}
    for name, robot in result.robots.items():
        entry: dict[str, Any] = {"at": str(robot.at) if robot.on_board else None, "facing": robot.facing.name,
                                 "hp": robot.hp, "mode": str(robot.mode)}
        if robot.registers:
            entry["registers"] = {n: (str(c) if c else None) for n, c in sorted(robot.registers.items())}
        entry["upgrades"] = sorted(robot.upgrades)
        entry["options"] = sorted(robot.options)
        robots[name] = entry
    states = {owner: dict(sorted(copy.board.elements.items())) for owner, copy in result.copies.items()}
    document: dict[str, Any] = {"robots": robots}
    if len(states) > 1:
        document["elements_of"] = states
    else:
        document["elements"] = next(iter(states.values()))
    return yaml.safe_dump(document, sort_keys=False, default_flow_style=None, allow_unicode=True)
