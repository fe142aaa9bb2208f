"""DM transcripts (DESIGN.md "DM actions and transcripts"): one YAML file → Config + Actions.

The header is checked here (every problem with its line and field) and the
game is asked to set up once, so a bad variant or option is reported as an
input problem. Payloads stay as written: legality is the game's business
(`replay` lists illegal actions with their reasons). Puzzles are read into the
game's own objects here (`dmpuzzles`), so the games never see file data.
"""
from __future__ import annotations

from dataclasses import dataclass
from datetime import date, datetime, timezone
from enum import StrEnum
from pathlib import Path
from typing import Any

import yaml

from ..dm.base import Action, Config, SetupError, get_game
from ..dm.clock import GM
from .dmpuzzles import puzzle_documents, read_puzzles
from .fields import Field, Fields, mapping, sequence, string, whole
from .problems import Complain
from .yamlfile import FormatError, LinedDict, LinedList, Problem, line_of, load_yaml, read_yaml_file

HEADER_KEYS = ("name", "notes", "game", "variant", "options", "players", "seed", "puzzles", "actions")


class MoveSource(StrEnum):
    """How a stored move came: by mail, a GM command, the clock's own action, a transcript taken over."""

    MAIL = "mail"
    COMMAND = "command"
    CLOCK = "clock"
    TRANSCRIPT = "transcript"


@dataclass(frozen=True)
class MoveRecord:
    """What an archived match keeps of a move besides its action (keys beside the payload, never part of it):
    why it was refused (None: accepted), how it came, the key of the message that carried it."""

    refused: str | None = None
    source: MoveSource = MoveSource.TRANSCRIPT
    mail: str | None = None


RECORD_KEYS = ("refused", "source", "mail")  # an action's keys that are its record, not its payload


@dataclass(frozen=True)
class Transcript:
    source: str
    config: Config
    actions: tuple[Action, ...]
    lines: tuple[int | None, ...]  # the line of each action
    records: tuple[MoveRecord, ...] = ()  # each action's record (an archived match's transcript)


def read_transcript(path: str | Path, *, implied: bool = True) -> Transcript:
    return parse_transcript(read_yaml_file(path), str(path), implied=implied)


def load_transcript(text: str, source: str = "<transcript>") -> Transcript:
    return parse_transcript(load_yaml(text), source)


def parse_transcript(document: Any, source: str, *, implied: bool = True) -> Transcript:
    """The transcript in `document`; with `implied`, options its actions imply where the header is silent are
    added (a match's archive writes every option it was created with, so none is implied)."""
    if not isinstance(document, dict):
        raise FormatError([Problem(source, None, "", "a transcript is a mapping with game, players and actions")])
    fields = Fields(source)
    fields.unknown(document, HEADER_KEYS, f"unknown field (known: {', '.join(HEADER_KEYS)})")
    header = fields.read(document, HEADER)
    game, players = header["game"], header["players"]
    players_ok = bool(players)
    if players_ok and (len(set(players)) != len(players) or GM in players):
        fields.add(document, "players", "players", f"player names must differ and not be {GM!r}")
        players_ok = False
    setup = fields.read(document, SETUP)
    config = None
    actions, lines, records = _actions(document, players, fields.add)
    if game is not None:  # the game's own set-up checks run whatever else is wrong, so one run lists every problem
        puzzles, puzzle_problems = read_puzzles(game, setup["puzzles"])
        fields.problems.extend(_placed(p, document, source) for p in puzzle_problems)
        options = plain(setup["options"])
        options = get_game(game).transcript_options(options, actions) if implied else options
        config = Config(game, tuple(players), setup["variant"], options, setup["seed"], puzzles)
        for field, message in _setup_problems(config):
            if players_ok or field != "players":  # a bad players list is reported once, above
                fields.problems.append(Problem(source, _line_of_field(document, field), field, message))
    if fields.problems or config is None:
        raise FormatError(fields.problems)
    return Transcript(source, config, tuple(actions), tuple(lines), tuple(records))


def _game(name: Any) -> str:
    """A registered game's name."""
    if not isinstance(name, str):
        raise ValueError(_NO_GAME)
    try:
        get_game(name)
    except KeyError as err:
        raise ValueError(str(err.args[0])) from None
    return name


def _players(names: Any) -> list[str]:
    """The players, in turn order."""
    if not (isinstance(names, list) and len(names) >= 2 and all(isinstance(p, str) and p.strip() for p in names)):
        raise ValueError(_NO_PLAYERS)
    return names


_NO_GAME = "required: the game's name"
_NO_PLAYERS = "required: a list of at least two player names, in turn order"
HEADER = {"game": Field(_game, missing=_NO_GAME, null=False),
          "players": Field(_players, default=[], missing=_NO_PLAYERS, null=False)}
SETUP = {"variant": Field(string()),
         "options": Field(mapping("must be a mapping"), default={}, null=False),
         "seed": Field(whole(), default=0, null=False),
         "puzzles": Field(sequence("must be a list"), default=[], null=False)}


def _setup_problems(config: Config) -> list[tuple[str, str]]:
    """What the game refuses in this set-up (nothing when it can start)."""
    try:
        get_game(config.game).new_state(config)
    except SetupError as err:
        return err.problems
    return []


def _line_of_field(document: Any, field: str) -> int | None:
    """The line of a set-up field like `variant`, `options.dice` or `puzzles[1]`."""
    top, _, key = field.split("[")[0].partition(".")
    if top == "options" and key:
        line = line_of(document.get("options"), key)
        if line is not None:
            return line
    return line_of(document, top)


def _placed(problem: Problem, document: Any, source: str) -> Problem:
    """A puzzle's problem (source like `puzzles[0]`) as a problem of this file."""
    line = problem.line or _line_of_field(document, problem.source)
    field = problem.source
    if problem.field and problem.field != problem.source:
        field = f"{problem.source}.{problem.field}"
    return Problem(source, line, field, problem.message)


def _actions(document: Any, players: list[str], problem: Complain
             ) -> tuple[list[Action], list[int | None], list[MoveRecord]]:
    entries = document.get("actions", [])
    if not isinstance(entries, list):
        problem(document, "actions", "actions", "must be a list of {player, at?, ...payload}")
        return [], [], []
    actions, lines, records = [], [], []
    for index, entry in enumerate(entries):
        field = f"actions[{index}]"
        if not isinstance(entry, dict):
            problem(entries, index, field, "an action is a mapping {player, at?, ...payload}")
            continue
        player = entry.get("player")
        if player not in players and player != GM:
            problem(entry, "player", f"{field}.player", f"{player!r} is not a player of this match (nor {GM})")
        try:
            at = parse_time(entry.get("at"))
        except ValueError as err:
            problem(entry, "at", f"{field}.at", str(err))
            at = None
        payload = {key: plain(value) for key, value in entry.items() if key not in ("player", "at", *RECORD_KEYS)}
        if not payload:
            problem(entries, index, field, "the action says nothing to do")
        actions.append(Action(str(player), payload, at))
        lines.append(line_of(entries, index))
        records.append(_record(entry, field, problem))
    return actions, lines, records


def _record(entry: Any, field: str, problem: Complain) -> MoveRecord:
    """An action's record keys (`refused`, `source`, `mail`), each checked."""
    refused, mail, source = entry.get("refused"), entry.get("mail"), entry.get("source", MoveSource.TRANSCRIPT)
    for key, value in (("refused", refused), ("mail", mail)):
        if value is not None and not (isinstance(value, str) and value):
            problem(entry, key, f"{field}.{key}", "must be text")
    if not isinstance(source, str) or source not in set(MoveSource):
        problem(entry, "source", f"{field}.source", f"must be one of {', '.join(MoveSource)}, not {source!r}")
        source = MoveSource.TRANSCRIPT
    return MoveRecord(refused if isinstance(refused, str) else None, MoveSource(source),
                      mail if isinstance(mail, str) else None)


def parse_time(value: Any) -> datetime | None:
    """A time stamp as a timezone-aware datetime (UTC when none is given)."""
    if value is None:
        return None
    if isinstance(value, date) and not isinstance(value, datetime):
        raise ValueError("a time stamp needs a time of day, like 2021-05-01T20:15:00Z")
    if isinstance(value, str):
        try:
            value = datetime.fromisoformat(value.strip())
        except ValueError:
            raise ValueError(f"not a time stamp (ISO 8601, like 2021-05-01T20:15:00Z): {value!r}") from None
    if not isinstance(value, datetime):
        raise ValueError(f"not a time stamp: {value!r}")
    return value if value.tzinfo else value.replace(tzinfo=timezone.utc)


def plain(value: Any) -> Any:
    """Lined YAML containers as ordinary dicts and lists."""
    if isinstance(value, (LinedDict, dict)):
        return {key: plain(item) for key, item in value.items()}
    if isinstance(value, (LinedList, list)):
        return [plain(item) for item in value]
    return value


def dump_transcript(config: Config, actions: list[Action], records: list[MoveRecord] | None = None) -> str:
    """A transcript that `read_transcript` reads back to the same config and actions (and each action's record,
    when given: an archived match's every move)."""
    document: dict[str, Any] = {"game": config.game}
    if config.variant is not None:
        document["variant"] = config.variant
    if config.options:
        document["options"] = plain(config.options)
    document["players"] = list(config.players)
    document["seed"] = config.seed
    if config.puzzles:
        document["puzzles"] = puzzle_documents(config.game, config.puzzles)
    document["actions"] = [
        {"player": a.player, **({"at": a.at.isoformat()} if a.at else {}), **plain(a.payload), **_record_keys(record)}
        for a, record in zip(actions, records or [MoveRecord()] * len(actions))
    ]
    return yaml.safe_dump(document, sort_keys=False, allow_unicode=True, default_flow_style=None)


def _record_keys(record: MoveRecord) -> dict[str, str]:
    """A record's keys as written (a taken-over transcript's accepted action writes none)."""
    keys: dict[str, str] = {}
    if record.refused is not None:
        keys["refused"] = record.refused
    if record.source is not MoveSource.TRANSCRIPT:
        keys["source"] = str(record.source)
    if record.mail is not None:
        keys["mail"] = record.mail
    return keys
