"""Flower fields (RULES D4.3): every tetromino on the board, its canonical form, and all duplicate pairs.

The placements of the five tetrominoes and, for each, the cell orders under the
symmetries that map it onto its canonical orientation are worked out once per
board size. A field's class is then its shape plus the smallest kind string
over those orders, so finding every duplicate pair is one pass over the
placements (D4.6).
"""
from __future__ import annotations

from dataclasses import dataclass
from functools import lru_cache
from itertools import repeat
from operator import itemgetter
from typing import Callable, Iterable, TypeVar

from ..cells import cell_name

EMPTY = "."
TETROMINOES = (
    ((0, 0), (0, 1), (0, 2), (0, 3)),  # I
    ((0, 0), (0, 1), (1, 0), (1, 1)),  # O
    ((0, 0), (0, 1), (0, 2), (1, 1)),  # T
    ((0, 1), (0, 2), (1, 0), (1, 1)),  # S
    ((0, 0), (1, 0), (2, 0), (2, 1)),  # L
)
SYMMETRIES: tuple[Callable[[int, int], tuple[int, int]], ...] = (
    lambda r, c: (r, c), lambda r, c: (c, -r), lambda r, c: (-r, -c), lambda r, c: (-c, r),
    lambda r, c: (r, -c), lambda r, c: (-r, c), lambda r, c: (c, r), lambda r, c: (-c, -r),
)

Shape = tuple[tuple[int, int], ...]
Kinds = Callable[[str], tuple[str, ...]]  # board -> the kinds on some cells, in some order
FieldKey = tuple[Shape, tuple[str, ...]]
T = TypeVar("T")


def normalised(cells: Iterable[tuple[int, int]]) -> Shape:
    """Cells shifted to touch row 0 and column 0, sorted."""
    cells = list(cells)
    top = min(r for r, _ in cells)
    left = min(c for _, c in cells)
    return tuple(sorted((r - top, c - left) for r, c in cells))


@dataclass(frozen=True)
class Placement:
    cells: tuple[int, ...]  # board indices, ascending
    names: tuple[str, ...]  # cell names, sorted
    shape: Shape  # canonical (smallest) orientation of the free tetromino
    cell_getter: Kinds  # board -> the kinds of `cells`
    orders: tuple[Kinds, ...]  # board -> kinds in canonical-shape order, one per symmetry reaching it


@dataclass(frozen=True)
class Geometry:
    rows: int
    cols: int
    placements: tuple[Placement, ...]
    by_cells: dict[frozenset[int], int]  # frozenset of indices -> position in `placements`


@lru_cache(maxsize=None)
def geometry(rows: int, cols: int) -> Geometry:
    oriented = sorted({normalised(sym(r, c) for r, c in shape) for shape in TETROMINOES for sym in SYMMETRIES})
    placements = []
    for shape in oriented:
        height = 1 + max(r for r, _ in shape)
        width = 1 + max(c for _, c in shape)
        for top in range(rows - height + 1):
            for left in range(cols - width + 1):
                coords = [(top + r, left + c) for r, c in shape]
                placements.append(_placement(coords, cols))
    placements.sort(key=lambda p: p.names)
    by_cells = {frozenset(p.cells): i for i, p in enumerate(placements)}
    return Geometry(rows, cols, tuple(placements), by_cells)


def _placement(coords: list[tuple[int, int]], cols: int) -> Placement:
    images = []
    for sym in SYMMETRIES:
        mapped = [(sym(r, c), r * cols + c) for r, c in coords]
        shape = normalised(m for m, _ in mapped)
        top = min(m[0] for m, _ in mapped)
        left = min(m[1] for m, _ in mapped)
        order = tuple(index for _, index in sorted(((m[0] - top, m[1] - left), index) for m, index in mapped))
        images.append((shape, order))
    canonical = min(shape for shape, _ in images)
    orders = sorted({order for shape, order in images if shape == canonical})
    cells = tuple(sorted(r * cols + c for r, c in coords))
    names = tuple(sorted(cell_name(i, cols) for i in cells))
    return Placement(cells, names, canonical, itemgetter(*cells), tuple(itemgetter(*o) for o in orders))


def field_key(placement: Placement, board: str) -> FieldKey:
    """What two duplicate fields share: the free shape and the kinds read in canonical order."""
    return placement.shape, min(order(board) for order in placement.orders)


def fields(board: str, rows: int, cols: int) -> list[Placement]:
    """Every flower field: a tetromino placement whose four cells all hold flowers."""
    return [p for p in geometry(rows, cols).placements if EMPTY not in p.cell_getter(board)]


def duplicate_pairs(board: str, rows: int = 7, cols: int = 7) -> list[tuple[Placement, Placement]]:
    """Every pair of duplicate fields (D4.3), sorted by the first field's names, then the second's."""
    return _pairs(board, rows, cols, lambda placement: placement)


def named_pairs(board: str, rows: int = 7, cols: int = 7) -> list[tuple[tuple[str, ...], tuple[str, ...]]]:
    """DESIGN.md shape: each basket its four cell names sorted, each pair sorted, pairs sorted.

    Tuples straight from the placements, so that the worst board (one kind everywhere:
    45,130 pairs) costs one small tuple a pair.
    """
    return _pairs(board, rows, cols, lambda placement: placement.names)


def _pairs(board: str, rows: int, cols: int, project: Callable[[Placement], T]) -> list[tuple[T, T]]:
    present = fields(board, rows, cols)
    keys = [field_key(p, board) for p in present]
    groups: dict[FieldKey, list[T]] = {}
    for key, placement in zip(keys, present):
        groups.setdefault(key, []).append(project(placement))
    seen: dict[FieldKey, int] = {}
    pairs: list[tuple[T, T]] = []
    for key, placement in zip(keys, present):  # placements come in name order, and so do their groups
        position = seen[key] = seen.get(key, -1) + 1
        pairs.extend(zip(repeat(project(placement)), groups[key][position + 1:]))
    return pairs


def field_at(cells: frozenset[int], board: str, rows: int, cols: int) -> Placement | None:
    """The flower field on exactly these cells, or None when they are not one."""
    index = geometry(rows, cols).by_cells.get(cells)
    if index is None:
        return None
    placement = geometry(rows, cols).placements[index]
    return None if EMPTY in placement.cell_getter(board) else placement
