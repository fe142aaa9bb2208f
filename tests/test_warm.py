"""First use honest (issue #27): a command that must compile a numba solver says so on stderr before it starts,
and `pbem warm` compiles both ahead."""
from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

import pytest
from typer.testing import CliRunner

from pbem.cli import app
from pbem.cli import warm as warming

ROOT = Path(__file__).resolve().parent.parent
PUZZLE = {"size": 4, "robots": {"red": ["r4c1"]}, "goal": "r1c4"}  # red up, then right: 2 moves


def test_warm_compiles_both_solvers_and_says_so():
    result = CliRunner().invoke(app, ["warm"])
    assert result.exit_code == 0, result.output
    assert "the Gyulbot solver, the ice-maze solver: compiled and cached" in result.stdout
    assert warming.compiled("gyulbot") and warming.compiled("ice")


def test_a_solver_that_must_compile_says_so_before_and_one_that_is_cached_says_nothing(monkeypatch, capsys):
    calls = []
    monkeypatch.setattr("pbem.dm.gyulbot.solver.warm_up", lambda: calls.append(capsys.readouterr().err))
    monkeypatch.setattr(warming, "compiled", lambda name: False)
    warming.warm("gyulbot")
    assert calls and "Compiling the Gyulbot solver once" in calls[0]  # on stderr before the compiling began
    monkeypatch.setattr(warming, "compiled", lambda name: True)
    warming.warm("gyulbot")
    assert capsys.readouterr().err == ""


@pytest.mark.slow
def test_the_first_solve_after_an_install_says_it_compiles_and_the_next_does_not(tmp_path):
    """A fresh numba cache (as after an install): the notice, then the solution; the second run loads the cache."""
    (tmp_path / "p.json").write_text(json.dumps(PUZZLE))
    environment = {**os.environ, "NUMBA_CACHE_DIR": str(tmp_path / "cache"), "PYTHONPATH": str(ROOT)}
    runs = [subprocess.run([sys.executable, "-m", "pbem", "gyulbot", "solve", "p.json", "--json"], cwd=tmp_path,
                           env=environment, capture_output=True, text=True, timeout=900) for _ in range(2)]
    assert [run.returncode for run in runs] == [0, 0]
    assert "Compiling the Gyulbot solver once" in runs[0].stderr and "Compiling" not in runs[1].stderr
    assert json.loads(runs[1].stdout)[0]["moves"] == 2
