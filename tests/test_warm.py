"""First use (issues #27, #36): the solvers' searches are C extensions compiled when pbem is installed, so no command
compiles anything on first use; `pbem warm` loads them and says each is ready; a checkout never installed is told
plainly how to build them."""
from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

import pytest
from typer.testing import CliRunner

from pbem.cli import app

ROOT = Path(__file__).resolve().parent.parent
PUZZLE = {"size": 4, "robots": {"red": ["r4c1"]}, "goal": "r1c4"}  # red up, then right: 2 moves


def test_warm_says_both_solvers_are_ready():
    result = CliRunner().invoke(app, ["warm"])
    assert result.exit_code == 0, result.output
    assert result.stdout.splitlines()[-2:] == ["the Gyulbot solver: ready (compiled when pbem was installed)",
                                               "the ice-maze solver: ready (compiled when pbem was installed)"]


@pytest.mark.parametrize("command", [["warm"], ["ice", "solve", "m.yaml"]])
def test_a_checkout_whose_ice_solver_was_never_built_is_told_to_install_it(tmp_path, command):
    (tmp_path / "m.yaml").write_text("map: [S...., ....., ..#.., ....., ....G]\n")
    program = ("import sys; sys.modules['pbem.dm.icemaze._search'] = None; "  # as if the .so were not there
               f"sys.argv = ['pbem', *{command!r}]; from pbem.cli import main; main()")
    run = subprocess.run([sys.executable, "-c", program], cwd=tmp_path, capture_output=True, text=True,
                         env={**os.environ, "PYTHONPATH": str(ROOT)})
    assert run.returncode == 1 and "Traceback" not in run.stderr, run.stderr
    assert "_search.c: the ice-maze solver's compiled search is not built: run `pip install -e .`" in run.stderr


@pytest.mark.slow
def test_the_first_solves_after_an_install_have_nothing_to_compile(tmp_path):
    """Fresh interpreters, as after an install: neither solver says it compiles, first time or next."""
    (tmp_path / "p.json").write_text(json.dumps(PUZZLE))
    (tmp_path / "m.yaml").write_text("map: [S...., ....., ..#.., ....., ....G]\n")
    environment = {**os.environ, "PYTHONPATH": str(ROOT)}
    commands = [["gyulbot", "solve", "p.json", "--json"], ["ice", "solve", "m.yaml"]] * 2
    runs = [subprocess.run([sys.executable, "-m", "pbem", *command], cwd=tmp_path, env=environment,
                           capture_output=True, text=True, timeout=900) for command in commands]
    assert [run.returncode for run in runs] == [0] * 4, [run.stderr for run in runs]
    assert not any("ompil" in run.stderr for run in runs)
    assert [json.loads(runs[i].stdout)[0]["moves"] for i in (0, 2)] == [2, 2]
