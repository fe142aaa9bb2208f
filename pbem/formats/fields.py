"""Fields declared as data, read by one reader: what every input format's mapping may hold.

A reader states each field once — how its value is read (a type, with its range), its default, the problem
when it is missing — and `Fields` reads a mapping by that table, noting every problem (file, line, field) and
going on with the default, so one run lists them all. The reads here are where "true is not a number" is
said, once: YAML reads `yes` as a bool, and Python counts a bool as an int.
"""
from __future__ import annotations

from dataclasses import dataclass
from typing import Any, Callable, Iterable, Mapping, TypeGuard

from .problems import Problem, line_of

Read = Callable[[Any], Any]
"""A value as written -> the value meant; a ValueError says, in the player's words, what is wrong with it."""


def is_whole(value: Any) -> TypeGuard[int]:
    """Whether `value` is a whole number (a bool is not, though Python counts it as one)."""
    return isinstance(value, int) and not isinstance(value, bool)


def _refuse(message: str, value: Any) -> ValueError:
    """The problem `message` (which may show the value as `{value!r}`)."""
    return ValueError(message.format(value=value))


def whole(message: str = "must be a whole number", least: int | None = None, most: int | None = None,
          outside: str | None = None) -> Read:
    """A whole number from `least` to `most` (either open); `outside` is the problem of one out of range
    (`message` when not given)."""
    def read(value: Any) -> int:
        if not is_whole(value):
            raise _refuse(message, value)
        if (least is not None and value < least) or (most is not None and value > most):
            raise _refuse(outside or message, value)
        return int(value)
    return read


def flag(message: str = "must be true or false") -> Read:
    """true or false (a `yes`/`no` YAML reads as such too), nothing else."""
    def read(value: Any) -> bool:
        if not isinstance(value, bool):
            raise _refuse(message, value)
        return value
    return read


def word(message: str = "must be a name") -> Read:
    """A name or number written as the word it is (`game: 7` is game "7"); kept as given."""
    def read(value: Any) -> str | int:
        if isinstance(value, str) or is_whole(value):
            return value
        raise _refuse(message, value)
    return read


def string(message: str = "must be a name") -> Read:
    """A string, as given."""
    def read(value: Any) -> str:
        if not isinstance(value, str):
            raise _refuse(message, value)
        return value
    return read


def one_of(choices: Iterable[Any], message: str) -> Read:
    """One of `choices`, of its type too (`true` is not 1)."""
    allowed = tuple(choices)

    def read(value: Any) -> Any:
        if not any(value == choice and type(value) is type(choice) for choice in allowed):
            raise _refuse(message, value)
        return value
    return read


def checked(test: Callable[[Any], bool], message: str) -> Read:
    """A value `test` accepts, as given."""
    def read(value: Any) -> Any:
        if not test(value):
            raise _refuse(message, value)
        return value
    return read


def mapping(message: str) -> Read:
    """A mapping, as given."""
    def read(value: Any) -> Mapping[Any, Any]:
        if not isinstance(value, dict):
            raise _refuse(message, value)
        return value
    return read


def sequence(message: str) -> Read:
    """A list, as given."""
    def read(value: Any) -> list[Any]:
        if not isinstance(value, list):
            raise _refuse(message, value)
        return value
    return read


def each(item: Read, message: str) -> Read:
    """A list whose every item reads by `item`; a single item alone stands for a list of it. Any bad item
    is the list's problem, `message`."""
    def read(value: Any) -> list[Any]:
        items = value if isinstance(value, list) else [value]
        try:
            return [item(entry) for entry in items]
        except ValueError:
            raise _refuse(message, value) from None
    return read


def as_given(value: Any) -> Any:
    """Any value, unread (a field the reader checks itself, or one kept as written)."""
    return value


@dataclass(frozen=True)
class Field:
    """One field of a mapping: how it reads, its default (when absent, or null if `null` is the default, or its
    value is refused), and the problem when it is absent (None: it is optional)."""

    read: Read = as_given
    default: Any = None
    missing: str | None = None
    null: bool = True  # `key: null` means the default (else null is read like any value)


class Fields:
    """The problems of one input file, collected while its mappings are read by their fields."""

    def __init__(self, source: str):
        self.source = source
        self.problems: list[Problem] = []

    def add(self, container: Any, key: Any, field: str, message: str) -> None:
        """A problem of `field`, on the line of `container[key]` (of the container itself when key is None)."""
        self.at(line_of(container, key), field, message)

    def at(self, line: int | None, field: str, message: str) -> None:
        """A problem of `field` on `line` (a line found otherwise: in a block of text, say)."""
        self.problems.append(Problem(self.source, line, field, message))

    def unknown(self, data: Mapping[Any, Any], known: Iterable[Any], message: str, where: str = "") -> None:
        """Every key of `data` that is not `known`, in the file's order, as a problem `message`."""
        known = set(known)
        for key in data:
            if key not in known:
                self.add(data, key, _named(where, key), message)

    def value(self, container: Any, key: Any, field: str, read: Read, fallback: Any = None) -> Any:
        """`container[key]` read by `read`, or `fallback` with its problem noted (a TypeError is a refusal
        too: the engine's parsers raise one for a value of a type they do not take)."""
        try:
            return read(container[key])
        except (ValueError, TypeError) as err:
            self.add(container, key, field, str(err))
            return fallback

    def read(self, data: Mapping[Any, Any], spec: Mapping[str, Field], where: str = "") -> dict[str, Any]:
        """Every field of `spec` read from `data`, in the spec's order: as given, or by default when absent
        (a problem when it must be given) or refused (a problem naming why)."""
        values = {}
        for key, field in spec.items():
            name = _named(where, key)
            if key not in data or (field.null and data[key] is None):
                if field.missing is not None and key not in data:
                    self.add(data, None, name, field.missing)
                values[key] = field.default
            else:
                values[key] = self.value(data, key, name, field.read, field.default)
        return values


def _named(where: str, key: Any) -> str:
    """A field's name in a problem: `key`, under `where` when it is in a nested mapping."""
    return f"{where}.{key}" if where else str(key)
