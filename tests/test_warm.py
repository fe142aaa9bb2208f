"""First use honest (issue #27): a command that must compile a numba solver says so on stderr before it starts,
and `pbem warm` compiles it ahead; the ice-maze solver is compiled by `pip install` (issue #36)."""
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


def test_warm_compiles_the_numba_solver_and_says_the_one_built_at_install_is_ready():
    result = CliRunner().invoke(app, ["warm"])
    assert result.exit_code == 0, result.output
    assert result.stdout.splitlines()[-2:] == ["the Gyulbot solver: compiled and cached",
                                               "the ice-maze solver: ready (built when pbem was installed)"]
    assert warming.compiled("gyulbot") and warming.compiled("ice")


def test_an_ice_solve_never_says_it_compiles(monkeypatch, capsys):
    monkeypatch.setattr("pbem.dm.icemaze.solver.warm_up", lambda: None)
    warming.warm("ice")
    assert capsys.readouterr().err == ""


def test_a_checkout_whose_ice_solver_was_never_built_is_told_to_install_it(monkeypatch, tmp_path):
    monkeypatch.setitem(sys.modules, "pbem.dm.icemaze._search", None)  # what `import` finds when it was never built
    (tmp_path / "m.yaml").write_text("map: [S...., ....., ..#.., ....., ....G]\n")
    for command in (["warm"], ["ice", "solve", str(tmp_path / "m.yaml")]):
        result = CliRunner().invoke(app, command)
        assert result.exit_code == 1 and "ice-maze solver (pbem/dm/icemaze/_search.c) is not built: run `pip " \
            "install -e .`" in result.stderr, result.output


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
