"""A room (or board): its size, start squares and the elements printed on it.

The room is immutable; what changes during play (switch positions, open trap
doors, lowered bridges …) lives in the board state, keyed by `Element.key`.
"""
from __future__ import annotations

from dataclasses import dataclass, field
from functools import cached_property
from types import MappingProxyType
from typing import Any, Callable, Mapping

from .geometry import Size, Square


@dataclass(frozen=True)
class Element:
    """One element of a room file: its `type`, its square and its other fields as given."""

    type: str
    at: Square
    attrs: Mapping[str, Any] = field(default_factory=lambda: MappingProxyType({}))
    line: int | None = None  # the line of the room file it came from, for messages

    @cached_property
    def get(self) -> Callable[..., Any]:
        """`element.get(name, default=None)`: a field's value. The mapping's own bound `get`, kept on the
        element: mechanisms ask for fields in every stage."""
        return self.attrs.get

    @cached_property
    def key(self) -> str:
        """A name unique in its room: the element's `id`, else type, square and mounting side."""
        if "id" in self.attrs:
            return str(self.attrs["id"])
        side = self.attrs.get("side", self.attrs.get("wall"))
        return f"{self.type}@{self.at}" + (f"/{getattr(side, 'name', side)}" if side is not None else "")


@dataclass(frozen=True)
class Room:
    name: str
    size: Size
    starts: tuple[Square, ...] = ()
    elements: tuple[Element, ...] = ()
    notes: str = ""
    source: str | None = None  # the file it was read from, for messages
    # where the file gave each top-level key (`size`, `starts`, `starts[0]`, `elements`), for messages only:
    # not part of a game's state (`canonical: False`), nor of the room's equality
    lines: Mapping[str, int | None] = field(default_factory=lambda: MappingProxyType({}), compare=False,
                                            repr=False, metadata={"canonical": False})

    def elements_at(self, square: Square) -> tuple[Element, ...]:
        return tuple(e for e in self.elements if e.at == square)

    def of_type(self, *types: str) -> tuple[Element, ...]:
        return tuple(e for e in self.elements if e.type in types)
