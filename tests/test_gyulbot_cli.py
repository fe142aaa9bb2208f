"""Gyulbot puzzle files, `pbem gyulbot solve|generate` and the position picture (D1.5, DESIGN.md)."""
from __future__ import annotations

import io
import json
import os
import subprocess
import sys
from pathlib import Path

import pytest
from PIL import Image
from typer.testing import CliRunner

from pbem.cli import app
from pbem.dm.base import Config, get_game
from pbem.dm.gyulbot.bfs import bfs_solve
from pbem.dm.gyulbot.board import parse_solution, solved_after
from pbem.formats.gyulbot import parse_puzzle, puzzle_data, read_puzzle
from pbem.formats.yamlfile import FormatError, load_yaml
from pbem.render.dm import draw, png_bytes

# red at r3c1 goes U (r1c1) then R: the wall west of r1c3 stops it on the goal r1c2
PUZZLE = """\
name: two moves
size: 3
walls: [r1c3 W]
robots:
  red: [r3c1]
  blue: r3c3
goal: {at: r1c2, colour: red}
"""


def test_puzzle_file_round_trip(tmp_path):
    path = tmp_path / "p.yaml"
    path.write_text(PUZZLE)
    puzzle = read_puzzle(path)
    assert (puzzle.rows, puzzle.cols, puzzle.colours, puzzle.goal_colour) == (3, 3, ("red", "blue"), "red")
    assert parse_puzzle(puzzle_data(puzzle)) == puzzle


def test_puzzle_errors_name_line_and_field():
    text = """\
size: 4x4
walls: [r1c1 Q, r9c1 N]
robots:
  red: [r1c1]
  rud: [r2c2]
  blue: [r1c1]
goal: {at: r2c2, colour: green}
colour: red
"""
    with pytest.raises(FormatError) as err:
        parse_puzzle(load_yaml(text, "bad.yaml"), "bad.yaml")
    found = {(p.line, p.field) for p in err.value.problems}
    assert found == {(8, "colour"), (2, "walls[0]"), (2, "walls[1]"), (5, "robots.rud"), (6, "robots.blue"),
                     (7, "goal.colour")}
    assert all(p.source == "bad.yaml" for p in err.value.problems)


def test_cli_solve_json(tmp_path):
    path = tmp_path / "p.yaml"
    path.write_text(PUZZLE)
    result = CliRunner().invoke(app, ["gyulbot", "solve", str(path), "--json"])
    assert result.exit_code == 0, result.output
    [entry] = json.loads(result.output)
    assert entry["file"] == str(path) and entry["moves"] == 2 and entry["solution"] == "Red UR"
    assert isinstance(entry["seconds"], float)


def test_cli_solve_refuses_bad_file_and_still_solves_the_rest(tmp_path):
    good, bad = tmp_path / "good.yaml", tmp_path / "bad.yaml"
    good.write_text(PUZZLE)
    bad.write_text("size: 3\nrobots: {red: [r4c1]}\ngoal: {at: r1c1}\n")
    result = CliRunner().invoke(app, ["gyulbot", "solve", str(good), str(bad)])
    assert result.exit_code == 1
    assert "good.yaml: 2 moves: Red UR" in result.output
    assert "bad.yaml:2: robots.red: r4c1 is off the 3x3 board" in result.output


def test_cli_generate_makes_a_puzzle_of_that_minimum(tmp_path):
    out = tmp_path / "g.yaml"
    result = CliRunner().invoke(app, ["gyulbot", "generate", "--moves", "4", "--seed", "7", "--out", str(out)])
    assert result.exit_code == 0, result.output
    puzzle = read_puzzle(out)
    assert len(bfs_solve(puzzle, 4)) == 4  # the plain BFS confirms the minimum
    data = load_yaml(out.read_text())
    assert solved_after(puzzle, parse_solution(puzzle, data["notes"].split("e.g. ")[1])) == 4
    again = tmp_path / "g2.yaml"
    CliRunner().invoke(app, ["gyulbot", "generate", "--moves", "4", "--seed", "7", "--out", str(again)])
    assert again.read_bytes() == out.read_bytes()  # same seed, same puzzle (B13)


def test_position_picture_is_deterministic():
    puzzle = parse_puzzle(load_yaml(PUZZLE))
    game = get_game("gyulbot")
    state = game.new_state(Config("gyulbot", ("ann", "bob"), puzzles=(puzzle,) * 5))
    assert game.render_data(state)["walls"] == [[1, 3, "W"]]  # each wall once
    first = png_bytes(draw("gyulbot", game.render_data(state)))
    assert first == png_bytes(draw("gyulbot", game.render_data(state)))
    image = Image.open(io.BytesIO(first))
    # a header above the 3x3 board, as wide as its text
    from pbem.render.dm_gyulbot import CELL, HEADER, LABEL, MARGIN
    assert image.size[0] > 3 * CELL and image.size[1] == HEADER + LABEL + 3 * CELL + MARGIN
    # the goal star is drawn in red at the centre of r1c2; blue's robot sits on r3c3
    left, top = MARGIN + LABEL, HEADER + LABEL
    assert image.getpixel((left + CELL + CELL // 2, top + CELL // 2)) == (214, 48, 49)
    assert image.getpixel((left + 2 * CELL + CELL // 2, top + 2 * CELL + CELL // 2)) == (41, 98, 255)


def test_solve_stops_at_its_node_budget_or_its_timer_with_no_proof(tmp_path):
    puzzle = tmp_path / "nine.yaml"
    made = CliRunner().invoke(app, ["gyulbot", "generate", "--moves", "9", "--seed", "2", "--out", str(puzzle)])
    assert made.exit_code == 0
    result = CliRunner().invoke(app, ["gyulbot", "solve", str(puzzle), "--max-nodes", "5"])
    assert result.exit_code == 1 and "nine.yaml: no proof within the limit (5 positions)" in result.output
    [entry] = json.loads(CliRunner().invoke(app, ["gyulbot", "solve", str(puzzle), "--json"]).stdout)
    assert entry["moves"] == 9 and "unproven" not in entry  # the generator proved 9 the minimum


def test_a_set_stop_flag_ends_the_search_at_its_first_look_after_1024_positions(tmp_path):
    from pbem.dm.gyulbot.solver import STATS
    from pbem.dm.gyulbot.solver import solve as solve_puzzle
    from pbem.dm.limits import NoProof, stop_flag
    from pbem.formats.gyulbot import read_puzzle

    puzzle = tmp_path / "nine.yaml"
    CliRunner().invoke(app, ["gyulbot", "generate", "--moves", "9", "--seed", "2", "--out", str(puzzle)])
    assert len(solve_puzzle(read_puzzle(puzzle))) == 9 and STATS["nodes"] > 1024
    stop = stop_flag()
    stop[0] = True
    with pytest.raises(NoProof) as raised:
        solve_puzzle(read_puzzle(puzzle), stop=stop)
    assert raised.value.stopped and raised.value.nodes == 1024


def test_the_command_lines_timer_sets_the_stop_flag():
    import time

    from pbem.cli.common import solver_timer

    with solver_timer(0.01) as flag:
        deadline = time.monotonic() + 10  # the flag is awaited, not a fixed sleep: a busy machine may be slow
        while not flag[0] and time.monotonic() < deadline:
            time.sleep(0.005)
        assert flag[0]
    with solver_timer(60) as flag:
        assert not flag[0]


@pytest.mark.parametrize("size", [6, 7, 8])
def test_generate_on_small_boards_and_as_json(size):
    """A 6x6 board's walled centre leaves no corner for the goal: the generator still makes a proven puzzle."""
    result = CliRunner().invoke(app, ["gyulbot", "generate", "--moves", "2", "--size", str(size), "--json"])
    assert result.exit_code == 0, result.output
    document = json.loads(result.stdout)
    puzzle = parse_puzzle(document["puzzle"])
    assert document["moves"] == 2 and solved_after(puzzle, parse_solution(puzzle, document["solution"])) is not None


def test_the_command_lines_move_limit_is_the_solvers():
    """pbem/cli/gyulbot.py keeps its own copy (importing the solver loads pbem.dm, too slow for --help)."""
    from pbem.cli.gyulbot import MAX_MOVES as COMMAND_LINE
    from pbem.dm.gyulbot.solver import MAX_MOVES as SOLVER

    assert COMMAND_LINE == SOLVER


def test_a_checkout_never_built_says_to_install_it_instead_of_a_traceback(tmp_path):
    """Without the compiled search (a source checkout nobody installed) `gyulbot solve` names the fix on stderr."""
    (tmp_path / "p.yaml").write_text(PUZZLE)
    program = ("import sys; sys.modules['pbem.dm.gyulbot._search'] = None; "  # as if the .so were not there
               "sys.argv = ['pbem', 'gyulbot', 'solve', 'p.yaml']; from pbem.cli import main; main()")
    run = subprocess.run([sys.executable, "-c", program], cwd=tmp_path, capture_output=True, text=True,
                         env={**os.environ, "PYTHONPATH": str(Path(__file__).resolve().parent.parent)})
    assert run.returncode == 1 and "Traceback" not in run.stderr, run.stderr
    assert "_search.c: the Gyulbot solver's compiled search is not built: run `pip install -e .`" in run.stderr
