"""Per-room lookups, computed once per room and reused every stage (the resolver's hot path).

Elements are grouped by square, by crossed edge (both sides of a wall) and by
type, and for each hook only the elements whose mechanism implements it are
listed, so a step on plain floor costs a few dictionary misses. Every list is
in reading order of the squares (then type and key), never in the order of the
room file, so that order never decides an outcome (RULES B6.11, B6b.2).
"""
from __future__ import annotations

from collections import OrderedDict, defaultdict
from typing import Any, Iterable

from .elements import initial_states
from .geometry import Dir, Square
from .mechanism import HOOKS, MECHANISMS, Mechanism, implements, load_builtin, registry_version
from .room import Element, Room

Entry = tuple[Mechanism, Element]


class Line:
    """The squares from one side of the board to the other in one direction, with what a beam meets on each (see
    `Ray`), worked out once: every ray along it is a part of it (a beam from each square of the line)."""

    __slots__ = ("squares", "position", "stops", "ends", "hooked_from", "masks")

    def __init__(self, index: "RoomIndex", start: Square, direction: Dir):
        squares: list[Square] = []
        stops: list[tuple[int, list[Entry], list[Entry]]] = []
        ends: list[list[Entry]] = []
        square = start
        while index.inside(square):
            edge = (square, direction)
            blocks, edge_blocks = index.square_beam_block.get(square, []), index.edge_beam_block.get(edge, [])
            if blocks or edge_blocks:
                stops.append((len(squares), blocks, edge_blocks))
            squares.append(square)
            ends.append(index.edge_beam_end.get(edge, []))
            square = square.step(direction)
        cells = [index.cell(sq) for sq in squares]
        self.squares = tuple(squares)
        self.position = {cell: i for i, cell in enumerate(cells)}
        self.stops = tuple(stops)
        self.ends = tuple(tuple((mech, element, square) for mech, element in hooks)
                          for square, hooks in zip(squares, ends))
        # from each position on: whether an edge has beam hooks, and the cells as bits
        self.hooked_from = [False] * (len(cells) + 1)
        self.masks = [0] * (len(cells) + 1)
        for i in range(len(cells) - 1, -1, -1):
            self.hooked_from[i] = self.hooked_from[i + 1] or bool(self.ends[i])
            self.masks[i] = self.masks[i + 1] | 1 << cells[i]


class Ray:
    """The squares a beam from one square in one direction crosses to the board's edge (`squares[0]` is the
    start), where each is on it (`position[cell] - offset`, by cell number), and only the places where something
    may stop it (`stops`: position, the square's beam blockers, those on the edge it leaves by): a trace jumps from
    robot to blocker instead of stepping through plain floor. `ends`: each edge's beam hooks (eyes), with the
    square; `hooked`: whether it has any. `mask`, `past`: its cells as bits, with and without the start (a robot's
    beam starts past its own square). The end of a `Line`, from `offset` on."""

    __slots__ = ("squares", "position", "offset", "stops", "ends", "hooked", "mask", "past")

    def __init__(self, line: Line, offset: int):
        self.squares = line.squares[offset:]
        self.position, self.offset = line.position, offset
        self.stops = tuple((i - offset, blocks, edge_blocks) for i, blocks, edge_blocks in line.stops if i >= offset)
        self.ends = line.ends[offset:]
        self.hooked = line.hooked_from[offset]  # an eye on some edge of the path
        self.mask, self.past = line.masks[offset], line.masks[offset + 1]


class Occupancy:
    """The robots on each cell (in the order given) and the cells as bits: a beam asks the bits whether anyone
    stands on its path before looking for the nearest (most beams hit nobody)."""

    __slots__ = ("cells", "mask")

    def __init__(self, index: "RoomIndex", robots: Iterable[Any]):
        """`robots`: those standing on the board (anything with `at` and `mode`: a snapshot's robots too)."""
        self.cells: dict[int, list[Any]] = {}
        self.mask = 0
        stride = index.stride
        for robot in robots:
            cell = robot.at.row * stride + robot.at.col
            self.cells.setdefault(cell, []).append(robot)
            self.mask |= 1 << cell


class RoomIndex:
    def __init__(self, room: Room):
        load_builtin()
        self.room = room
        self.rows, self.cols = room.size.rows, room.size.cols
        self.by_type: dict[str, list[Element]] = defaultdict(list)
        self.controlled: dict[str, list[Entry]] = defaultdict(list)  # control id -> controlled elements
        square_hooks: dict[str, dict[Square, list[Entry]]] = {h: defaultdict(list) for h in HOOKS}
        edge_hooks: dict[str, dict[tuple[Square, Dir], list[Entry]]] = {h: defaultdict(list) for h in HOOKS}
        for element in sorted(room.elements, key=reading_order):
            mech = MECHANISMS[element.type]
            self.by_type[element.type].append(element)
            if element.get("control") is not None:
                self.controlled[str(element.get("control"))].append((mech, element))
            edges = mech.edges(element)
            for hook in HOOKS:
                if not implements(mech, hook):
                    continue
                if edges and hook in ("blocks_step", "blocks_beam", "on_beam"):
                    for square, side in edges:
                        edge_hooks[hook][(square, side)].append((mech, element))
                        edge_hooks[hook][(square.step(side), side.opposite)].append((mech, element))
                else:
                    square_hooks[hook][element.at].append((mech, element))
        order = lambda entry: entry[0].enter_order
        self.enter = {sq: sorted(v, key=order) for sq, v in square_hooks["on_enter"].items()}
        self.square_block = dict(square_hooks["blocks_step"])
        self.edge_block = dict(edge_hooks["blocks_step"])
        self.square_beam_block = dict(square_hooks["blocks_beam"])
        self.edge_beam_block = dict(edge_hooks["blocks_beam"])
        self.edge_beam_end = dict(edge_hooks["on_beam"])
        self.holds = dict(square_hooks["holds"])
        self.press = dict(square_hooks["on_press"])
        self.beam_sources = sorted((entry for entries in square_hooks["beams"].values() for entry in entries),
                                   key=lambda entry: reading_order(entry[1]))
        self.stride = self.cols + 2  # cell numbers leave room for the ring of squares just outside
        self._cells_of: dict[str, int] = {}  # by type, its elements' cells as bits
        # phase name -> [(mechanism, its elements, their squares as bits if it is `robots_only`, else 0)]
        self.acting: dict[str, list[tuple[Mechanism, list[Element], int]]] = defaultdict(list)
        for type_name, mech in MECHANISMS.items():
            if type_name in self.by_type:
                elements = self.by_type[type_name]
                cells = self.cells_of(type_name) if mech.robots_only else 0
                for phase in mech.phases:
                    self.acting[phase].append((mech, elements, cells))
        self.initial_states = initial_states(room)
        self._rays: dict[int, Ray] = {}  # by start cell and direction
        self._lines: dict[int, Line] = {}  # by first cell and direction
        self._placed: dict[str, dict[Square, Element]] = {}
        self._by_cell: dict[str, dict[int, list[Element]]] = {}  # by type, the elements on each cell

    def inside(self, square: Square) -> bool:
        return 1 <= square.row <= self.rows and 1 <= square.col <= self.cols

    def cell(self, square: Square) -> int:
        """A square's number (an int key hashes without a call into Python)."""
        return square.row * self.stride + square.col

    def elements_on(self, type_name: str, cells: int) -> list[Element]:
        """The elements of one type on `cells` (as bits), in reading order (cell numbers grow in reading order)."""
        by_cell = self._by_cell.get(type_name)
        if by_cell is None:
            by_cell = self._by_cell[type_name] = defaultdict(list)
            for element in self.by_type.get(type_name, ()):
                by_cell[self.cell(element.at)].append(element)
        found: list[Element] = []
        while cells:
            lowest = cells & -cells
            cells ^= lowest
            found += by_cell[lowest.bit_length() - 1]
        return found

    def cells_of(self, type_name: str) -> int:
        """The squares of one type's elements, as bits (`cell`): whether a robot stands on any is one `&`."""
        found = self._cells_of.get(type_name)
        if found is None:
            found = self._cells_of[type_name] = sum({1 << self.cell(e.at) for e in self.by_type.get(type_name, ())})
        return found

    def placed(self, type_name: str) -> dict[Square, Element]:
        """The elements of one type by their square (for types with one per square, such as belts)."""
        found = self._placed.get(type_name)
        if found is None:
            found = self._placed[type_name] = {e.at: e for e in self.by_type.get(type_name, ())}
        return found

    def ray(self, start: Square, direction: Dir) -> Ray:
        """The beam path from `start` to the board's edge (see `Ray`). Worked out once per room, each line of the
        board once for all the rays along it; whether a blocker blocks (a gate's state …) is asked while tracing."""
        key = (start.row * self.stride + start.col) * 4 + direction
        found = self._rays.get(key)
        if found is None:
            d_row, d_col = direction.delta  # the line's first square: on the side the beam comes from
            first = Square(start.row if d_row == 0 else (1 if d_row > 0 else self.rows),
                           start.col if d_col == 0 else (1 if d_col > 0 else self.cols))
            line_key = (first.row * self.stride + first.col) * 4 + direction
            line = self._lines.get(line_key)
            if line is None:
                line = self._lines[line_key] = Line(self, first, direction)
            found = self._rays[key] = Ray(line, abs(start.row - first.row) + abs(start.col - first.col))
        return found


def reading_order(element: Element) -> tuple[int, int, str, str]:
    return element.at.row, element.at.col, element.type, element.key


_CACHE: "OrderedDict[tuple[int, int], tuple[Room, RoomIndex]]" = OrderedDict()


def index_for(room: Room) -> RoomIndex:
    """The index of a room, cached (by identity and the registry size) for the most recent rooms."""
    load_builtin()
    key = (id(room), registry_version())
    hit = _CACHE.get(key)
    if hit is not None and hit[0] is room:
        _CACHE.move_to_end(key)
        return hit[1]
    index = RoomIndex(room)
    _CACHE[key] = (room, index)
    while len(_CACHE) > 256:
        _CACHE.popitem(last=False)
    return index
