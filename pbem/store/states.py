"""A game's stored setup and states read back as objects, without SQLAlchemy: the ORM's repositories and the plain
SQL reads of a played campaign (pbem.store.played) decode the same text the same way."""
from __future__ import annotations

import json
from functools import lru_cache
from typing import Any, Callable, Protocol, TypeVar, overload

from ..engine.campaign import GameSetup, GameState, PlayerSetup
from ..engine.room import Room
from ..formats.canonical import dumps, from_data, to_data
from ..formats.decks import parse_deck
from ..formats.rooms import load_room
from ..formats.yamlfile import FormatError, Problem, load_yaml

T = TypeVar("T")


class StoredGame(Protocol):
    """A game's row as the reads need it: the ORM's `Game`, or `pbem.store.played.GameRow` from plain SQL."""

    @property
    def id(self) -> int | None: ...
    @property
    def name(self) -> str: ...
    @property
    def ruleset(self) -> str: ...
    @property
    def setup(self) -> str: ...


@lru_cache(maxsize=32)
def load_setup(document: str) -> GameSetup:
    """A GameSetup from `games.setup` (cached: parsing rooms is the slow part)."""
    data = json.loads(document)
    problems: list[Problem] = []

    def parsed(read: Callable[[Any, str], T], entry: dict[str, str]) -> T | None:
        try:
            value: T = _parsed(read, entry["text"], entry["source"])
            return value
        except FormatError as err:
            problems.extend(err.problems)
            return None

    read_rooms = [parsed(load_room, r) for r in data["rooms"]]
    deck = parsed(parse_deck, data["deck"])
    rooms = tuple(room for room in read_rooms if room is not None)
    if problems or deck is None:  # every bad room and the deck, not only the first
        raise FormatError(problems)
    players = tuple(PlayerSetup(p["name"], tuple(p["robots"])) for p in data["players"])
    return GameSetup(data["name"], data["ruleset"], data["seed"], rooms, deck, players,
                     dict(data.get("ruleset_options") or {}))


@lru_cache(maxsize=64)
def _parsed(read: Callable[[Any, str], Any], text: str, source: str) -> Any:
    """A stored setup's room or deck, parsed once per process: the games of a server play the same few rooms, and
    rooms and decks are immutable, so every game's setup shares them (and a room's pictures, `render.static`)."""
    return read(load_yaml(text, source), source)


@overload
def read_state(game: StoredGame, text: str) -> GameState: ...
@overload
def read_state(game: StoredGame, text: str, kind: type[T]) -> T: ...
def read_state(game: StoredGame, text: str, kind: type[object] = GameState) -> object:
    """A stored state (or board) back as objects; rooms and the setup come from the game's setup."""
    setup, rooms = load_setup(game.setup), _rooms_by_data(game.setup)
    rebuilt: object = from_data(kind, json.loads(text), {Room: lambda data: rooms[dumps(data)],
                                                         GameSetup: lambda data: setup})
    return rebuilt


@lru_cache(maxsize=32)
def _rooms_by_data(document: str) -> dict[str, Room]:
    """The setup's rooms by their canonical JSON, as a stored state holds them (made once per setup: a state is
    read several times a turn)."""
    return {dumps(to_data(room)): room for room in load_setup(document).rooms}


