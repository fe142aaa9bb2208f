"""Room files (DESIGN.md "Room"): reading and checking, every problem with file, line and field.

    name: Loading Dock
    size: 8x7
    starts: [r8c3, r8c5]
    elements:
      - {type: wall, at: r3c4, side: W}
      ...

The element types and their fields come from the mechanism registry
(`pbem.engine.mechanism`), so a plug-in kind is known here as soon as it is
registered. Checked: the top-level keys, the size, start squares (on the
board, not on a pit or raised drawbridge), every element's type, square
and fields, unique switch/eye ids, every `control` naming a switch or eye,
no two elements of one type in one place (`Mechanism.place`: a wall on r3c4
W is the one on r3c3 E; a mounted device is its square and wall side), and
each family's own room rules (one teleporter per colour). `map:` may be
present as a picture for people; the element list is what counts.

Rulings a room author should know: pushers, lasers, blasers and eyes are
mounted on a wall (`wall: SIDE`), and that wall is there for robots and
beams without a separate `wall` element; a controlled element's listed
state (`open`, `active`, `on`) is its state while its control is off.

`entry_fee_problems` adds RULES G8 for a 7×7 entry-fee board.
"""
from __future__ import annotations

from collections import deque
from pathlib import Path
from types import MappingProxyType
from typing import Any

from ..engine.geometry import Dir, Size, Square
from ..engine.mechanism import MECHANISMS, known_types, mechanism
from ..engine.room import Element, Room
from ..engine.ruleset import BOTWARS
from .yamlfile import FormatError, LinedDict, Problem, line_of, read_yaml_file

TOP_KEYS = ("name", "size", "starts", "elements", "notes", "map")
MAX_SIDE = 100  # rows or columns: the largest board the reports can draw


def read_room(path: str | Path) -> Room:
    """A room file, or FormatError with every problem."""
    return load_room(read_yaml_file(path), str(path))


def load_room(data: Any, source: str) -> Room:
    room, problems = check_room_data(data, source)
    if problems or room is None:
        raise FormatError(problems)
    return room


def check_room_data(data: Any, source: str) -> tuple[Room | None, list[Problem]]:
    """The room (None if it cannot be built) and every problem found in it."""
    problems: list[Problem] = []

    def problem(container: Any, key: Any, field: str, message: str) -> None:
        problems.append(Problem(source, line_of(container, key), field, message))

    if not isinstance(data, dict):
        return None, [Problem(source, getattr(data, "line", None), "", "a room must be a mapping (name, size, ...)")]
    for key in data:
        if key not in TOP_KEYS:
            problem(data, key, str(key), f"unknown key (known: {', '.join(TOP_KEYS)})")
    size = None
    if "size" not in data:
        problem(data, None, "size", "missing (ROWSxCOLS, e.g. 8x7)")
    else:
        try:
            size = Size.parse(data["size"])
            if size.rows < 1 or size.cols < 1:
                raise ValueError("a room needs at least one row and one column")
            if size.rows > MAX_SIDE or size.cols > MAX_SIDE:
                raise ValueError(f"{size} is too large: at most {MAX_SIDE} rows and {MAX_SIDE} columns")
        except ValueError as err:
            problem(data, "size", "size", str(err))
            size = None
    positions = _elements(data, size, problem)
    starts = _starts(data, size, problem)
    if size is None:
        return None, problems
    lines = {key: line_of(data, key) for key in ("size", "starts", "elements")}
    lines["starts[0]"] = line_of(data.get("starts"), 0) if isinstance(data.get("starts"), list) else lines["starts"]
    room = Room(str(data.get("name", Path(source).stem)), size, tuple(starts), tuple(positions.values()),
                str(data.get("notes", "") or ""), source, MappingProxyType(lines))
    _room_rules(room, data, {id(e): i for i, e in positions.items()}, problem)
    return (None if problems else room), problems


def _starts(data: dict, size: Size | None, problem) -> list[Square]:
    raw = data.get("starts", [])
    if not isinstance(raw, list):
        problem(data, "starts", "starts", "must be a list of squares (r#c#)")
        return []
    starts = []
    for i, text in enumerate(raw):
        field = f"starts[{i}]"
        try:
            square = Square.parse(text)
        except ValueError as err:
            problem(raw, i, field, str(err))
            continue
        if size and not size.contains(square):
            problem(raw, i, field, f"{square} is off the {size} board")
        elif square in starts:
            problem(raw, i, field, f"{square} is listed twice")
        else:
            starts.append(square)
    return starts


def _elements(data: dict, size: Size | None, problem) -> dict[int, Element]:
    """The valid elements, by their index in the file's list."""
    raw = data.get("elements", [])
    if not isinstance(raw, list):
        problem(data, "elements", "elements", "must be a list of elements")
        return {}
    known = known_types()
    elements = {}
    for i, item in enumerate(raw):
        where = f"elements[{i}]"
        if not isinstance(item, dict):
            problem(raw, i, where, "must be a mapping such as {type: wall, at: r3c4, side: W}")
            continue
        item = plain_keys(item)
        kind = item.get("type")
        if kind is None:
            problem(item, None, f"{where}.type", "missing")
            continue
        if kind not in known:
            problem(item, "type", f"{where}.type", f"unknown element type {kind!r} (known: {', '.join(known)})")
            continue
        square = None
        if "at" not in item:
            problem(item, None, f"{where}.at", "missing")
        else:
            try:
                square = Square.parse(item["at"])
                if size and not size.contains(square):
                    problem(item, "at", f"{where}.at", f"{square} is off the {size} board")
                    square = None
            except ValueError as err:
                problem(item, "at", f"{where}.at", str(err))
        attrs = _fields(item, MECHANISMS[kind], where, problem)
        if square is not None and attrs is not None:
            elements[i] = Element(kind, square, MappingProxyType(attrs), line_of(raw, i))
    return elements


def plain_keys(item: dict) -> dict:
    """YAML 1.1 reads a bare `on:` key as true; room files mean the field `on` (and `off`)."""
    if not any(isinstance(key, bool) for key in item):
        return item
    fixed = LinedDict()
    fixed.line, fixed.lines = getattr(item, "line", None), {}
    for key, value in item.items():
        name = {True: "on", False: "off"}.get(key, key) if isinstance(key, bool) else key
        fixed[name] = value
        fixed.lines[name] = line_of(item, key)
    return fixed


def state_word(value) -> str:
    """An element state word as written (`on`/`off` arrive from YAML 1.1 as true/false)."""
    return {True: "on", False: "off"}.get(value, str(value)) if isinstance(value, bool) else str(value)


def _fields(item: dict, mech, where: str, problem) -> dict | None:
    attrs: dict[str, Any] = {}
    ok = True
    for key in item:
        if key not in ("type", "at", "notes") and key not in mech.fields:
            known = ", ".join(["type", "at", *mech.fields]) or "type, at"
            problem(item, key, f"{where}.{key}", f"not a field of {mech.type} (fields: {known})")
            ok = False
    for name, spec in mech.fields.items():
        if name not in item or item[name] is None:
            if spec.required:
                problem(item, None, f"{where}.{name}", f"missing ({mech.type} needs {name})")
                ok = False
            elif spec.default is not None:
                attrs[name] = spec.default
            continue
        try:
            attrs[name] = spec.parse(item[name])
        except ValueError as err:
            problem(item, name, f"{where}.{name}", str(err))
            ok = False
    return attrs if ok else None


def _room_rules(room: Room, data: dict, index_of: dict[int, int], problem) -> None:
    raw = data.get("elements", [])
    field_of = {key: f"elements[{i}]" for key, i in index_of.items()}
    ids: dict[str, Element] = {}
    for element in room.elements:
        if "id" in element.attrs:
            key = str(element.get("id"))
            if key in ids:
                problem(raw, index_of[id(element)], f"{field_of[id(element)]}.id",
                        f"id {key!r} is used twice (first on line {ids[key].line})")
            ids.setdefault(key, element)
    controls = {k for k, e in ids.items() if mechanism(e.type).is_control}
    for element in room.elements:
        control = element.get("control")
        if control is not None and str(control) not in controls:
            names = ", ".join(sorted(controls)) or "none in this room"
            problem(raw, index_of[id(element)], f"{field_of[id(element)]}.control",
                    f"{control!r} names no switch or eye (ids: {names})")
    by_type: dict[str, list[Element]] = {}
    placed: dict[tuple[str, Any], Element] = {}
    for element in room.elements:
        by_type.setdefault(element.type, []).append(element)
        first = placed.setdefault((element.type, mechanism(element.type).place(element)), element)
        if first is not element:
            problem(raw, index_of[id(element)], f"{field_of[id(element)]}.at",
                    f"a second {element.type} in the same place as the one on line {first.line}")
    for type_name, group in by_type.items():
        for element, field, message in mechanism(type_name).check_room(room, group):
            problem(raw, index_of[id(element)], f"{field_of[id(element)]}.{field}", message)
    starts = data.get("starts", [])
    for i, square in enumerate(room.starts):
        for element in room.elements_at(square):
            if not mechanism(element.type).safe_start(element):
                at = _starts_index(starts, square, i)
                problem(starts, at, f"starts[{at}]",
                        f"{square} is on a {element.type} (line {element.line})")


def _starts_index(starts: Any, square: Square, fallback: int) -> int:
    for i, text in enumerate(starts if isinstance(starts, list) else []):
        try:
            if Square.parse(text) == square:
                return i
        except ValueError:
            continue
    return fallback


# --- RULES G8: the entry fee ----------------------------------------------


def entry_fee_problems(room: Room, size: int = BOTWARS.entry_fee_size) -> list[Problem]:
    """G8: a 7×7 board of known elements (checked on loading), with a reachable start, not plain floor,
    and every switch link resolving (controls checked on loading; here: every switch or eye controls
    something). Each refusal names the line and field it is about, as every room error does."""
    source = room.source or room.name

    def problem(key: str, message: str, line: int | None = None) -> Problem:
        return Problem(source, line if line is not None else room.lines.get(key.split(".")[0]), key, message)

    def where(element: Element) -> str:
        return f"elements[{room.elements.index(element)}]"

    problems = []
    if (room.size.rows, room.size.cols) != (size, size):
        problems.append(problem("size", f"an entry-fee board is {size}x{size}, not {room.size}"))
    if not [e for e in room.elements if not mechanism(e.type).plain]:
        problems.append(problem("elements", "plain floor: the board has no walls or mechanisms"))
    if not room.starts:
        problems.append(problem("starts", "no start square"))
    else:
        reach = _reachable(room, room.starts[0])
        if len(reach) == 1:
            problems.append(problem("starts[0]", f"a robot on {room.starts[0]} cannot move anywhere"))
        for element in room.of_type("flag"):
            if element.at not in reach:
                problems.append(problem(f"{where(element)}.at", f"flag {element.get('number')} on {element.at} "
                                        f"cannot be reached from {room.starts[0]}", element.line))
    controlled = {str(e.get("control")) for e in room.elements if e.get("control") is not None}
    for element in room.elements:
        if mechanism(element.type).is_control and str(element.get("id")) not in controlled:
            problems.append(problem(f"{where(element)}.id", f"{element.type} {element.get('id')!r} controls nothing",
                                    element.line))
    return problems


def _reachable(room: Room, start: Square) -> set[Square]:
    """Squares a robot can walk to from `start` (walls and mounts block, pits and drawbridges are avoided,
    gates count as passable since a switch may open them)."""
    blocked_edges: set[tuple[Square, Dir]] = set()
    for element in room.elements:
        for square, side in mechanism(element.type).edges(element):
            blocked_edges.add((square, side))
            blocked_edges.add((square.step(side), side.opposite))
    deadly = {e.at for e in room.elements if not mechanism(e.type).safe_start(e)}
    seen = {start}
    queue = deque([start])
    while queue:
        square = queue.popleft()
        for direction in Dir:
            nxt = square.step(direction)
            if (room.size.contains(nxt) and nxt not in seen and nxt not in deadly
                    and (square, direction) not in blocked_edges):
                seen.add(nxt)
                queue.append(nxt)
    return seen


def is_entry_fee_size(room: Room, size: int = BOTWARS.entry_fee_size) -> bool:
    return (room.size.rows, room.size.cols) == (size, size)


