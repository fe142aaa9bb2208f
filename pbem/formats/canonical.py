"""Canonical JSON for states and events, and the state hash (DESIGN.md "Determinism and history").

Generic over dataclasses, so a new engine field needs no code here:
- a dataclass becomes an object of its fields (but those with `metadata={"canonical": False}`, kept for
  messages only); an Enum its name, a StrEnum its word (a robot's `real`);
- a value class with a `parse` classmethod (Square, Card, Size) its text; a time stamp (a death match's clock)
  its ISO 8601 text in UTC, a duration its whole microseconds;
- mappings become objects (keys as text), lists and tuples arrays, sets sorted arrays;
- floats are refused: a state must never depend on rounding.
`from_data(type, data)` reverses `to_data` using the type hints, so
`from_data(type(x), to_data(x)) == x`.
"""
from __future__ import annotations

import dataclasses
import enum
import hashlib
import json
import types
import typing
from collections.abc import Mapping, Sequence
from datetime import datetime, timedelta, timezone
from functools import lru_cache
from typing import Any, Callable

from .fields import is_whole

_FROZEN: dict[int, tuple[Any, Any]] = {}  # id -> (frozen dataclass, its data); the object is kept alive
_FROZEN_MAX = 4096


def to_data(value: Any) -> Any:
    """Plain JSON-able data for `value` (see module doc), by a conversion chosen once per type."""
    convert = _CONVERSIONS.get(type(value))
    if convert is None:
        convert = _CONVERSIONS[type(value)] = _conversion(type(value))
    return convert(value)


def _conversion(cls: type) -> Callable[[Any], Any]:
    """How a value of `cls` becomes data, in the order of the module doc."""
    if issubclass(cls, enum.StrEnum):
        return _word
    if cls is type(None) or issubclass(cls, (bool, str)):
        return _itself
    if issubclass(cls, enum.Enum):
        return _name
    if issubclass(cls, int):
        return int
    if issubclass(cls, float):
        return _no_float
    if hasattr(cls, "parse") and not issubclass(cls, type):
        return str
    if issubclass(cls, datetime):
        return _moment
    if issubclass(cls, timedelta):
        return _duration
    if dataclasses.is_dataclass(cls) and not issubclass(cls, type):
        return _frozen if cls.__dataclass_params__.frozen else _fields  # type: ignore[attr-defined]
    if issubclass(cls, Mapping):
        return _mapping
    if issubclass(cls, (list, tuple)):
        return _sequence
    if issubclass(cls, (set, frozenset)):
        return _set
    return _no_form


_CONVERSIONS: dict[type, Callable[[Any], Any]] = {}


def _itself(value: Any) -> Any:
    return value


def _word(value: enum.StrEnum) -> str:
    return value.value


def _name(value: enum.Enum) -> str:
    return value.name


def _fields(value: Any) -> dict[str, Any]:
    cls: type = type(value)
    return {f.name: to_data(getattr(value, f.name)) for f in _stored_fields(cls)}


def _frozen(value: Any) -> Any:
    """A frozen dataclass's data: a game's setup, its rooms and deck never change, and a state repeats them
    every turn, so their data is remembered."""
    known = _FROZEN.get(id(value))
    if known is not None and known[0] is value:
        return known[1]
    data = _fields(value)
    if len(_FROZEN) >= _FROZEN_MAX:
        _FROZEN.clear()
    _FROZEN[id(value)] = (value, data)
    return data


def _mapping(value: Mapping[Any, Any]) -> dict[str, Any]:
    return {_key_text(k): to_data(v) for k, v in value.items()}


def _sequence(value: list[Any] | tuple[Any, ...]) -> list[Any]:
    return [to_data(v) for v in value]


def _set(value: set[Any] | frozenset[Any]) -> list[Any]:
    return sorted((to_data(v) for v in value), key=dumps)


def _moment(value: datetime) -> str:
    return (value if value.tzinfo else value.replace(tzinfo=timezone.utc)).astimezone(timezone.utc).isoformat()


def _duration(value: timedelta) -> int:
    return value // timedelta(microseconds=1)


def _no_float(value: float) -> Any:
    raise TypeError(f"floats have no canonical form: {value!r}")


def _no_form(value: Any) -> Any:
    raise TypeError(f"no canonical form for {type(value).__name__}: {value!r}")


def _key_text(key: Any) -> str:
    data = to_data(key)
    if not (isinstance(data, str) or is_whole(data)):
        raise TypeError(f"mapping key {key!r} has no text form")
    return str(data)


def dumps(data: Any) -> str:
    """Canonical JSON text: sorted keys, no spaces, UTF-8 as is."""
    return json.dumps(data, sort_keys=True, separators=(",", ":"), ensure_ascii=False, allow_nan=False)


def canonical_json(value: Any) -> str:
    return dumps(to_data(value))


def state_hash(value: Any) -> str:
    """sha256 of the canonical JSON: the hash stored per turn."""
    return hashlib.sha256(canonical_json(value).encode("utf-8")).hexdigest()


def from_data(hint: Any, data: Any, rebuild: Mapping[type, Callable[[Any], Any]] | None = None) -> Any:
    """Rebuild a value of type `hint` from `to_data` output.

    `rebuild` maps a type to a function for values whose stored form cannot be
    read back from type hints alone (a Room's elements hold parsed values typed Any).
    """
    return _Reader(rebuild or {}).read(hint, data)


class _Reader:
    def __init__(self, rebuild: Mapping[type, Callable[[Any], Any]]):
        self.rebuild = rebuild

    def read(self, hint: Any, data: Any) -> Any:
        if hint is Any or hint is object:
            return _plain(data)
        if hint in self.rebuild:
            return self.rebuild[hint](data)
        origin = typing.get_origin(hint)
        if origin in (typing.Union, types.UnionType):
            return self._union(typing.get_args(hint), data)
        if origin is typing.Literal:
            return data
        if origin is not None:
            return self._generic(origin, typing.get_args(hint), data)
        if hint is type(None):
            if data is not None:
                raise ValueError(f"expected null, got {data!r}")
            return None
        if isinstance(hint, type):
            if issubclass(hint, enum.StrEnum):
                return hint(data)
            if issubclass(hint, enum.Enum):
                return hint[data]
            if hasattr(hint, "parse"):
                return hint.parse(data)
            if hint is datetime:
                return datetime.fromisoformat(data)
            if hint is timedelta:
                return timedelta(microseconds=data)
            if dataclasses.is_dataclass(hint):
                return self._dataclass(hint, data)
            if hint in (int, str, bool):
                if not (is_whole(data) if hint is int else isinstance(data, hint)):
                    raise ValueError(f"expected {hint.__name__}, got {data!r}")
                return data
        if hint in (dict, list, tuple, set, frozenset, Mapping):
            return _plain(data)
        raise TypeError(f"cannot rebuild {hint!r}")

    def _dataclass(self, cls: type, data: Any) -> Any:
        if not isinstance(data, dict):
            raise ValueError(f"expected an object for {cls.__name__}, got {data!r}")
        hints = _field_hints(cls)
        values = {f.name: self.read(hints[f.name], data[f.name]) for f in dataclasses.fields(cls) if f.name in data}
        obj = cls(**{k: v for k, v in values.items() if _field(cls, k).init})
        for name, value in values.items():
            if not _field(cls, name).init:
                object.__setattr__(obj, name, value)
        return obj

    def _union(self, options: tuple[Any, ...], data: Any) -> Any:
        if data is None and type(None) in options:
            return None
        errors = []
        for option in options:
            if option is type(None):
                continue
            try:
                return self.read(option, data)
            except (TypeError, ValueError, KeyError) as err:
                errors.append(err)
        raise ValueError(f"{data!r} fits none of {options}: {errors}")

    def _generic(self, origin: Any, args: tuple[Any, ...], data: Any) -> Any:
        if origin in (dict, Mapping):
            key_hint, value_hint = args or (Any, Any)
            built = {self.read(key_hint, _key_value(key_hint, k)): self.read(value_hint, v) for k, v in data.items()}
            return built if origin is dict else types.MappingProxyType(built)
        if origin in (list, Sequence):
            item = args[0] if args else Any
            return [self.read(item, v) for v in data]
        if origin is tuple:
            if len(args) == 2 and args[1] is Ellipsis:
                return tuple(self.read(args[0], v) for v in data)
            if not args:
                return tuple(_plain(v) for v in data)
            return tuple(self.read(a, v) for a, v in zip(args, data, strict=True))
        if origin in (set, frozenset):
            item = args[0] if args else Any
            return origin(self.read(item, v) for v in data)
        raise TypeError(f"cannot rebuild {origin!r}")


def _key_value(key_hint: Any, text: str) -> Any:
    """JSON keys are text; an int key comes back as int."""
    return int(text) if key_hint is int else text


def _plain(data: Any) -> Any:
    if isinstance(data, dict):
        return {k: _plain(v) for k, v in data.items()}
    if isinstance(data, list):
        return [_plain(v) for v in data]
    return data


@lru_cache(maxsize=None)
def _stored_fields(cls: type) -> tuple[dataclasses.Field[Any], ...]:
    return tuple(f for f in dataclasses.fields(cls) if f.metadata.get("canonical", True))


@lru_cache(maxsize=None)
def _field_hints(cls: type) -> dict[str, Any]:
    return typing.get_type_hints(cls)


def _field(cls: type, name: str) -> dataclasses.Field[Any]:
    return next(f for f in dataclasses.fields(cls) if f.name == name)
