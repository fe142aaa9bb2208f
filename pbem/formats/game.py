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
from typing import Any

from ..engine.ruleset import get_ruleset
from ..games import Kind, names
from ..resources import find_file
from .fields import Field, Fields, checked, each, flag, is_whole, mapping, one_of, whole, word
from .names import NAME_RULE, address_problem, valid_name
from .problems import Complain
from .schedule import Schedule, ScheduleError, parse_schedule, zone_problem
from .yamlfile import FormatError, LinedDict, LinedList, Problem, decode, read_limited, read_yaml_file

FIELDS = ("name", "notes", "ruleset", "ruleset_options", "seed", "rooms", "deck", "players", "turns", "open_turn",
          "created_at", "schedule")
MANIFEST = "orders.yaml"
PLAYER_FIELDS = ("name", "email", "robots", "secret", "timezone")
RULESETS = names(Kind.CAMPAIGN)  # a campaign game plays the ruleset of its name
DESCRIPTION = "game.yaml"
_TURN_FOLDER = re.compile(r"^turn-(\d{1,18})$")


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
    document, fields = mapping_file(path, FIELDS, "a game description is a mapping (name, ruleset, …)")
    head = fields.read(document, HEAD)
    options = head["ruleset_options"]
    for key, value in options.items() if head["ruleset"] is not None else ():
        try:
            get_ruleset(head["ruleset"], {key: value})
        except ValueError as err:
            fields.add(options, key, f"ruleset_options.{key}", str(err))
    files = fields.read(document, _files(path.parent))
    players = _players(fields, document)
    turns = fields.read(document, TURNS)["turns"]
    open_turn = document.get("open_turn")
    if open_turn is not None and (not is_whole(open_turn) or open_turn != (turns or 0) + 1):
        fields.add(document, "open_turn", "open_turn", f"must be the turn after the played ones ({(turns or 0) + 1})")
    created_at = zoned_time(document, "created_at", fields.add)
    schedule = _schedule(document, fields)
    if fields.problems or files["deck"] is None:
        raise FormatError(fields.problems)
    return GameDescription(head["name"], head["ruleset"], str(files["seed"]), files["rooms"], files["deck"], players,
                           dict(options), turns, open_turn, created_at, schedule)


def mapping_file(path: Path, known: tuple[str, ...], what: str) -> tuple[LinedDict, Fields]:
    """A YAML file that must be a mapping (else FormatError saying `what` it is), and the `Fields` reading it, an
    unknown field already refused (a game's `game.yaml`, a match's)."""
    document = read_yaml_file(path)
    if not isinstance(document, LinedDict):
        raise FormatError([Problem(str(path), None, "", what)])
    fields = Fields(str(path))
    fields.unknown(document, known, f"unknown field (expected {', '.join(known)})")
    return document, fields


def listed_mappings(fields: Fields, document: LinedDict, key: str, known: tuple[str, ...], shape: str,
                    missing: str) -> list[tuple[str, LinedDict]]:
    """Each mapping listed under `key`, with its field's name (`players[0]`), an unknown field in it refused; a list
    missing or empty is refused with `missing`, an item that is no mapping with `shape`."""
    given = document.get(key)
    if not isinstance(given, LinedList) or not given:
        fields.add(document, key, key, missing)
        return []
    found = []
    for index, entry in enumerate(given):
        where = f"{key}[{index}]"
        if not isinstance(entry, LinedDict):
            fields.add(given, index, where, shape)
            continue
        fields.unknown(entry, known, f"unknown field (expected {', '.join(known)})", where)
        found.append((where, entry))
    return found


_A_NAME = f"must be a name of {NAME_RULE}"
_RULESET = f"must be one of {', '.join(RULESETS)}"
HEAD = {
    "name": Field(checked(valid_name, _A_NAME), missing=_A_NAME, null=False),
    "ruleset": Field(one_of(RULESETS, _RULESET), missing=_RULESET, null=False),
    "ruleset_options": Field(lambda value: mapping("must map ruleset fields to values")(value) if value else {},
                             default={}),
}
TURNS = {"turns": Field(whole("must be a whole number of turns", least=0))}


def _files(base: Path) -> dict[str, Field]:
    """The seed and the data files, looked up from `base` (the description's folder)."""
    a_deck, rooms = "must name a deck file", "must name room files or folders"
    return {"seed": Field(word("must be a number or a word"), missing="must be a number or a word", null=False),
            "rooms": Field(lambda value: _room_files(value, base), default=[], missing=rooms, null=False),
            "deck": Field(lambda value: _read_source(value, base), missing=a_deck, null=False)}


_SCHEDULE = Schedule().to_data()
SCHEDULE = {
    "remind": Field(each(whole(), "must be whole hours before the deadline, like [24, 2]"),
                    default=_SCHEDULE["remind"], null=False),
    "review": Field(flag(), default=_SCHEDULE["review"], null=False),
    "hold_hours": Field(whole("must be whole hours"), default=_SCHEDULE["hold_hours"]),
}


def _schedule(document: LinedDict, fields: Fields) -> Schedule | None:
    """The `schedule:` mapping (as `Schedule.to_data` writes it), checked as `pbem game set` checks it."""
    given = document.get("schedule")
    if given is None:
        return None
    if not isinstance(given, LinedDict) or not set(given) <= set(_SCHEDULE):
        fields.add(document, "schedule", "schedule", f"must map {', '.join(_SCHEDULE)} to values")
        return None
    refused = len(fields.problems)
    hours = fields.read(given, SCHEDULE, "schedule")
    if len(fields.problems) > refused:
        return None
    words = {key: str(given.get(key, _SCHEDULE[key])) for key in ("deadline", "timezone", "process")}
    try:
        return parse_schedule(words["deadline"], words["timezone"], hours["remind"], words["process"],
                              hours["review"], hours["hold_hours"])
    except ScheduleError as err:
        key = {"--hold": "hold_hours"}.get(err.option, err.option.removeprefix("--"))
        fields.add(given, key if key in given else "schedule", f"schedule.{key}", str(err).split(": ", 1)[1])
    return None


def zoned_time(container: Any, key: str, problem: Complain) -> datetime | None:
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
    fields = Fields(str(path))
    if not isinstance(document, LinedDict) or not isinstance(document.get("submissions", []), list):
        raise FormatError([Problem(str(path), None, "", "a mapping with submissions: [{file, submitted_at}]")])
    submissions = []
    for index, entry in enumerate(document.get("submissions") or []):
        name = entry.get("file") if isinstance(entry, LinedDict) else None
        if not isinstance(name, str) or "/" in name or "\\" in name or not (folder / name).is_file():
            fields.add(document["submissions"], index, f"submissions item {index + 1}.file",
                    "must name an order file in this folder")
            continue
        source = entry.get("source")
        submissions.append((name, None if source is None else str(source), zoned_time(entry, "submitted_at", fields.add)))
    processed_at = zoned_time(document, "processed_at", fields.add)
    if fields.problems:
        raise FormatError(fields.problems)
    return TurnManifest(submissions, processed_at)


def manifest_text(manifest: TurnManifest) -> str:
    document: dict[str, Any] = {}
    if manifest.processed_at is not None:
        document["processed_at"] = manifest.processed_at.isoformat()
    document["submissions"] = [{"file": name, **({"source": source} if source else {}),
                                **({"submitted_at": at.isoformat()} if at else {})}
                               for name, source, at in manifest.submissions]
    import yaml  # imported when a description is written, not by every reader of turn folders

    return yaml.safe_dump(document, sort_keys=False, default_flow_style=None, allow_unicode=True, width=100)


def _room_files(value: Any, base: Path) -> list[SourceFile]:
    if isinstance(value, str):
        value = [value]
    if not isinstance(value, list) or not value:
        raise ValueError("must name room files or folders")
    return _found([str(entry) for entry in value], "rooms", base)


def _read_source(value: Any, base: Path) -> SourceFile:
    if not isinstance(value, str):
        raise ValueError("must name a deck file")
    return _found([value], "decks", base)[0]


def _found(entries: list[str], folder: str, base: Path) -> list[SourceFile]:
    """`data_files`, a file that is missing or unreadable said as a ValueError."""
    try:
        return data_files(entries, folder, base)
    except (FileNotFoundError, FormatError) as err:
        raise ValueError(str(err)) from None


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


def _players(fields: Fields, document: LinedDict) -> list[PlayerEntry]:
    players, seen = [], set()
    for where, entry in listed_mappings(fields, document, "players", PLAYER_FIELDS, "must be {name, email, robots}",
                                        "must list the players"):
        name, email = entry.get("name"), entry.get("email", "")
        robots = entry.get("robots")
        if not valid_name(name):
            fields.add(entry, "name", f"{where}.name", _A_NAME)
        elif name in seen:
            fields.add(entry, "name", f"{where}.name", f"{name} is listed twice")
        seen.add(name)
        wrong = address_problem(email)
        if wrong:
            fields.add(entry, "email", f"{where}.email", wrong)
        if not isinstance(robots, list) or not robots or not all(valid_name(r) for r in robots):
            fields.add(entry, "robots", f"{where}.robots", "must list robot names")
            robots = []
        zone = entry.get("timezone")
        if zone is not None and zone_problem(zone):
            fields.add(entry, "timezone", f"{where}.timezone", zone_problem(zone))
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
    import yaml  # imported when a description is written, not by every reader of turn folders

    return yaml.safe_dump(document, sort_keys=False, default_flow_style=None, allow_unicode=True, width=100)


def _player_document(player: PlayerEntry) -> dict[str, Any]:
    document: dict[str, Any] = {"name": player.name, "email": player.email, "robots": list(player.robots)}
    if player.secret:
        document["secret"] = player.secret
    if player.timezone:
        document["timezone"] = player.timezone
    return document
