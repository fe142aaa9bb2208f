"""A death match's archive (`pbem game export MATCH DIR`, read back by `pbem game import DIR`): the campaign
folder's layout, extended. `game.yaml` holds the game and its seats:

    name: m1
    ruleset: takebacktoe           # a death match of pbem/games.py
    created_at: "2026-12-01T19:00:00+00:00"
    players:                       # the seats, in the match's turn order
      - {name: ann, email: ann@example.org, secret: s3cr3t, timezone: Europe/Paris, opened: true}
      - {name: bob}                # a seat not played by mail

(`opened`: the player's opening mail went out at that address). Next to it, `transcript.yaml` is the match's
transcript (DESIGN.md "DM actions and transcripts": its config and every move in arrival order, each with its
stamp and, beside the payload, why it was refused, how it came and the message that carried it), so `pbem dm
replay DIR/transcript.yaml` plays it; and `controls.yaml` the GM's controls, as for a campaign.
"""
from __future__ import annotations

from dataclasses import dataclass
from datetime import datetime
from pathlib import Path
from typing import Any

import yaml

from ..games import Kind, names
from .fields import Field, Fields, checked, flag, one_of
from .game import DESCRIPTION, listed_mappings, mapping_file, zoned_time
from .names import NAME_RULE, address_problem, valid_name
from .schedule import zone_problem
from .yamlfile import FormatError, LinedDict, read_yaml_file

TRANSCRIPT = "transcript.yaml"
FIELDS = ("name", "ruleset", "created_at", "players")
SEAT_FIELDS = ("name", "email", "secret", "timezone", "opened")
MATCHES = names(Kind.MATCH)


@dataclass(frozen=True)
class Seat:
    """A match's seat as archived: its player, their address ("" when not by mail), secret, own time zone, and
    whether their opening mail went out."""

    name: str
    email: str = ""
    secret: str | None = None
    timezone: str | None = None
    opened: bool = False


@dataclass(frozen=True)
class MatchGame:
    name: str
    ruleset: str
    created_at: datetime | None
    seats: tuple[Seat, ...]


def is_match_archive(folder: Path) -> bool:
    """Whether the archive in `folder` is a death match's (its `game.yaml` names a match's game); a folder that is
    neither readable nor one is left to the campaign reader to refuse."""
    try:
        document = read_yaml_file(folder / DESCRIPTION)
    except (OSError, FormatError):
        return False
    return isinstance(document, LinedDict) and document.get("ruleset") in MATCHES


_A_NAME = f"must be a name of {NAME_RULE}"
HEAD = {"name": Field(checked(valid_name, _A_NAME), missing=_A_NAME, null=False),
        "ruleset": Field(one_of(MATCHES, f"must be one of {', '.join(MATCHES)}"), missing="required", null=False)}
SEAT = {"opened": Field(flag(), default=False, null=False)}


def read_match_game(path: Path) -> MatchGame:
    """A match's `game.yaml`; every problem at once, each with the file, line and field."""
    document, fields = mapping_file(path, FIELDS, "a match's game.yaml is a mapping (name, ruleset, players)")
    head = fields.read(document, HEAD)
    created_at = zoned_time(document, "created_at", fields.add)
    seats = _seats(document, fields)
    if fields.problems:
        raise FormatError(fields.problems)
    return MatchGame(head["name"], head["ruleset"], created_at, seats)


def _seats(document: LinedDict, fields: Fields) -> tuple[Seat, ...]:
    seats = []
    for where, entry in listed_mappings(fields, document, "players", SEAT_FIELDS,
                                        "must be {name, email?, secret?, timezone?, opened?}",
                                        "must list the seats, in turn order"):
        name, email, secret, zone = (entry.get(key) for key in ("name", "email", "secret", "timezone"))
        email = "" if email is None else email
        if not isinstance(name, str) or not name.strip():
            fields.add(entry, "name", f"{where}.name", "must be the player's name")
        if not isinstance(email, str) or (email and address_problem(email)):
            fields.add(entry, "email", f"{where}.email", address_problem(str(email)) or "must be an address")
        if secret is not None and not (isinstance(secret, str) and secret):
            fields.add(entry, "secret", f"{where}.secret", "must be text")
        if zone is not None and (not isinstance(zone, str) or zone_problem(zone)):
            fields.add(entry, "timezone", f"{where}.timezone", zone_problem(str(zone)) or "must be a time zone")
        opened = fields.read(entry, SEAT, where)["opened"]
        seats.append(Seat(str(name), str(email), secret if isinstance(secret, str) else None,
                          zone if isinstance(zone, str) else None, bool(opened)))
    return tuple(seats)


def match_game_text(game: MatchGame) -> str:
    """The `game.yaml` that `read_match_game` reads back to `game`."""
    document: dict[str, Any] = {"name": game.name, "ruleset": game.ruleset}
    if game.created_at is not None:
        document["created_at"] = game.created_at.isoformat()
    document["players"] = [_seat_document(seat) for seat in game.seats]
    return yaml.safe_dump(document, sort_keys=False, default_flow_style=None, allow_unicode=True, width=100)


def _seat_document(seat: Seat) -> dict[str, Any]:
    document: dict[str, Any] = {"name": seat.name}
    if seat.email:
        document["email"] = seat.email
    if seat.secret:
        document["secret"] = seat.secret
    if seat.timezone:
        document["timezone"] = seat.timezone
    if seat.opened:
        document["opened"] = True
    return document
