"""A room as a room file with a `map:` (the notation of `roommap`), for `pbem room render --ascii`.

The map draws what its legend can say: walls and fences on the square they are given on, one element a
square (of a type the square holds only once), starts (when all of them are on plain floor and there are
at most 9). What a code cannot say goes in `elements:`: the rest of a drawn element's fields under its type
and square, and whole elements the map cannot draw (a wall on the west side of an inner square: the map
reads the mark between two squares as the east side of the west one). Reading the text back gives the same
room, each wall on its own square, so it is drawn the same.
"""
from __future__ import annotations

import json
import re
from collections import Counter
from typing import Any

import yaml

from ..engine.geometry import Dir, Square
from ..engine.mechanism import mechanism
from ..engine.room import Element, Room
from .roommap import EDGE_TYPES, FLOOR, LEGEND, SIDE_TYPES

_EDGE_MARK = {kind: mark for mark, kind in EDGE_TYPES.items()}
_SIDE_MARK = {kind: mark for mark, kind in SIDE_TYPES.items()}


def room_text(room: Room) -> str:
    """The room file's text: name, size, starts (if not drawn), notes, the map, the elements left to list."""
    codes, edges, listed = _drawn(room)
    free = all(start not in codes for start in room.starts) and len(room.starts) <= 9
    text = yaml.safe_dump({"name": room.name, "size": str(room.size)}, sort_keys=False, allow_unicode=True)
    if room.starts and not free:
        text += f"starts: [{', '.join(str(square) for square in room.starts)}]\n"
    if room.notes:
        text += yaml.safe_dump({"notes": room.notes}, width=100, allow_unicode=True)
    if free:
        codes.update({square: f" {number}" for number, square in enumerate(room.starts, start=1)})
    rows = map_rows(room, codes, edges)
    text += "map: |" + ("2" if rows[0].startswith(" ") else "") + "\n" + "".join(f"  {row}\n" for row in rows)
    if listed:
        text += "elements:\n" + "".join(f"  - {entry}\n" for entry in listed)
    return text


def map_rows(room: Room, codes: dict[Square, str], edges: dict[tuple[Square, Dir], str]) -> list[str]:
    """The map's rows: `codes` per square (floor where none), `edges` the wall/fence marks by (square, side)."""
    rows = []
    for r in range(1, room.size.rows + 1):
        row = [edges.get((Square(r, 1), Dir.W), " ")]
        for c in range(1, room.size.cols + 1):
            square = Square(r, c)
            row.append(edges.get((square, Dir.N), " ") + codes.get(square, FLOOR) + edges.get((square, Dir.S), " "))
            row.append(edges.get((square, Dir.E), " "))
        rows.append("".join(row).rstrip())
    return rows


def _drawn(room: Room) -> tuple[dict[Square, str], dict[tuple[Square, Dir], str], list[str]]:
    """The codes drawn per square, the edge marks (each edge from both sides) and the `elements:` entries."""
    codes: dict[Square, str] = {}
    edges: dict[tuple[Square, Dir], str] = {}
    listed = []
    twice = {kind_at for kind_at, n in Counter((e.type, e.at) for e in room.elements).items() if n > 1}
    for element in room.elements:
        mark = _edge_mark(element, edges)
        if mark is not None:
            edges[element.at, element.get("side")] = mark
            continue
        code = None if element.at in codes or (element.type, element.at) in twice else _code(element)
        if code is not None:
            codes[element.at] = code
        entry = _entry(element, LEGEND[code][1] if code else None)
        if entry is not None:
            listed.append(entry)
    return codes, edges, listed


def _edge_mark(element: Element, edges: dict[tuple[Square, Dir], str]) -> str | None:
    """A wall's or fence's mark, if the map can draw it on the square it is given on and its edge has no mark
    yet (else it is listed). A map reads an edge between two squares as the east side of the west one, so a
    west side is drawn only on the west rim; a north or south side is drawn on its own square's mark."""
    if element.type not in _EDGE_MARK or set(element.attrs) != {"side"}:
        return None
    square, side = element.at, element.get("side")
    if side == Dir.W and square.col != 1:
        return None
    if (square, side) in edges or (side in (Dir.N, Dir.S) and (square.step(side), side.opposite) in edges):
        return None
    return _EDGE_MARK[element.type] if side in (Dir.E, Dir.W) else _SIDE_MARK[element.type]


def _code(element: Element) -> str | None:
    """The legend code drawing this element: its type, and fields it gives as the element has them."""
    fields = mechanism(element.type).fields
    for code, (kind, given) in LEGEND.items():
        if kind == element.type and all(element.get(name) == fields[name].parse(value)
                                        for name, value in given.items()):
            return code
    return None


def _entry(element: Element, drawn: dict[str, Any] | None) -> str | None:
    """`{type: …, at: …, field: value, …}`: the fields not drawn, and not at their default (None: a drawn
    element with nothing more to say)."""
    fields = mechanism(element.type).fields
    parts = [f"{name}: {_value(value)}" for name, value in element.attrs.items()
             if name not in (drawn or {}) and (fields[name].required or value != fields[name].default)]
    if drawn is not None and not parts:
        return None
    return "{" + ", ".join([f"type: {element.type}", f"at: {element.at}", *parts]) + "}"


def _value(value: Any) -> str:
    if isinstance(value, bool):
        return "true" if value else "false"
    if isinstance(value, Dir):
        return value.name
    if isinstance(value, (tuple, list)):
        return "[" + ", ".join(_value(v) for v in value) + "]"
    if isinstance(value, int) or re.fullmatch(r"[A-Za-z][\w-]*", str(value)) and str(value).lower() not in _WORDS:
        return str(value)
    return json.dumps(str(value))


_WORDS = {"on", "off", "yes", "no", "true", "false", "null", "y", "n"}  # YAML would read these bare as others
