"""A game's stored setup and states read back as objects, without SQLAlchemy: the ORM's repositories and the plain
SQL reads of a played campaign (pbem.store.played) decode the same text the same way.

A setup's rooms and deck, parsed, are kept between processes when the command line lends a shelf
(`pbem.store.shelf`: a cache folder named by a hash of pbem's code): parsing and checking a Geek-o campaign's five
YAML rooms took ~10 ms of every `pbem site` that draws a turn; unpickling them takes ~1 ms.
"""
from __future__ import annotations

import hashlib
import io
import json
import pickle
import sys
from dataclasses import fields, is_dataclass
from functools import lru_cache
from types import MappingProxyType
from typing import Any, Callable, Mapping, Protocol, TypeVar, overload

from ..engine.campaign import GameSetup, GameState, PlayerSetup
from ..engine.room import Room
from ..formats.canonical import dumps, from_data, to_data
from ..formats.decks import parse_deck
from ..formats.rooms import load_room
from ..formats.yamlfile import FormatError, Problem, load_yaml
from .shelf import shelved

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
    rooms and decks are immutable, so every game's setup shares them (and a room's pictures, `render.static`).
    When a shelf is lent, what was parsed is kept there for the next process, while every element kind is pbem's
    own (a GM's plug-in, RULES G9, may read a room's fields otherwise, and is no part of the entry's key); a text
    that does not parse is read every time, for its problems."""
    shelf = shelved()
    if shelf is None or not _builtin_mechanisms():
        return read(load_yaml(text, source), source)
    key = "parsed-" + hashlib.sha256(f"{sys.version}\0{read.__module__}.{read.__qualname__}\0{source}\0{text}".encode()
                                     ).hexdigest()
    data = shelf.get(key)
    if data is not None:
        try:
            return pickle.loads(data)
        except Exception:  # a damaged entry is parsed again
            pass
    value = read(load_yaml(text, source), source)
    try:
        shelf.put(key, _pickled(value))
    except (pickle.PicklingError, TypeError, AttributeError):  # a value that does not pickle is parsed every time
        pass
    return value


def _builtin_mechanisms() -> bool:
    """Every registered element kind is one of pbem's (no plug-in loaded, none replacing a kind)."""
    from ..engine.mechanism import MECHANISMS, load_builtin

    load_builtin()
    return all(type(kind).__module__.startswith("pbem.engine.") for kind in MECHANISMS.values())


class _Pickler(pickle.Pickler):
    """Dataclasses as their fields (a cached property's value, such as an element's bound `get`, is no part of a room)
    and read-only mappings as the dicts they show (a `MappingProxyType` does not pickle)."""

    def reducer_override(self, obj: Any) -> Any:
        if isinstance(obj, MappingProxyType):
            return _read_only, (dict(obj),)
        if is_dataclass(obj) and not isinstance(obj, type):
            return _dataclass, (type(obj), {f.name: getattr(obj, f.name) for f in fields(obj) if f.init})
        return NotImplemented


def _pickled(value: Any) -> bytes:
    buffer = io.BytesIO()
    _Pickler(buffer, pickle.HIGHEST_PROTOCOL).dump(value)
    return buffer.getvalue()


def _read_only(data: dict[str, Any]) -> Mapping[str, Any]:
    return MappingProxyType(data)


def _dataclass(kind: Callable[..., T], values: dict[str, Any]) -> T:
    return kind(**values)


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


