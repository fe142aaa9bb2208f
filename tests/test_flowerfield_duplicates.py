"""RULES D4.3 and D4.6: flower fields, duplicates under the 8 symmetries with kinds, and the list of all pairs."""
from __future__ import annotations

from itertools import combinations

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from pbem.dm.cells import cell_name, parse_cell
from pbem.dm.flowerfield import fields

SIZE = 7


def named_pairs(board: str) -> list:
    """The finder's pairs as lists, the JSON shape."""
    return [[list(a), list(b)] for a, b in fields.named_pairs(board)]


def board_of(flowers: dict[str, str]) -> str:
    board = ["."] * 49
    for name, kind in flowers.items():
        board[parse_cell(name, SIZE, SIZE)] = kind
    return "".join(board)


def test_rotation_with_kinds_read_backwards():
    """An I of R T T S across row A equals the I of S T T R down column 7 (a quarter turn)."""
    board = board_of({"A1": "R", "A2": "T", "A3": "T", "A4": "S",
                      "C7": "S", "D7": "T", "E7": "T", "F7": "R"})
    assert named_pairs(board) == [[["A1", "A2", "A3", "A4"], ["C7", "D7", "E7", "F7"]]]


def test_same_shape_other_kinds_is_no_duplicate():
    """The seed's own example: baskets whose ends are R and S do not match those with ends R and T."""
    board = board_of({"A1": "R", "A2": "T", "A3": "T", "A4": "S",
                      "C7": "R", "D7": "T", "E7": "S", "F7": "T"})
    assert named_pairs(board) == []


def test_reflection_counts():
    """An L and its mirror image, with the kinds mirrored too."""
    board = board_of({"A1": "R", "B1": "T", "C1": "T", "C2": "S",
                      "A7": "R", "B7": "T", "C7": "T", "C6": "S"})
    assert named_pairs(board) == [[["A1", "B1", "C1", "C2"], ["A7", "B7", "C6", "C7"]]]


def test_mirror_shape_with_unmirrored_kinds_is_no_duplicate():
    board = board_of({"A1": "R", "B1": "T", "C1": "T", "C2": "S",
                      "A7": "S", "B7": "T", "C7": "T", "C6": "R"})
    assert named_pairs(board) == []


def test_overlapping_fields_can_be_duplicates_but_not_the_same_cells():
    """A line of five Rs holds exactly two I fields (D3-D6, D4-D7); the T and L through C4 are unique."""
    board = board_of({"D3": "R", "D4": "R", "D5": "R", "D6": "R", "D7": "R", "C4": "B"})
    assert named_pairs(board) == [[["D3", "D4", "D5", "D6"], ["D4", "D5", "D6", "D7"]]]


def test_diagonal_touch_does_not_connect():
    board = board_of({"A1": "R", "B2": "R", "C3": "R", "D4": "R", "G4": "R", "F5": "R", "E6": "R", "D7": "R"})
    assert named_pairs(board) == []


def test_seed_example_position():
    """Seed 004 (Genius Game 4): D2-D3-E3-F3 = D3-E3-E4-E5, and the missed C4-D4-E4-D3 = C4-D4-E4-D5."""
    board = board_of({"B2": "R", "C2": "R", "C4": "S", "D2": "T", "D3": "T", "D4": "R", "D5": "T",
                      "E3": "T", "E4": "T", "E5": "S", "F3": "S"})
    pairs = named_pairs(board)
    assert [["D2", "D3", "E3", "F3"], ["D3", "E3", "E4", "E5"]] in pairs
    assert [["C4", "D3", "D4", "E4"], ["C4", "D4", "D5", "E4"]] in pairs


def test_output_shape_is_sorted():
    board = board_of({f"{r}{c}": "R" for r in "ABC" for c in "1234"})
    pairs = named_pairs(board)
    assert pairs == sorted(pairs)
    assert all(pair == sorted(pair) and all(b == sorted(b) for b in pair) for pair in pairs)


# --- the finder against a brute force over every 4-subset ------------------------------------

SYMMETRIES = [(1, 0, 0, 1), (0, 1, -1, 0), (-1, 0, 0, -1), (0, -1, 1, 0),
              (1, 0, 0, -1), (-1, 0, 0, 1), (0, 1, 1, 0), (0, -1, -1, 0)]  # (a, b, c, d): (r, c) -> (ar+bc, cr+dc)


def connected(cells: tuple[tuple[int, int], ...]) -> bool:
    seen, todo = {cells[0]}, [cells[0]]
    while todo:
        r, c = todo.pop()
        for n in ((r + 1, c), (r - 1, c), (r, c + 1), (r, c - 1)):
            if n in cells and n not in seen:
                seen.add(n)
                todo.append(n)
    return len(seen) == 4


def pattern(cells, kinds, matrix):
    a, b, c, d = matrix
    moved = [((a * r + b * col, c * r + d * col), kinds[(r, col)]) for r, col in cells]
    top = min(p[0] for p, _ in moved)
    left = min(p[1] for p, _ in moved)
    return frozenset(((p[0] - top, p[1] - left), kind) for p, kind in moved)


def brute_pairs(kinds: dict[tuple[int, int], str]) -> list:
    fields = [cells for cells in combinations(sorted(kinds), 4) if connected(cells)]
    images = {cells: {pattern(cells, kinds, m) for m in SYMMETRIES} for cells in fields}
    pairs = []
    for first, second in combinations(fields, 2):
        if pattern(second, kinds, SYMMETRIES[0]) in images[first]:
            names = [sorted(cell_name(r * SIZE + c, SIZE) for r, c in basket) for basket in (first, second)]
            pairs.append(sorted(names))
    return sorted(pairs)


@settings(max_examples=100, deadline=None)
@given(st.dictionaries(st.tuples(st.integers(0, 6), st.integers(2, 6)), st.sampled_from("RBP"), min_size=4, max_size=24))
def test_finder_agrees_with_brute_force(kinds):
    board = ["."] * 49
    for (r, c), kind in kinds.items():
        board[r * SIZE + c] = kind
    assert named_pairs("".join(board)) == brute_pairs(kinds)


@pytest.mark.slow  # a soak: dense patches against the brute force
@settings(max_examples=30, deadline=None)
@given(st.lists(st.sampled_from("RB"), min_size=20, max_size=20), st.integers(0, 3), st.integers(0, 2))
def test_finder_agrees_with_brute_force_on_dense_patches(letters, top, left):
    """Every cell of a 4x5 patch holds a flower of two kinds: many overlapping fields."""
    cells = [(top + r, left + c) for r in range(4) for c in range(5)]
    kinds = dict(zip(cells, letters))
    board = ["."] * 49
    for (r, c), kind in kinds.items():
        board[r * SIZE + c] = kind
    assert named_pairs("".join(board)) == brute_pairs(kinds)
