"""DESIGN.md "Ice maze" files and RULES D2.1 limits: every problem named with its line and field."""
import pytest

from pbem.formats.icemaze import maze_yaml, parse_maze, read_maze_file
from pbem.formats.yamlfile import FormatError, load_yaml


def problems(text: str) -> list[str]:
    with pytest.raises(FormatError) as caught:
        parse_maze(load_yaml(text, "m.yaml"), "m.yaml")
    return [str(p) for p in caught.value.problems]


def test_block_string_and_row_list_give_the_same_maze():
    block = parse_maze(load_yaml("map: |\n  S....\n  .#...\n  ....G\n  .....\n  ..*..\n"))
    listed = parse_maze(load_yaml("map: [S...., .#..., ....G, ....., ..*..]"))
    assert block == listed
    assert (block.rows, block.cols) == (5, 5)
    assert block.rocks == {6} and block.goals == {14, 22} and block.snoms == (0, 22)


def test_d2_1_size_limits():
    assert problems("map: [S...G, ....., ....., .....]") == ["m.yaml:1: map: 4 rows; a maze has 5 to 20"]
    wide = "S" + "." * 19 + "G"
    assert problems("map: [" + ", ".join([wide] * 5) + "]") == ["m.yaml:1: map: 21 columns; a maze has 5 to 20"]


def test_ragged_rows_and_unknown_symbols_each_with_their_line():
    text = "name: x\nmap: |\n  S....\n  ..X..\n  ...\n  ....G\n  .....\n"
    assert problems(text) == [
        "m.yaml:4: map row 2: column 3: unknown symbol 'X'; use # . G S *",
        "m.yaml:5: map row 3: 3 columns, but row 1 has 5",
    ]


def test_d2_1_needs_a_snom_and_enough_goals():
    assert problems("map: [....G, ....., ....., ....., .....]") == ["m.yaml:1: map: no snom (S, or * for a snom on a goal)"]
    assert problems("map:\n  - S...S\n  - .....\n  - ..*..\n  - .....\n  - ....G\n") == [
        "m.yaml:2: map: 2 goals for 3 snoms; there must be at least as many goals"
    ]


def test_unknown_field_missing_map_and_wrong_types():
    assert problems("name: x\nsize: 5x5\n") == [
        "m.yaml:2: size: unknown field; expected one of map, name, notes",
        "m.yaml:1: map: missing",
    ]
    assert problems("map: rooms/ice/a.yaml\n") == ["m.yaml:1: map: one row per line (`map: |` and the rows below it), not 'rooms/ice/a.yaml'"]
    assert problems("map: 12\n") == ["m.yaml:1: map: must be a block string or a list of row strings of # . G S *"]
    assert problems("map:\n  - S....\n  - 5\n") == ["m.yaml:3: map row 2: must be a string of # . G S *"]


def test_written_maze_reads_back(tmp_path):
    maze = parse_maze(load_yaml("map: [S...., .#..., ....G, ....., .....]"))
    path = tmp_path / "m.yaml"
    path.write_text(maze_yaml(maze, "m", "minimum 2: RD"))
    assert read_maze_file(path) == maze
    assert load_yaml(path.read_text())["notes"] == "minimum 2: RD"
