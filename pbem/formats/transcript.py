"""DM transcripts (DESIGN.md "DM actions and transcripts"): one YAML file → Config + Actions.

The header is checked here (every problem with its line and field) and the
game is asked to set up once, so a bad variant or option is reported as an
input problem. Payloads stay as written: legality is the game's business
(`replay` lists illegal actions with their reasons). Puzzles stay raw data in
`Config.puzzles` for the puzzle games to parse.
"""
from __future__ import annotations

from dataclasses import dataclass
from datetime import date, datetime, timezone
from pathlib import Path
from typing import Any

import yaml

from ..dm.base import Action, Config, get_game
from ..dm.clock import GM
from .yamlfile import FormatError, LinedDict, LinedList, Problem, line_of, load_yaml, read_yaml_file

HEADER_KEYS = ("name", "notes", "game", "variant", "options", "players", "seed", "puzzles", "actions")


@dataclass(frozen=True)
class Transcript:
    source: str
    config: Config
    actions: tuple[Action, ...]
    lines: tuple[int | None, ...]  # the line of each action


def read_transcript(path: str | Path) -> Transcript:
    return parse_transcript(read_yaml_file(path), str(path))


def load_transcript(text: str, source: str = "<transcript>") -> Transcript:
    return parse_transcript(load_yaml(text), source)


def parse_transcript(document: Any, source: str) -> Transcript:
    problems: list[Problem] = []

    def problem(container: Any, key: Any, field: str, message: str) -> None:
        problems.append(Problem(source, line_of(container, key), field, message))

    if not isinstance(document, dict):
        raise FormatError([Problem(source, None, "", "a transcript is a mapping with game, players and actions")])
    for key in document:
        if key not in HEADER_KEYS:
            problem(document, key, str(key), f"unknown field (known: {', '.join(HEADER_KEYS)})")
    game = document.get("game")
    if not isinstance(game, str):
        problem(document, "game", "game", "required: the game's name")
    else:
        try:
            get_game(game)
        except KeyError as err:
            problem(document, "game", "game", err.args[0])
    players = document.get("players")
    if (not isinstance(players, list) or len(players) < 2
            or not all(isinstance(p, str) and p.strip() for p in players)):
        problem(document, "players", "players", "required: a list of at least two player names, in turn order")
        players = []
    elif len(set(players)) != len(players) or GM in players:
        problem(document, "players", "players", f"player names must differ and not be {GM!r}")
    variant = document.get("variant")
    if variant is not None and not isinstance(variant, str):
        problem(document, "variant", "variant", "must be a name")
    options = document.get("options", {})
    if not isinstance(options, dict):
        problem(document, "options", "options", "must be a mapping")
        options = {}
    seed = document.get("seed", 0)
    if not isinstance(seed, int) or isinstance(seed, bool):
        problem(document, "seed", "seed", "must be a whole number")
    puzzles = document.get("puzzles", [])
    if not isinstance(puzzles, list):
        problem(document, "puzzles", "puzzles", "must be a list")
        puzzles = []
    actions, lines = _actions(document, players, problem)
    if problems:
        raise FormatError(problems)
    config = Config(game, tuple(players), variant, plain(options), seed, tuple(plain(p) for p in puzzles))
    try:
        get_game(game).new_state(config)
    except ValueError as err:
        field = "variant" if "variant" in str(err) else "options"
        raise FormatError([Problem(source, line_of(document, field), field, str(err))]) from None
    except FormatError as err:  # a game refusing its set-up (say, a puzzle): place each problem in the file
        raise FormatError([_placed(problem, document, source) for problem in err.problems]) from None
    return Transcript(source, config, tuple(actions), tuple(lines))


def _placed(problem: Problem, document: Any, source: str) -> Problem:
    """A game's problem with its set-up (source like `options` or `puzzles[0]`) as a problem of this file."""
    top = problem.source.split("[")[0].split(".")[0]
    line = problem.line or (line_of(document, top) if top in HEADER_KEYS else None)
    field = problem.source
    if problem.field and problem.field != problem.source:
        field = f"{problem.source}.{problem.field}"
    return Problem(source, line, field, problem.message)


def _actions(document: Any, players: list, problem) -> tuple[list[Action], list[int | None]]:
    entries = document.get("actions", [])
    if not isinstance(entries, list):
        problem(document, "actions", "actions", "must be a list of {player, at?, ...payload}")
        return [], []
    actions, lines = [], []
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
        payload = {key: plain(value) for key, value in entry.items() if key not in ("player", "at")}
        if not payload:
            problem(entries, index, field, "the action says nothing to do")
        actions.append(Action(str(player), payload, at))
        lines.append(line_of(entries, index))
    return actions, lines


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


def dump_transcript(config: Config, actions: list[Action]) -> str:
    """A transcript that `read_transcript` reads back to the same config and actions."""
    document: dict[str, Any] = {"game": config.game}
    if config.variant is not None:
        document["variant"] = config.variant
    if config.options:
        document["options"] = plain(config.options)
    document["players"] = list(config.players)
    document["seed"] = config.seed
    if config.puzzles:
        document["puzzles"] = list(config.puzzles)
    document["actions"] = [
        {"player": a.player, **({"at": a.at.isoformat()} if a.at else {}), **plain(a.payload)} for a in actions
    ]
    return yaml.safe_dump(document, sort_keys=False, allow_unicode=True, default_flow_style=None)
