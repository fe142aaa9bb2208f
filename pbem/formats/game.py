"""The game description file (`game.yaml`), used by `pbem game import DIR` and written by `export`.

    name: geeko-demo
    ruleset: geeko                  # geeko | botwars
    ruleset_options: {}             # optional: ruleset fields to override
    seed: 2026
    rooms: [rooms/geeko]            # room files or folders (sorted), in play order
    deck: decks/geeko.yaml
    players:
      - {name: alice, email: alice@example.org, robots: [Zapper, Spanner]}
    turns: 4                        # optional: turns to play on import (default: to the last turn folder)
    open_turn: 5                    # optional: a turn dealt but not processed; its orders are submitted only
    created_at: "2026-11-01T20:00:00+00:00"   # optional, as written by export
    schedule: {deadline: 5d, timezone: UTC, remind: [24], process: deadline, review: false, hold_hours: null}
                                    # optional: the schedule `pbem run` keeps (`pbem game set`)

Next to it, one folder per turn (`turn-001/`, `turn-002/` …) holds that turn's
order files, submitted in name order — or, when the folder has an `orders.yaml`
(written by export), in the order it lists them, each with the time it was
submitted, so every version a player sent comes back as it was:

    processed_at: "2026-11-08T20:00:00+00:00"   # absent for the open turn
    submissions:
      - {file: alice.v1.yaml, source: alice.yaml, submitted_at: "2026-11-03T09:12:00+00:00"}

Paths are relative to the file's folder, else the bundled data folders.
"""
from __future__ import annotations

import re
from dataclasses import dataclass, field
from datetime import datetime, timezone
from pathlib import Path
from typing import Any, Callable

import yaml

from ..engine.ruleset import get_ruleset
from ..resources import find_file
from .names import NAME_RULE, address_problem, valid_name
from .problems import Complain
from .schedule import Schedule, ScheduleError, parse_schedule, zone_problem
from .yamlfile import FormatError, LinedDict, LinedList, Problem, decode, line_of, read_limited, read_yaml_file

FIELDS = ("name", "notes", "ruleset", "ruleset_options", "seed", "rooms", "deck", "players", "turns", "open_turn",
          "created_at", "schedule")
MANIFEST = "orders.yaml"
PLAYER_FIELDS = ("name", "email", "robots", "secret", "timezone")
RULESETS = ("geeko", "botwars")
DESCRIPTION = "game.yaml"
_TURN_FOLDER = re.compile(r"^turn-(\d+)$")


@dataclass(frozen=True)
class SourceFile:
    """A data file as given: where it came from and its text (stored with the game, written by export)."""

    source: str
    text: str


@dataclass
class PlayerEntry:
    name: str
    email: str
    robots: list[str]
    secret: str | None = None
    timezone: str | None = None  # the player's own zone (IANA name), deadlines are shown in it too


@dataclass
class GameDescription:
    name: str
    ruleset: str
    seed: str
    rooms: list[SourceFile]
    deck: SourceFile
    players: list[PlayerEntry]
    ruleset_options: dict[str, Any] = field(default_factory=dict)
    turns: int | None = None  # how many turns to play on import (default: up to the last turn folder)
    open_turn: int | None = None  # dealt but not processed: its orders are submitted, not played
    created_at: datetime | None = None
    schedule: Schedule | None = None  # the game's schedule for `pbem run`, when it has one


def read_description(path: str | Path) -> GameDescription:
    """`game.yaml` (or a folder holding one) → GameDescription; every problem at once."""
    path = Path(path)
    if path.is_dir():
        path = path / DESCRIPTION
    source = str(path)
    document = read_yaml_file(path)
    problems: list[Problem] = []

    def problem(container: Any, key: Any, name: str, message: str) -> None:
        problems.append(Problem(source, line_of(container, key), name, message))

    if not isinstance(document, LinedDict):
        raise FormatError([Problem(source, None, "", "a game description is a mapping (name, ruleset, …)")])
    for key in document:
        if key not in FIELDS:
            problem(document, key, str(key), f"unknown field (expected {', '.join(FIELDS)})")
    name: Any = document.get("name")
    if not valid_name(name):
        problem(document, "name", "name", f"must be a name of {NAME_RULE}")
    ruleset: Any = document.get("ruleset")
    if ruleset not in RULESETS:
        problem(document, "ruleset", "ruleset", f"must be one of {', '.join(RULESETS)}")
    options = document.get("ruleset_options") or {}
    if not isinstance(options, dict):
        problem(document, "ruleset_options", "ruleset_options", "must map ruleset fields to values")
        options = {}
    for key, value in options.items() if ruleset in RULESETS else ():
        try:
            get_ruleset(ruleset, {key: value})
        except ValueError as err:
            problem(options, key, f"ruleset_options.{key}", str(err))
    seed = document.get("seed")
    if not isinstance(seed, (int, str)) or isinstance(seed, bool):
        problem(document, "seed", "seed", "must be a number or a word")
    base = path.parent
    rooms = _room_files(document.get("rooms"), base, lambda m: problem(document, "rooms", "rooms", m))
    deck = _read_source(document.get("deck"), base, lambda m: problem(document, "deck", "deck", m))
    players = _players(document.get("players"), lambda c, k, n, m: problem(c, k, n, m), document)
    turns = document.get("turns")
    if turns is not None and (isinstance(turns, bool) or not isinstance(turns, int) or turns < 0):
        problem(document, "turns", "turns", "must be a whole number of turns")
    open_turn = document.get("open_turn")
    if open_turn is not None and (isinstance(open_turn, bool) or not isinstance(open_turn, int)
                                  or open_turn != (turns or 0) + 1):
        problem(document, "open_turn", "open_turn", f"must be the turn after the played ones ({(turns or 0) + 1})")
    created_at = _time(document, "created_at", problem)
    schedule = _schedule(document, problem)
    if problems or deck is None:
        raise FormatError(problems)
    return GameDescription(name, ruleset, str(seed), rooms, deck, players, dict(options), turns, open_turn,
                           created_at, schedule)


def _schedule(document: LinedDict, problem: Complain) -> Schedule | None:
    """The `schedule:` mapping (as `Schedule.to_data` writes it), checked as `pbem game set` checks it."""
    given = document.get("schedule")
    if given is None:
        return None
    if not isinstance(given, LinedDict) or not set(given) <= set(Schedule().to_data()):
        problem(document, "schedule", "schedule", f"must map {', '.join(Schedule().to_data())} to values")
        return None
    data = {**Schedule().to_data(), **given}
    remind = data["remind"] if isinstance(data["remind"], list) else [data["remind"]]
    wrong = [(key, message) for key, ok, message in (
        ("remind", all(isinstance(h, int) and not isinstance(h, bool) for h in remind),
         "must be whole hours before the deadline, like [24, 2]"),
        ("review", isinstance(data["review"], bool), "must be true or false"),
        ("hold_hours", data["hold_hours"] is None or type(data["hold_hours"]) is int, "must be whole hours"))
        if not ok]
    for key, message in wrong:
        problem(given, key, f"schedule.{key}", message)
    if wrong:
        return None
    try:
        return parse_schedule(str(data["deadline"]), str(data["timezone"]), remind, str(data["process"]),
                              data["review"], data["hold_hours"])
    except ScheduleError as err:
        key = {"--hold": "hold_hours"}.get(err.option, err.option.removeprefix("--"))
        problem(given, key if key in given else "schedule", f"schedule.{key}", str(err).split(": ", 1)[1])
    return None


def _time(container: Any, key: str, problem: Complain) -> datetime | None:
    """An ISO 8601 time with its zone (export writes them quoted), or None when absent."""
    value = container.get(key)
    if value is None:
        return None
    try:
        moment = value if isinstance(value, datetime) else datetime.fromisoformat(str(value))
    except ValueError:
        moment = None
    if moment is None or moment.tzinfo is None:
        problem(container, key, key, "must be a time with its zone, like 2026-11-01T20:00:00+00:00")
        return None
    return moment.astimezone(timezone.utc)


@dataclass(frozen=True)
class TurnManifest:
    """A turn folder's `orders.yaml`: its order files in submission order with their times."""

    submissions: list[tuple[str, str | None, datetime | None]]  # file, the name it was sent under, when
    processed_at: datetime | None = None


def read_manifest(folder: Path) -> TurnManifest | None:
    path = folder / MANIFEST
    if not path.is_file():
        return None
    document = read_yaml_file(path)
    problems: list[Problem] = []

    def problem(container: Any, key: Any, name: str, message: str) -> None:
        problems.append(Problem(str(path), line_of(container, key), name, message))

    if not isinstance(document, LinedDict) or not isinstance(document.get("submissions", []), list):
        raise FormatError([Problem(str(path), None, "", "a mapping with submissions: [{file, submitted_at}]")])
    submissions = []
    for index, entry in enumerate(document.get("submissions") or []):
        name = entry.get("file") if isinstance(entry, LinedDict) else None
        if not isinstance(name, str) or "/" in name or "\\" in name or not (folder / name).is_file():
            problem(document["submissions"], index, f"submissions item {index + 1}.file",
                    "must name an order file in this folder")
            continue
        source = entry.get("source")
        submissions.append((name, None if source is None else str(source), _time(entry, "submitted_at", problem)))
    processed_at = _time(document, "processed_at", problem)
    if problems:
        raise FormatError(problems)
    return TurnManifest(submissions, processed_at)


def manifest_text(manifest: TurnManifest) -> str:
    document: dict[str, Any] = {}
    if manifest.processed_at is not None:
        document["processed_at"] = manifest.processed_at.isoformat()
    document["submissions"] = [{"file": name, **({"source": source} if source else {}),
                                **({"submitted_at": at.isoformat()} if at else {})}
                               for name, source, at in manifest.submissions]
    return yaml.safe_dump(document, sort_keys=False, default_flow_style=None, allow_unicode=True, width=100)


def _room_files(value: Any, base: Path, problem: Callable[[str], None]) -> list[SourceFile]:
    if isinstance(value, str):
        value = [value]
    if not isinstance(value, list) or not value:
        problem("must name room files or folders")
        return []
    try:
        return data_files([str(entry) for entry in value], "rooms", base)
    except (FileNotFoundError, FormatError) as err:
        problem(str(err))
        return []


def _read_source(value: Any, base: Path, problem: Callable[[str], None]) -> SourceFile | None:
    if not isinstance(value, str):
        problem("must name a deck file")
        return None
    try:
        return data_files([value], "decks", base)[0]
    except (FileNotFoundError, FormatError) as err:
        problem(str(err))
        return None


def data_files(entries: list[str], folder: str, base: Path | None = None) -> list[SourceFile]:
    """The files named (a folder stands for its *.yaml in name order), each with its text and a source name.

    The source name is the path as written, or `FOLDER/NAME` for an absolute or
    outside path: rooms keep it (Room.source), so it must survive export → import.
    """
    files = []
    for entry in entries:
        path = find_file(entry, base)
        for file in (sorted(path.glob("*.yaml")) if path.is_dir() else [path]):
            name = Path(entry) / file.name if path.is_dir() else Path(entry)
            if name.is_absolute() or ".." in name.parts:
                name = Path(folder) / file.name
            text = decode(read_limited(file), str(file))
            files.append(SourceFile(name.as_posix(), text))
    return files


def _players(value: Any, problem: Complain, document: LinedDict) -> list[PlayerEntry]:
    if not isinstance(value, LinedList) or not value:
        problem(document, "players", "players", "must list the players")
        return []
    players, seen = [], set()
    for index, entry in enumerate(value):
        where = f"players[{index}]"
        if not isinstance(entry, LinedDict):
            problem(value, index, where, "must be {name, email, robots}")
            continue
        for key in entry:
            if key not in PLAYER_FIELDS:
                problem(entry, key, f"{where}.{key}", f"unknown field (expected {', '.join(PLAYER_FIELDS)})")
        name, email = entry.get("name"), entry.get("email", "")
        robots = entry.get("robots")
        if not valid_name(name):
            problem(entry, "name", f"{where}.name", f"must be a name of {NAME_RULE}")
        elif name in seen:
            problem(entry, "name", f"{where}.name", f"{name} is listed twice")
        seen.add(name)
        wrong = address_problem(email)
        if wrong:
            problem(entry, "email", f"{where}.email", wrong)
        if not isinstance(robots, list) or not robots or not all(valid_name(r) for r in robots):
            problem(entry, "robots", f"{where}.robots", "must list robot names")
            robots = []
        zone = entry.get("timezone")
        if zone is not None and zone_problem(zone):
            problem(entry, "timezone", f"{where}.timezone", zone_problem(zone))
            zone = None
        players.append(PlayerEntry(str(name), str(email), list(robots), entry.get("secret"), zone))
    return players


def turn_folders(folder: str | Path) -> list[tuple[int, Path]]:
    """The `turn-NNN` folders next to a description, in turn order."""
    found = []
    for path in Path(folder).iterdir():
        match = _TURN_FOLDER.match(path.name)
        if match and path.is_dir():
            found.append((int(match[1]), path))
    return sorted(found)


def turn_folder_name(turn: int) -> str:
    return f"turn-{turn:03d}"


def description_text(description: GameDescription, room_paths: list[str], deck_path: str) -> str:
    """A `game.yaml` for `description`, naming the given room and deck files."""
    document: dict[str, Any] = {"name": description.name, "ruleset": description.ruleset}
    if description.ruleset_options:
        document["ruleset_options"] = dict(sorted(description.ruleset_options.items()))
    seed: int | str = int(description.seed) if description.seed.isdigit() else description.seed
    document.update(seed=seed, rooms=room_paths, deck=deck_path,
                    players=[_player_document(p) for p in description.players])
    if description.turns is not None:
        document["turns"] = description.turns
    if description.open_turn is not None:
        document["open_turn"] = description.open_turn
    if description.created_at is not None:
        document["created_at"] = description.created_at.isoformat()
    if description.schedule is not None:
        document["schedule"] = description.schedule.to_data()
    return yaml.safe_dump(document, sort_keys=False, default_flow_style=None, allow_unicode=True, width=100)


def _player_document(player: PlayerEntry) -> dict[str, Any]:
    document: dict[str, Any] = {"name": player.name, "email": player.email, "robots": list(player.robots)}
    if player.secret:
        document["secret"] = player.secret
    if player.timezone:
        document["timezone"] = player.timezone
    return document
