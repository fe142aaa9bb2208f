"""The GM's controls as words and as a file: `controls.yaml` in an exported game, the game's control history.

    - {at: 2026-12-03T10:00:00+00:00, kind: pause, data: {turn: 2, remaining: 86400}}
    - {at: 2026-12-04T09:00:00+00:00, kind: address, player: alice, data: {email: a@new.example, was: a@old.example}}

Every word enters here: a misspelt kind or policy names the field and the words it takes.
"""
from __future__ import annotations

import re
from dataclasses import dataclass
from datetime import datetime, timedelta
from enum import StrEnum
from typing import Any

from .yamlfile import FormatError, LinedDict, LinedList, Problem, load_yaml

CONTROLS = "controls.yaml"


class Control(StrEnum):
    EXTEND = "extend"
    PAUSE = "pause"
    RESUME = "resume"
    REPLACE = "replace"
    ADDRESS = "address"
    AWAY = "away"
    BROADCAST = "broadcast"
    OBSERVE = "observe"
    UNOBSERVE = "unobserve"
    POLICY = "policy"
    PRESS = "press"
    END = "end"  # the GM ended the game (data: how, a `formats.ending.Ending`, and reason)


class Press(StrEnum):
    """Whether players may mail each other through the GM (`press:`), and whether the relay names the author."""

    OFF = "off"
    SIGNED = "signed"
    ANONYMOUS = "anonymous"


class Absence(StrEnum):
    """What an announced absence does to a turn due while the player is away."""

    EXTEND = "extend"  # that turn's deadline moves once, to the end of the absence
    PILOT = "pilot"  # the robot pilot plays the absent player's robots if no orders came


POLICIES: dict[str, type[StrEnum]] = {"press": Press, "absence": Absence}
DEFAULT_POLICY = {"press": Press.OFF, "absence": Absence.EXTEND}


def policy_word(name: str, text: str) -> StrEnum:
    """A policy's word, checked: `press: singed` is refused naming the words it takes."""
    kind = POLICIES[name]
    try:
        return kind(text.strip().lower())
    except ValueError:
        raise ValueError(f"--{name}: {text!r} is not one of {', '.join(k.value for k in kind)}") from None


_SPAN = re.compile(r"(?:(\d+)d)?\s*(?:(\d+)h)?\s*(?:(\d+)m)?")


def duration(text: str) -> timedelta:
    """`24h`, `2d`, `1d12h`, `90m`: a positive span of time."""
    found = _SPAN.fullmatch(text.strip().lower())
    if not text.strip() or found is None or not any(found.groups()):
        raise ValueError(f"{text!r} is not a span of time like 24h, 2d or 1d12h")
    days, hours, minutes = (int(g or 0) for g in found.groups())
    span = timedelta(days=days, hours=hours, minutes=minutes)
    if not span:
        raise ValueError(f"{text!r} is no time at all")
    return span


def span_text(span: timedelta) -> str:
    """'2 days 3 hours', '45 minutes': how long, as players read it."""
    minutes = max(int(span.total_seconds()) // 60, 0)
    parts = [(minutes // 1440, "day"), (minutes // 60 % 24, "hour"), (minutes % 60, "minute")]
    words = [f"{n} {unit}{'s' if n != 1 else ''}" for n, unit in parts if n]
    return " ".join(words[:2]) or "no time"


def paused_due(remaining: timedelta | None) -> str:
    """What a sheet or `pbem status` says of a paused game's orders, in place of their deadline."""
    left = f" ({span_text(remaining)} left when it resumes)" if remaining is not None else ""
    return f"are not due while the game is paused{left}"


@dataclass(frozen=True)
class ControlEntry:
    at: datetime
    kind: Control
    player: str | None
    data: dict[str, Any]


def controls_text(entries: list[ControlEntry]) -> str:
    rows = [{"at": e.at.isoformat(), "kind": e.kind.value, **({"player": e.player} if e.player else {}),
             "data": e.data} for e in entries]
    import yaml  # imported to write, not by every module that reads controls (#34)

    return yaml.safe_dump(rows, sort_keys=True, allow_unicode=True, default_flow_style=None, width=100)


def read_controls(text: str, source: str) -> list[ControlEntry]:
    """A `controls.yaml`, every problem with its line."""
    document = load_yaml(text, source)
    if not isinstance(document, LinedList):
        raise FormatError([Problem(source, None, "", "a list of controls: {at, kind, player?, data}")])
    entries, problems = [], []
    for index, item in enumerate(document):
        line = document.line_of(index)
        if not isinstance(item, LinedDict):
            problems.append(Problem(source, line, f"[{index}]", "a control is a mapping: at, kind, player?, data"))
            continue
        try:
            at = datetime.fromisoformat(str(item.get("at")))
            if at.tzinfo is None:
                raise ValueError
        except ValueError:
            problems.append(Problem(source, item.line_of("at"), "at", "a time with its zone, like "
                                                                     "2026-12-01T20:00:00+00:00"))
            continue
        try:
            kind = Control(str(item.get("kind")))
        except ValueError:
            problems.append(Problem(source, item.line_of("kind"), "kind",
                                    f"one of {', '.join(k.value for k in Control)}"))
            continue
        player, data = item.get("player"), item.get("data", {})
        if player is not None and not isinstance(player, str) or not isinstance(data, dict):
            problems.append(Problem(source, line, f"[{index}]", "player is a name and data a mapping"))
            continue
        entries.append(ControlEntry(at, kind, player, _plain(data)))
    if problems:
        raise FormatError(problems)
    return entries


def _plain(value: Any) -> Any:
    if isinstance(value, dict):
        return {str(k): _plain(v) for k, v in value.items()}
    if isinstance(value, list):
        return [_plain(v) for v in value]
    return value
