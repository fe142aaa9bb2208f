"""Multi-turn rule scenarios (DESIGN.md "Rule scenario", `turns:`): a small campaign played turn by turn through
the campaign engine (`engine.campaign.play_turn`), so what lies above one board can be stated: standings and
winners over turns (G1, BotWars flags), a Geek-o room change (G3, G4) and catching up (G5), and B7.2's fill of
a fused empty register at the turn's end, from the unused pre-set deck (`geeko`) or at random (`botwars`).

    rules: [G3, G4, G5]
    ruleset: geeko
    seed: 1
    rooms: [{size: 3x3, starts: [r2c2, r3c1], elements: [...]}, rooms/x.yaml]   # or room: for one
    deck: decks/geeko.yaml            # optional (the ruleset's bundled deck), or {order: preset, cards: [...]}
    robots:                           # every robot names its owner, the player; in robot order
      - {name: Ant, owner: ann}       # at: the room's start square in robot order unless given;
      - {name: Bee, owner: ann, hp: 9}  # any one-turn robot field (hp, registers, mode ...), checked alike
    turns:
      - programs: {Ant: [FWD1#490]}   # a robot left out plays no card; reboots, option_hp as in one turn
        expect:                       # optional: after this turn
          robots: {Ant: {left_room: true}}
          room: {ann: 2}              # the room each player plays (rooms + 1 once through the last)
          standings: {ann: {place: 1, rooms_done: 1}}   # listed fields of each listed player's row
          winners: []                 # the players placed first once the game is over ([] while it runs)
          filled: {Bee: {9: FWD3#800}}  # B7.2: the registers the turn's end filled, with their cards
    expect: {...}                     # optional: after the last turn, the same keys

A robot entry takes the one-turn fields and means the same by them: `mode: rebooting` makes turn 1 the robot's
rebooting turn (B10: HP full, no register fused, no cards; it is back in play for turn 2). Programs skip order
validation as in a one-turn scenario (no hand, no usability check); every player's orders
count (B4.6's fill for missing orders never applies). A turn with no `expect` is only played.
"""
from __future__ import annotations

from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from ..engine.campaign import GameSetup, GameState, PlayerSetup, new_game, play_turn, standings
from ..engine.campaign import result as game_result
from ..engine.cards import Card
from ..engine.deal import Deck
from ..engine.events import RegisterFilled
from ..engine.orders import Checked
from ..engine.room import Room
from ..engine.ruleset import Ruleset
from ..engine.state import Robot
from ..games import Kind, entry
from ..resources import find_file
from .decks import parse_deck, read_deck
from .fields import Fields, is_whole
from .scenario import (
    _check_damage,
    _element_differences,
    _expect,
    _int,
    _names_in_order,
    _programs,
    _robot,
    _room,
    _ruleset,
    _show,
    parse_card,
    reboots_and_option_hp,
    robot_entries,
    robot_outcome,
)
from .yamlfile import FormatError, LinedDict, Problem

TOP_KEYS = ("rules", "title", "name", "notes", "ruleset", "ruleset_options", "seed", "room", "rooms", "deck",
            "robots", "turns", "expect")
TURN_KEYS = ("programs", "reboots", "option_hp", "expect", "notes")
MORE = ("room", "standings", "winners", "filled")
STANDING_FIELDS = ("place", "turns", "rooms_done", "flags", "lives", "won")


@dataclass
class Expected:
    """What must hold after a turn: each listed field, nothing else."""

    robots: dict[str, dict[str, Any]] = field(default_factory=dict)
    elements: dict[str, str] = field(default_factory=dict)
    elements_of: dict[str, dict[str, str]] = field(default_factory=dict)
    room: dict[str, int] = field(default_factory=dict)
    standings: dict[str, dict[str, Any]] = field(default_factory=dict)
    winners: list[str] | None = None
    filled: dict[str, dict[int, Card]] = field(default_factory=dict)


@dataclass
class Turn:
    orders: dict[str, Checked]  # player -> their orders, taken as they stand
    expect: Expected | None


@dataclass
class TurnsScenario:
    source: str
    rules: list[str]
    title: str
    start: GameState
    turns: list[Turn]
    expect: Expected | None


def is_multi_turn(data: Any) -> bool:
    return isinstance(data, dict) and "turns" in data


def load_turns_scenario(data: dict[str, Any], source: str, folder: Path) -> TurnsScenario:
    """A multi-turn scenario, or FormatError with every problem, each naming the file, line and field."""
    out = Fields(source)
    out.unknown(data, TOP_KEYS, f"unknown key (known: {', '.join(TOP_KEYS)})")
    ruleset = _ruleset(data, out)
    rooms = _rooms(data, folder, out)
    deck = _deck(data, folder, ruleset, out)
    robots, owners = _owned_robots(data, out)
    setup = None
    if ruleset is not None and rooms and deck is not None and robots:
        spec = data["ruleset"] if isinstance(data.get("ruleset"), dict) else data
        options = spec.get("ruleset_options") or {}
        setup = GameSetup("scenario", ruleset.name, str(data.get("seed", 0)), tuple(rooms), deck,
                          tuple(PlayerSetup(owner, tuple(names)) for owner, names in owners.items()), dict(options))
    start = _start(setup, ruleset, robots, out) if setup is not None and ruleset is not None else None
    names = {item["name"]: Robot(item["name"], owner) for item, owner, _ in robots}
    turns = _turns(data, names, owners, out)
    expect = _expected(data, "expect", names, owners, out) if "expect" in data else None
    if not turns and "turns" in data and not out.problems:
        out.add(data, "turns", "turns", "must list at least one turn")
    if not out.problems and expect is None and all(turn.expect is None for turn in turns):
        out.add(data, "turns", "expect", "nothing is expected: give an `expect` after a turn or at the end")
    if out.problems or start is None:
        raise FormatError(out.problems)
    rules = data.get("rules", [])
    return TurnsScenario(source, [str(r) for r in rules] if isinstance(rules, list) else [str(rules)],
                         str(data.get("title", "")), start, turns, expect)


def _rooms(data: dict[str, Any], folder: Path, out: Fields) -> list[Room]:
    """`rooms:` (the Geek-o rooms in order) or `room:` (one room, the BotWars board); each with its start squares,
    where the game puts the robots."""
    if "rooms" in data and "room" in data:
        out.add(data, "rooms", "rooms", "give `rooms` (a list) or `room` (one), not both")
        return []
    raw: Any = data
    places: list[tuple[Any, str]] = [("room", "room")]
    if "rooms" in data:
        raw = data["rooms"]
        if not isinstance(raw, list) or not raw:
            out.add(data, "rooms", "rooms", "must be a list of rooms (each a mapping or a room file path)")
            return []
        places = [(index, f"rooms[{index}]") for index in range(len(raw))]
    rooms = []
    for key, where in places:
        room = _room(raw, folder, out, key, where)
        if room is not None and not room.starts:
            out.add(raw, key, f"{where}.starts", "a room played over turns needs its start squares")
        rooms.append(room if room is not None and room.starts else None)
    return [room for room in rooms if room is not None] if None not in rooms else []


def _deck(data: dict[str, Any], folder: Path, ruleset: Ruleset | None, out: Fields) -> Deck | None:
    raw = data.get("deck")
    try:
        if raw is None:  # the deck the game's registry entry names (pbem/games.py)
            bundled = entry(ruleset.name if ruleset else "botwars", Kind.CAMPAIGN).deck
            assert bundled is not None  # every campaign names its deck
            return read_deck(find_file(bundled))
        if isinstance(raw, str):
            return read_deck(find_file(raw, folder))
        if isinstance(raw, LinedDict):
            return parse_deck(raw, out.source)
        out.add(data, "deck", "deck", "must be a deck file's path or a deck mapping {order, cards}")
    except FileNotFoundError as err:
        out.add(data, "deck", "deck", str(err))
    except FormatError as err:
        out.problems += [Problem(p.source, p.line, f"deck.{p.field}".rstrip("."), p.message) for p in err.problems]
    return None


Entry = tuple[dict[str, Any], str, str]  # a robot's entry, its owner, its field name (`robots[1]`)


def _owned_robots(data: dict[str, Any], out: Fields) -> tuple[list[Entry], dict[str, list[str]]]:
    """The robot entries with their owners, and each owner's robots in robot order (owners in order of first
    appearance)."""
    robots: list[Entry] = []
    owners: dict[str, list[str]] = {}
    for _, where, item in robot_entries(data, out, "{name, owner, ...}"):
        if not isinstance(item.get("owner"), str) or not item["owner"]:
            out.add(item, "owner" if "owner" in item else None, f"{where}.owner",
                    "missing: every robot of a multi-turn scenario names its owner (the player)")
        else:
            robots.append((item, item["owner"], where))
            owners.setdefault(item["owner"], []).append(item["name"])
    return robots, owners


def _start(setup: GameSetup, ruleset: Ruleset, robots: list[Entry], out: Fields) -> GameState | None:
    """Turn 1 with the robots as the file sets them up: each starts as the game would start it (the room's start
    square in robot order, facing north, full HP), then takes the fields its entry gives."""
    fresh = new_game(setup)
    placed = []
    for item, owner, where in robots:
        robot = _robot(item, where, ruleset, out, base=fresh.board_of(owner).robots[item["name"]])
        _check_damage(robot, item, where, ruleset, out)
        room = fresh.board_of(owner).room
        if robot.at is not None and not room.size.contains(robot.at):
            out.add(item, "at", f"{where}.at", f"{robot.at} is off the {room.size} board")
        placed.append(robot)
    return None if out.problems else new_game(setup, placed)


def _turns(data: dict[str, Any], robots: dict[str, Robot], owners: dict[str, list[str]], out: Fields) -> list[Turn]:
    raw = data.get("turns")
    if not isinstance(raw, list):
        out.add(data, "turns", "turns", "must be a list of turns, each {programs, expect}")
        return []
    turns = []
    for index, item in enumerate(raw):
        where = f"turns[{index}]"
        if not isinstance(item, dict):
            out.add(raw, index, where, "must be a mapping {programs, reboots, option_hp, expect}")
            continue
        out.unknown(item, TURN_KEYS, f"unknown key (known: {', '.join(TURN_KEYS)})", where)
        programs = _programs(item, robots, out, f"{where}.programs")
        reboots, option_hp = reboots_and_option_hp(item, robots, out, f"{where}.")
        orders = {}
        for owner, names in owners.items():
            hp = {option_hp[name] for name in names if name in option_hp}
            orders[owner] = Checked({name: programs.get(name, []) for name in names},
                                    [name for name in reboots if name in names], min(hp) if hp else None)
        expect = _expected(item, f"{where}.expect", robots, owners, out) if "expect" in item else None
        turns.append(Turn(orders, expect))
    return turns


def _expected(data: dict[str, Any], where: str, robots: dict[str, Robot], owners: dict[str, list[str]],
              out: Fields) -> Expected:
    wanted = Expected(*_expect(data, robots, out, where, MORE))
    raw = data.get("expect")
    if not isinstance(raw, dict):
        return wanted
    for player in _by_player(raw, "room", where, owners, out):
        room = out.value(raw["room"], player, f"{where}.room.{player}", _int)
        if room is not None:
            wanted.room[str(player)] = room
    for player, fields in _by_player(raw, "standings", where, owners, out).items():
        if not isinstance(fields, dict):
            out.add(raw["standings"], player, f"{where}.standings.{player}", "must map standing fields to values")
            continue
        out.unknown(fields, STANDING_FIELDS, f"not a standing field (known: {', '.join(STANDING_FIELDS)})",
                    f"{where}.standings.{player}")
        wanted.standings[str(player)] = {key: value for key, value in fields.items() if key in STANDING_FIELDS}
    if "winners" in raw:
        wanted.winners = out.value(raw, "winners", f"{where}.winners", _names_in_order)
        for player in wanted.winners or []:
            if player not in owners:
                out.add(raw, "winners", f"{where}.winners", f"no player {player!r} (players: {', '.join(owners)})")
    filled = raw.get("filled") or {}
    if not isinstance(filled, dict):
        out.add(raw, "filled", f"{where}.filled", "must map robot names to {register: card}")
        filled = {}
    for name, registers in filled.items():
        if name not in robots:
            out.add(filled, name, f"{where}.filled.{name}", "no robot of that name")
        elif not isinstance(registers, dict) or not registers:
            out.add(filled, name, f"{where}.filled.{name}", "must map register numbers to cards, e.g. {9: FWD1#600}")
        else:
            cards = {}
            for number in registers:
                if not is_whole(number) or number < 1:
                    out.add(registers, number, f"{where}.filled.{name}.{number}", "not a register number")
                elif (card := out.value(registers, number, f"{where}.filled.{name}.{number}", parse_card)) is not None:
                    cards[number] = card
            wanted.filled[str(name)] = cards
    return wanted


def _by_player(raw: dict[str, Any], key: str, where: str, owners: dict[str, list[str]], out: Fields) -> dict[Any, Any]:
    given = raw.get(key) or {}
    if not isinstance(given, dict):
        out.add(raw, key, f"{where}.{key}", "must map player names to values")
        return {}
    for player in given:
        if player not in owners:
            out.add(given, player, f"{where}.{key}.{player}", f"no player {player!r} (players: {', '.join(owners)})")
    return {player: value for player, value in given.items() if player in owners}


# --- playing and comparing --------------------------------------------------------------------------------------

def turns_differences(scenario: TurnsScenario) -> list[str]:
    """Play every turn; how each turn's outcome differs from its `expect`, and the last from the final `expect`."""
    state, diffs = scenario.start, list[str]()
    for index, turn in enumerate(scenario.turns):
        if state.is_over:
            return diffs + [f"turns[{index}]: the game was over before this turn"]
        outcome = play_turn(state, turn.orders, state.setup.seed)
        state = outcome.state
        filled: dict[str, dict[int, Card]] = {}
        for _, event in outcome.events:
            if isinstance(event, RegisterFilled) and event.robot is not None:
                filled.setdefault(event.robot, {})[event.register] = event.card
        if turn.expect is not None:
            diffs += [f"turns[{index}].{d}" for d in _differences(turn.expect, state, filled)]
        if index == len(scenario.turns) - 1 and scenario.expect is not None:
            diffs += _differences(scenario.expect, state, filled)
    return diffs


def _differences(wanted: Expected, state: GameState, filled: dict[str, dict[int, Card]]) -> list[str]:
    rules = state.setup.rules()
    diffs = []
    for name, fields in wanted.robots.items():
        owner = next(p.name for p in state.players.values() if name in p.robots)
        actual = robot_outcome(state.board_of(owner), name, rules)
        diffs += [f"robots.{name}.{key}: expected {_show(value)}, got {_show(actual[key])}"
                  for key, value in fields.items() if actual[key] != value]
    for key, board in sorted(state.boards.items()):
        where = f" (in {key}'s room)" if len(state.boards) > 1 else ""
        diffs += _element_differences(wanted.elements, board, "elements", where)
    for owner, states in wanted.elements_of.items():
        diffs += _element_differences(states, state.board_of(owner), f"elements_of.{owner}", "")
    diffs += [f"room.{player}: expected {room}, got {state.players[player].room}"
              for player, room in wanted.room.items() if state.players[player].room != room]
    rows = {row["player"]: row for row in standings(state)}
    for player, fields in wanted.standings.items():
        diffs += [f"standings.{player}.{key}: expected {_show(value)}, got {_show(rows[player].get(key))}"
                  for key, value in fields.items() if rows[player].get(key) != value]
    if wanted.winners is not None:
        over = game_result(state)
        got = sorted(over.winners) if over is not None else []
        if got != sorted(wanted.winners):
            diffs.append(f"winners: expected {_show(sorted(wanted.winners))}, got {_show(got)}")
    for name, registers in wanted.filled.items():
        got_filled = dict(sorted(filled.get(name, {}).items()))
        if got_filled != dict(sorted(registers.items())):
            diffs.append(f"filled.{name}: expected {_show(dict(sorted(registers.items())))}, got {_show(got_filled)}")
    return diffs
