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
each family's own room rules (one teleporter per colour). A `map:` (see
`roommap`) may draw the board instead of or besides `size:`, `starts:` and
the list: what it draws becomes elements as if listed, and a listed element
of the same type on the same square (edge, for walls) completes and wins
over the drawn one.

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
from typing import Any, NamedTuple

from ..engine.geometry import Dir, Size, Square
from ..engine.mechanism import MECHANISMS, Mechanism, known_types, mechanism
from ..engine.room import Element, Room
from ..engine.ruleset import BOTWARS
from .fields import Fields
from .problems import Complain
from .roommap import EDGE_TYPES, MapReading, read_map
from .yamlfile import FormatError, LinedDict, LinedList, Problem, line_of, read_yaml_file

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
    if not isinstance(data, dict):
        return None, [Problem(source, getattr(data, "line", None), "", "a room must be a mapping (name, size, ...)")]
    fields = Fields(source)
    problem, problems = fields.add, fields.problems
    fields.unknown(data, TOP_KEYS, f"unknown key (known: {', '.join(TOP_KEYS)})")
    size = None
    if "size" not in data:
        if "map" not in data:
            problem(data, None, "size", "missing (ROWSxCOLS, e.g. 8x7)")
    else:
        try:
            size = _checked(Size.parse(data["size"]))
        except ValueError as err:
            problem(data, "size", "size", str(err))
    reading = read_map(data, source, size, problems) if "map" in data else None
    if reading is not None and reading.size is not None and "size" not in data:
        try:
            size = _checked(reading.size)
        except ValueError as err:
            problem(data, "map", "map", str(err))
    entries = _entries(data, reading, problem)
    positions = _elements(entries, size, problem)
    starts = _starts(data, reading, size, problem)
    if size is None:
        return None, problems
    lines = {key: line_of(data, key) for key in ("size", "starts", "elements", "map")}
    lines["starts[0]"] = starts[0].line if starts else lines["starts"]
    room = Room(str(data.get("name", Path(source).stem)), size, tuple(s.square for s in starts),
                tuple(positions.values()), str(data.get("notes", "") or ""), source, MappingProxyType(lines))
    _room_rules(room, entries, {id(e): i for i, e in positions.items()}, starts, problem)
    return (None if problems else room), problems


def _checked(size: Size) -> Size:
    if size.rows < 1 or size.cols < 1:
        raise ValueError("a room needs at least one row and one column")
    if size.rows > MAX_SIDE or size.cols > MAX_SIDE:
        raise ValueError(f"{size} is too large: at most {MAX_SIDE} rows and {MAX_SIDE} columns")
    return size


class _Entry(NamedTuple):
    """A place in the file: a line and the field that names it (`starts[2]`, `elements[4]`, `map r3c4`)."""

    square: Square
    line: int | None
    field: str


def _starts(data: dict[str, Any], reading: MapReading | None, size: Size | None, problem: Complain) -> list[_Entry]:
    if reading is not None and reading.starts:
        if "starts" in data:
            problem(data, "starts", "starts", "given twice: as numbers on the map and as this list")
        return _map_starts(reading, problem)
    raw = data.get("starts", [])
    if not isinstance(raw, list):
        problem(data, "starts", "starts", "must be a list of squares (r#c#)")
        return []
    starts: list[_Entry] = []
    for i, text in enumerate(raw):
        field = f"starts[{i}]"
        try:
            square = Square.parse(text)
        except ValueError as err:
            problem(raw, i, field, str(err))
            continue
        if size and not size.contains(square):
            problem(raw, i, field, f"{square} is off the {size} board")
        elif square in [s.square for s in starts]:
            problem(raw, i, field, f"{square} is listed twice")
        else:
            starts.append(_Entry(square, line_of(raw, i), field))
    return starts


def _map_starts(reading: MapReading, problem: Complain) -> list[_Entry]:
    """The map's numbered starts in their order: 1, 2, 3 … each once."""
    starts: list[_Entry] = []
    for number, square, line, field in sorted(reading.starts, key=lambda start: start[0]):
        at = _at(line)
        if number != len(starts) + 1:
            said = f"start {number} is given twice" if number <= len(starts) else f"start {len(starts) + 1} is missing"
            problem(at, None, field, f"{said} (starts are numbered 1, 2, 3 ... on the map)")
        else:
            starts.append(_Entry(square, line, field))
    return starts


def _at(line: int | None) -> LinedDict:
    """A place known only by its line (a map row), for `problem`."""
    place = LinedDict()
    place.line, place.lines = line, {}
    return place


class _Entries(LinedList):
    """Element entries with the field naming each (`elements[4]`, or `map r3c4` for one the map alone gives)."""

    fields: list[str]


def _entries(data: dict[str, Any], reading: MapReading | None, problem: Complain) -> _Entries:
    """The element entries: the listed ones, each completed by the map's element of its type on its square
    (the listed fields win), then the map's other elements. Each knows its line and its `field`."""
    raw = data.get("elements", [])
    if not isinstance(raw, list):
        problem(data, "elements", "elements", "must be a list of elements")
        raw = []
    entries = _Entries()
    entries.line, entries.lines, entries.fields = line_of(data, "elements"), [], []
    drawn: dict[tuple[Any, ...] | None, tuple[LinedDict, str]] = {}
    for item, name in zip(reading.items, reading.names) if reading else ():
        drawn.setdefault(_merge_key(item), (item, name))
    for i, item in enumerate(raw):
        key = _merge_key(item) if isinstance(item, dict) else None
        if key in drawn:
            item = _merged(drawn.pop(key)[0], item)
        entries.append(item)
        entries.lines.append(line_of(raw, i))
        entries.fields.append(f"elements[{i}]")
    for item, name in drawn.values():
        entries.append(item)
        entries.lines.append(item.line)
        entries.fields.append(name)
    return entries


def _merge_key(item: dict[str, Any]) -> tuple[Any, ...] | None:
    """An entry's type and square, and for an edge element its edge (as seen from either side)."""
    try:
        square = Square.parse(item["at"])
        if item.get("type") not in EDGE_TYPES.values() or "side" not in item:
            return item.get("type"), square
        side = Dir.parse(item["side"])
    except (KeyError, ValueError, TypeError):
        return None
    return item["type"], frozenset({(square, side), (square.step(side), side.opposite)})


def _merged(drawn: LinedDict, listed: dict[str, Any]) -> LinedDict:
    merged = LinedDict({**drawn, **listed})
    merged.line, merged.lines = getattr(listed, "line", None), dict(getattr(listed, "lines", {}))
    return merged


def _elements(entries: _Entries, size: Size | None, problem: Complain) -> dict[int, Element]:
    """The valid elements, by their index in `entries`."""
    known = known_types()
    elements = {}
    for i, item in enumerate(entries):
        where = entries.fields[i]
        if not isinstance(item, dict):
            problem(entries, i, where, "must be a mapping such as {type: wall, at: r3c4, side: W}")
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
            elements[i] = Element(kind, square, MappingProxyType(attrs), line_of(entries, i))
    return elements


def plain_keys(item: dict[str, Any]) -> dict[str, Any]:
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


def state_word(value: Any) -> str:
    """An element state word as written (`on`/`off` arrive from YAML 1.1 as true/false)."""
    return {True: "on", False: "off"}.get(value, str(value)) if isinstance(value, bool) else str(value)


def _fields(item: dict[str, Any], mech: Mechanism, where: str, problem: Complain) -> dict[str, Any] | None:
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


def _room_rules(room: Room, entries: _Entries, index_of: dict[int, int], starts: list[_Entry],
               problem: Complain) -> None:
    field_of = {key: entries.fields[i] for key, i in index_of.items()}
    ids: dict[str, Element] = {}
    for element in room.elements:
        if "id" in element.attrs:
            key = str(element.get("id"))
            if key in ids:
                problem(entries, index_of[id(element)], f"{field_of[id(element)]}.id",
                        f"id {key!r} is used twice (first on line {ids[key].line})")
            ids.setdefault(key, element)
    controls = {k for k, e in ids.items() if mechanism(e.type).is_control}
    for element in room.elements:
        control = element.get("control")
        if control is not None and str(control) not in controls:
            names = ", ".join(sorted(controls)) or "none in this room"
            problem(entries, index_of[id(element)], f"{field_of[id(element)]}.control",
                    f"{control!r} names no switch or eye (ids: {names})")
    by_type: dict[str, list[Element]] = {}
    placed: dict[tuple[str, Any], Element] = {}
    for element in room.elements:
        by_type.setdefault(element.type, []).append(element)
        first = placed.setdefault((element.type, mechanism(element.type).place(element)), element)
        if first is not element:
            problem(entries, index_of[id(element)], f"{field_of[id(element)]}.at",
                    f"a second {element.type} in the same place as the one on line {first.line}")
    for type_name, group in by_type.items():
        for element, field, message in mechanism(type_name).check_room(room, group):
            problem(entries, index_of[id(element)], f"{field_of[id(element)]}.{field}", message)
    for start in starts:
        for element in room.elements_at(start.square):
            if not mechanism(element.type).safe_start(element):
                problem(_at(start.line), None, start.field,
                        f"{start.square} is on a {element.type} (line {element.line})")


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


