"""`pbem ice solve|generate|render` (DESIGN.md "DM commands") and the Ice drawer."""
import io
import json

import pytest
from cli_process import under_hash_seeds
from PIL import Image
from typer.testing import CliRunner

from pbem.cli import app
from pbem.dm.icemaze import solve
from pbem.formats.icemaze import read_maze_file
from pbem.render.dm import draw, png_bytes

runner = CliRunner()


def write(tmp_path, name, text):
    path = tmp_path / name
    path.write_text(text)
    return path


def test_solve_json_reports_moves_or_null(tmp_path):
    easy = write(tmp_path, "easy.yaml", "map: [S...., ....., ..#.., ....., ....G]\n")
    walled = write(tmp_path, "walled.yaml", "map: [S...., ....., ...#., ..#G#, ...#.]\n")
    result = runner.invoke(app, ["ice", "solve", str(easy), str(walled), "--json"])
    assert result.exit_code == 0
    reports = json.loads(result.stdout)
    assert [(r["file"], r["moves"]) for r in reports] == [(str(easy), 2), (str(walled), None)]
    assert reports[0]["solution"] in ("RD", "DR") and reports[1]["solution"] is None
    assert all(set(r) == {"file", "moves", "solution", "seconds"} for r in reports)


def test_solve_refuses_a_bad_maze_with_its_line_and_solves_the_rest(tmp_path):
    good = write(tmp_path, "good.yaml", "map: [S...., ....., ..#.., ....., ....G]\n")
    bad = write(tmp_path, "bad.yaml", "name: x\nmap: |\n  S....\n  ..Q..\n  .....\n  .....\n  ....G\n")
    result = runner.invoke(app, ["ice", "solve", str(bad), str(good)])
    assert result.exit_code == 1
    assert f"{bad}:4: map row 2: column 3: unknown symbol 'Q'" in result.stderr
    assert f"{good}: 2 orders" in result.stdout


def test_generate_writes_a_maze_with_the_minimum_asked_for(tmp_path):
    out = tmp_path / "g.yaml"
    result = runner.invoke(app, ["ice", "generate", "--size", "8x9", "--moves", "7", "--snoms", "2", "--seed", "4", "--out", str(out)])
    assert result.exit_code == 0
    maze = read_maze_file(out)
    assert (maze.rows, maze.cols, len(maze.snoms)) == (8, 9, 2)
    assert solve(maze).moves == 7
    again = runner.invoke(app, ["ice", "generate", "--size", "8x9", "--moves", "7", "--snoms", "2", "--seed", "4"])
    assert again.stdout == out.read_text()


def test_generate_refuses_an_impossible_size():
    result = runner.invoke(app, ["ice", "generate", "--size", "4x30", "--moves", "3"])
    assert result.exit_code == 2 and "5x5 to 20x20" in result.stderr


def test_drawer_colours_each_square_and_is_byte_stable(tmp_path):
    data = {"rows": ["S#...", "..*..", "....G", ".....", "....."], "title": "t", "lines": ["x"]}
    image = draw("ice", data)
    assert png_bytes(image) == png_bytes(draw("ice", data))
    # the grid starts below the two text lines and the column numbers (12 + 2 * 18 + 6 + 20 = 74 px from the
    # top) and right of the row numbers (12 + 20 = 32 px from the left)
    def at(row, col, dx=16, dy=16):
        return image.getpixel((32 + col * 32 + dx, 74 + row * 32 + dy))
    assert at(0, 1) == (0x1F, 0x1F, 0x1F)  # rock
    assert at(2, 4) == (0xD6, 0x45, 0x45)  # goal
    assert at(3, 3) == (0xCD, 0xE9, 0xF7)  # ice
    assert at(0, 0) == (0x2F, 0x9E, 0x44)  # snom
    assert at(1, 2, 3, 16) == (0xD6, 0x45, 0x45)  # a locked snom keeps its goal square


def test_render_command_writes_a_png(tmp_path):
    maze = write(tmp_path, "m.yaml", "map: [S...., ....., ..#.., ....., ....G]\n")
    out = tmp_path / "m.png"
    assert runner.invoke(app, ["ice", "render", str(maze), "--out", str(out)]).exit_code == 0
    width, height = Image.open(io.BytesIO(out.read_bytes())).size
    assert height == 12 + 18 + 6 + 20 + 5 * 32 + 12 + 18 and width > 12 + 20 + 5 * 32 + 12  # the key is wider


def test_b13_generate_and_solve_ignore_the_hash_seed(tmp_path):
    """Same inputs, same bytes, whatever PYTHONHASHSEED (RULES B13)."""
    folders = {seed: tmp_path / seed for seed in ("1", "2")}
    for folder in folders.values():
        folder.mkdir()
    runs = under_hash_seeds(folders, ["ice", "generate", "--size", "9x9", "--moves", "8", "--snoms", "3", "--seed",
                                      "5", "--out", "m.yaml"], ["ice", "solve", "m.yaml", "--json"])
    outputs = []
    for seed, ((made, _), (solved, report)) in runs.items():
        assert made == solved == 0
        outputs.append(((tmp_path / seed / "m.yaml").read_text(), json.loads(report)[0]["moves"],
                        json.loads(report)[0]["solution"]))
    assert outputs[0] == outputs[1] and outputs[0][1] == 8


BUSY = ['...#.....#.S.#.#', '#.S............G', '...G......#.....', '#...#G..........', '.#.G.###........',
        '............#S#.', '..#.#.....#.#...', '......#.....#...', '.S.#.....#......', '#..##...........',
        '........##...#..', '.....G.......#..', '..#..#.#......#.', '.#.#...#.....S..', '...............#',
        '...#.#S.G....#..']  # 16x16, six snoms: a 12-order minimum after storing 8035 positions


def test_solve_stops_at_its_node_budget_with_no_proof_and_exit_1(tmp_path):
    maze = write(tmp_path, "busy.yaml", "map: |\n" + "".join(f"  {row}\n" for row in BUSY))
    result = runner.invoke(app, ["ice", "solve", str(maze), "--max-nodes", "100"])
    assert result.exit_code == 1 and f"{maze}: no proof within the limit (100 positions)" in result.output
    [report] = json.loads(runner.invoke(app, ["ice", "solve", str(maze), "--json", "--max-nodes", "100"]).stdout)
    assert report["moves"] is None and report["unproven"] == "no proof within the limit (100 positions)"
    [report] = json.loads(runner.invoke(app, ["ice", "solve", str(maze), "--json"]).stdout)
    assert report["moves"] == 12 and "unproven" not in report


def test_a_set_stop_flag_ends_the_maze_search_at_its_first_look_after_1024_positions():
    from pbem.dm.icemaze.maze import Maze
    from pbem.dm.limits import NoProof, stop_flag

    stop = stop_flag()
    stop[0] = True
    with pytest.raises(NoProof) as raised:
        solve(Maze.from_rows(BUSY), stop=stop)
    assert raised.value.stopped and raised.value.nodes == 1024


def test_generate_and_render_print_json(tmp_path):
    made = CliRunner().invoke(app, ["ice", "generate", "--size", "6x6", "--moves", "3", "--json",
                                    "--out", str(tmp_path / "m.yaml")])
    assert made.exit_code == 0, made.output
    document = json.loads(made.stdout)
    assert document["moves"] == 3 and len(document["solution"]) == 3 and len(document["map"]) == 6
    drawn = CliRunner().invoke(app, ["ice", "render", str(tmp_path / "m.yaml"), "--out", str(tmp_path / "m.png"),
                                     "--json"])
    assert drawn.exit_code == 0 and json.loads(drawn.stdout)["width"] > 0 and (tmp_path / "m.png").exists()
