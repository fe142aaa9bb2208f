"""First use honest (issue #27): a command that must compile a numba solver says so on stderr before it starts,
and `pbem warm` compiles it ahead; the Gyulbot solver, compiled when pbem is installed (issue #36), is ready."""
from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path
from types import SimpleNamespace

import pytest
from typer.testing import CliRunner

from pbem.cli import app
from pbem.cli import warm as warming
from pbem.games import Solver

ROOT = Path(__file__).resolve().parent.parent
PUZZLE = {"size": 4, "robots": {"red": ["r4c1"]}, "goal": "r1c4"}  # red up, then right: 2 moves


def test_warm_compiles_the_numba_solver_and_says_the_installed_one_is_ready():
    result = CliRunner().invoke(app, ["warm"])
    assert result.exit_code == 0, result.output
    assert "the Gyulbot solver: ready (compiled when pbem was installed)" in result.stdout
    assert "the ice-maze solver: compiled and cached" in result.stdout
    assert warming.compiled("gyulbot") and warming.compiled("ice")


def test_a_solver_that_must_compile_says_so_before_and_one_that_is_cached_says_nothing(monkeypatch, capsys):
    calls = []
    numba_solver = Solver("a_numba_solver", "a_numba_solver", "the numba solver", 5)
    monkeypatch.setattr(warming, "_solvers", lambda: {"numba": numba_solver})
    monkeypatch.setitem(sys.modules, "a_numba_solver",
                        SimpleNamespace(warm_up=lambda: calls.append(capsys.readouterr().err)))
    monkeypatch.setattr(warming, "compiled", lambda name: False)
    warming.warm("numba")
    assert calls and "Compiling the numba solver once" in calls[0]  # on stderr before the compiling began
    monkeypatch.setattr(warming, "compiled", lambda name: True)
    warming.warm("numba")
    assert capsys.readouterr().err == ""


@pytest.mark.slow
def test_the_first_gyulbot_solve_after_an_install_has_nothing_to_compile(tmp_path):
    """An empty numba cache (as after an install): the solver was compiled by `pip install` (issue #36), so
    neither the first solve nor the next says it compiles."""
    (tmp_path / "p.json").write_text(json.dumps(PUZZLE))
    environment = {**os.environ, "NUMBA_CACHE_DIR": str(tmp_path / "cache"), "PYTHONPATH": str(ROOT)}
    runs = [subprocess.run([sys.executable, "-m", "pbem", "gyulbot", "solve", "p.json", "--json"], cwd=tmp_path,
                           env=environment, capture_output=True, text=True, timeout=900) for _ in range(2)]
    assert [run.returncode for run in runs] == [0, 0]
    assert "Compiling" not in runs[0].stderr + runs[1].stderr
    assert [json.loads(run.stdout)[0]["moves"] for run in runs] == [2, 2]
