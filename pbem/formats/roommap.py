"""A room's ASCII `map:` (DESIGN.md "Room": a shorthand; the element list is canonical): its legend and reader.

One text row per board row; every square is a fixed-width cell, so a column
is always at the same place (row = SEP, then N CODE S SEP for each square):

    map: |2
         .    >-| Ho :       r1c2 a belt east, a wall south of it and one east; r1c3 an open gate
      | L>  - 1   F1~        r2c1 a laser on its west wall firing east; start 1; flag 1, a fence south

- SEP, the edge between two squares (and the west/east rim): ` ` nothing,
  `|` wall, `:` fence;
- N and S, the square's own north and south edges: ` ` nothing, `-` wall,
  `~` fence (the same edge seen from the square next door may be left blank,
  but must not say the other);
- CODE, two characters: the one element the map carries on that square (see
  `LEGEND`), or ` .` plain floor, or ` 1`…` 9` a start square (in that order).

The legend maps codes to an element type and some of its fields, nothing
more: the rules stay with the registered mechanisms, which check every field
as for a listed element. What a code cannot say (ids, controls, stages,
colours …) is given by an `elements:` entry of the same type on the same
square, which completes the map's element (and wins over it).
"""
from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from ..engine.geometry import Dir, Size, Square
from .yamlfile import LinedDict, Problem, line_of

STRIDE = 5  # one square's characters: north mark, two-character code, south mark, the edge east of it
ARROWS = {"^": Dir.N, ">": Dir.E, "v": Dir.S, "<": Dir.W}
FLOOR = " ."
EDGE_TYPES = {"|": "wall", ":": "fence"}  # a west/east edge (the rim included)
SIDE_TYPES = {"-": "wall", "~": "fence"}  # a square's north/south edge


def _legend() -> dict[str, tuple[str, dict[str, Any]]]:
    """code -> (element type, the fields the code gives); the fields are written as in a room file."""
    legend: dict[str, tuple[str, dict[str, Any]]] = {}
    for arrow, way in ARROWS.items():
        legend[" " + arrow] = ("conveyor", {"dir": way.name, "speed": 1})
        legend[arrow * 2] = ("conveyor", {"dir": way.name, "speed": 2})
        for letter, kind in (("P", "pusher"), ("L", "laser"), ("B", "blaser"), ("E", "eye")):
            legend[letter + arrow] = (kind, {"wall": way.opposite.name})  # the arrow: where it pushes, fires, looks
        legend["D" + arrow] = ("drawbridge", {"bridge": way.name})
    legend.update({
        "G(": ("gear", {"turn": "left"}), "G)": ("gear", {"turn": "right"}), "GU": ("gear", {"turn": "half"}),
        "Ho": ("gate", {"open": True}), "Hc": ("gate", {"open": False}),
        "To": ("trapdoor", {"open": True}), "Tc": ("trapdoor", {"open": False}),
        "St": ("switch", {"kind": "toggle"}), "Sp": ("switch", {"kind": "pressure"}),
        "Cr": ("computer", {"set": "reverse"}), "Ci": ("computer", {"set": "idle"}),
        "Cs": ("computer", {"set": "strafe"}),
        "O ": ("pit", {}), "X ": ("crusher", {}), "Z ": ("buzzsaw", {}), "@ ": ("teleporter", {}),
        "A ": ("armoury", {}),
    })
    for digit in range(1, 10):
        legend[f"F{digit}"] = ("flag", {"number": digit})
        legend[f"W{digit}"] = ("wrench", {"count": digit})
    return legend


LEGEND = _legend()
LEGEND_TEXT = """\
Map legend (one row per board row; each square is 5 characters: N mark, 2-character code, S mark, east edge;
the row starts with the west rim's edge):
  edges     west/east: ' ' none, '|' wall, ':' fence;  north/south marks: ' ' none, '-' wall, '~' fence
  ' .'      plain floor          ' 1'..' 9'  start squares, in that order
  ' >' '>>' conveyor (speed 1, express speed 2), the arrow (^ > v <) its direction
  P> L> B> E>  pusher, laser, blaser, eye on the wall behind the arrow (the arrow: where it pushes, fires, looks)
  D>        drawbridge, bridge side >      G( G) GU  gear turning left, right, half
  Ho Hc     gate open, closed               To Tc     trapdoor open, closed
  St Sp     switch toggle, pressure         Cr Ci Cs  computer reverse, idle, strafe
  F1..F9    flag number                     W1..W9    wrench count
  O pit, X crusher, Z buzzsaw, @ teleporter, A armoury (then a space)
What a code cannot say (ids, controls, stages, colours, beams ...) goes in `elements:`, same type and square.
A row may start with a space: write `map: |2` then, so YAML keeps it. `size:` may be left out."""


@dataclass
class MapReading:
    """What a `map:` says: its size, the elements it draws (as room-file entries, each knowing its line and
    its `map rNcM` field name) and its numbered starts."""

    size: Size | None = None
    items: list[LinedDict] = field(default_factory=list)
    names: list[str] = field(default_factory=list)
    starts: list[tuple[int, Square, int | None, str]] = field(default_factory=list)  # number, square, line, name


def read_map(data: dict[str, Any], source: str, size: Size | None, problems: list[Problem]) -> MapReading | None:
    """The map of a room mapping `data` (None when it has none or it cannot be read); `size` the room's own
    `size:`, if given, which the map must agree with. Every problem names its line and square."""
    rows = _rows(data["map"], line_of(data, "map"))
    if rows is None:
        problems.append(Problem(source, line_of(data, "map"), "map",
                                "must be a block string (`map: |2` and one row per line) or a list of row strings"))
        return None
    if not rows:
        problems.append(Problem(source, line_of(data, "map"), "map", "has no rows"))
        return None
    widths = [(len(text) + 2) // STRIDE for text, _ in rows]
    cols = size.cols if size else widths[0]
    count = len(problems)
    if size and size.rows != len(rows):
        problems.append(Problem(source, line_of(data, "map"), "map",
                                f"{len(rows)} rows, but size is {size} ({size.rows} rows)"))
    for i, ((text, line), width) in enumerate(zip(rows, widths)):
        if width != cols:
            said = f"size is {size}" if size else f"row 1 has {cols}"
            problems.append(Problem(source, line, f"map row {i + 1}",
                                    f"{width} squares ({len(text)} characters), but {said} "
                                    f"({STRIDE} characters a square and one for the west rim)"))
    if len(problems) > count:
        return None
    reading = MapReading(Size(len(rows), cols))
    _read_cells(rows, reading, source, problems)
    return reading


def _rows(value: Any, line: int | None) -> list[tuple[str, int | None]] | None:
    """(row text, line) for each non-blank row; trailing spaces may be missing (editors strip them)."""
    if isinstance(value, str):
        lines = value.split("\n")
        first = line + 1 if line is not None and len(lines) > 1 else line
        return [(text.rstrip(), None if first is None else first + i)
                for i, text in enumerate(lines) if text.strip()]
    if isinstance(value, list) and all(isinstance(text, str) for text in value):
        return [(text.rstrip(), line_of(value, i)) for i, text in enumerate(value) if text.strip()]
    return None


def _read_cells(rows: list[tuple[str, int | None]], reading: MapReading, source: str,
                problems: list[Problem]) -> None:
    assert reading.size is not None
    width = 1 + STRIDE * reading.size.cols
    south: dict[Square, tuple[str, int | None]] = {}  # the mark a square's south edge got, for its neighbour
    for number, (text, line) in enumerate(rows, start=1):
        _Row(reading, source, problems, south, number, text.ljust(width), line).read()


@dataclass
class _Row:
    """One row of the map, read square by square into `reading` (its problems into `problems`)."""

    reading: MapReading
    source: str
    problems: list[Problem]
    south: dict[Square, tuple[str, int | None]]
    number: int
    text: str
    line: int | None

    def read(self) -> None:
        assert self.reading.size is not None
        for c in range(self.reading.size.cols + 1):
            self._edge(c)
            if c < self.reading.size.cols:
                self._square(c)

    def _bad(self, col: int, square: Square, message: str) -> None:
        self.problems.append(Problem(self.source, self.line, f"map {square}", f"column {col + 1}: {message}"))

    def _add(self, type_name: str, square: Square, fields: dict[str, Any]) -> None:
        item = LinedDict(type=type_name, at=str(square), **fields)
        item.line, item.lines = self.line, {}
        self.reading.items.append(item)
        self.reading.names.append(f"map {square}")

    def _edge(self, c: int) -> None:
        """The edge west of column c (from 0; the last one is the east rim), as the east side of the square
        west of it (the west side of the first)."""
        col, square = STRIDE * c, Square(self.number, max(c, 1))
        mark = self.text[col]
        if mark in EDGE_TYPES:
            self._add(EDGE_TYPES[mark], square, {"side": "E" if c else "W"})
        elif mark != " ":
            self._bad(col, square, f"unknown edge {mark!r} (' ', '|' wall, ':' fence)")

    def _square(self, c: int) -> None:
        """Square c (from 0): its north and south marks and its code."""
        col, square = STRIDE * c, Square(self.number, c + 1)
        self._sides(col, square, self.text[col + 1], self.text[col + 4])
        code = self.text[col + 2:col + 4]
        if code == FLOOR:
            return
        if code[0] == " " and code[1].isdigit() and code[1] != "0":
            self.reading.starts.append((int(code[1]), square, self.line, f"map {square}"))
        elif code in LEGEND:
            self._add(LEGEND[code][0], square, LEGEND[code][1])
        else:
            self._bad(col + 2, square, f"unknown code {code!r} (`pbem room render --help` shows the legend)")

    def _sides(self, col: int, square: Square, north: str, below: str) -> None:
        """The square's north and south marks; its north edge is the south one of the square above, which
        may leave it blank but must not say the other."""
        for at, mark, side in ((col + 1, north, "N"), (col + 4, below, "S")):
            if mark != " " and mark not in SIDE_TYPES:
                self._bad(at, square, f"unknown {side} mark {mark!r} (' ', '-' wall, '~' fence)")
        neighbour = Square(square.row - 1, square.col)
        above = self.south.get(neighbour, (" ", None))
        if north in SIDE_TYPES and above[0] in SIDE_TYPES and north != above[0]:
            self._bad(col + 1, square, f"N edge is a {SIDE_TYPES[north]}, but the S mark of {neighbour} on line "
                                       f"{above[1]} makes it a {SIDE_TYPES[above[0]]}")
        elif north in SIDE_TYPES and above[0] == " ":
            self._add(SIDE_TYPES[north], square, {"side": "N"})
        if below in SIDE_TYPES:
            self._add(SIDE_TYPES[below], square, {"side": "S"})
        self.south[square] = (below, self.line)
