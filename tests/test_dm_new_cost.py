"""What `pbem dm new` pays for, beside `import sqlmodel` (#34; benchmarks/dm_new.py times it): no ORM at all (its rows
are written with plain SQL: `store.newmatch`), no YAML, no mail module, and no collection of its imports. Counted
here, never timed."""
from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

import pytest
from cli_process import imported_by

ROOT = Path(__file__).resolve().parent.parent
GAMES_WITHOUT_SOLVER = ("takebacktoe", "flowerfield")  # Gyulbot's and Ice's puzzles are drawn by their solvers
UNUSED = ("sqlmodel", "sqlalchemy", "pydantic", "pbem.store.tables", "pbem.store.db", "yaml", "smtplib", "css_inline", "alembic", "pbem.mail", "pbem.store.mail", "pbem.store.reports",
          "pbem.store.turn_tables", "PIL.JpegImagePlugin", "PIL.GifImagePlugin", "PIL.BmpImagePlugin")


def new_match(folder: Path, game: str) -> list[str]:
    return ["--db", f"sqlite:///{folder / 'm.db'}", "dm", "new", "m", "--game", game, "--player", "ann", "--player",
            "bob", "--seed", "3", "--out", str(folder)]


@pytest.mark.parametrize("game", GAMES_WITHOUT_SOLVER)
def test_a_new_match_loads_no_orm_no_yaml_and_no_mail(tmp_path, game):
    modules = imported_by(*new_match(tmp_path, game), cwd=tmp_path, whole_names=True)
    assert (tmp_path / "m-000.png").exists()
    assert sorted(m for m in modules if m.split(".")[0] in UNUSED or m.startswith(UNUSED)) == []


def test_a_new_match_runs_without_a_collection_of_its_imports(tmp_path):
    """`pbem`'s process collects young objects every 200,000 allocations: dm new's imports make fewer, so none of
    its ~100,000 long-lived objects is scanned (at 50,000, twice: ~30 ms)."""
    script = ("import atexit, gc, json, runpy, sys\ncollected = []\n"
              "gc.callbacks.append(lambda phase, info: phase == 'stop' and gc.get_threshold()[0] > 700 and "
              "collected.append(info['generation']))\n"
              "sys.argv = ['pbem', *json.loads(sys.argv[1])]\n"
              "atexit.register(lambda: print('COLLECTED', json.dumps(collected)))\nrunpy.run_module('pbem', run_name='__main__')")
    run = subprocess.run([sys.executable, "-c", script, json.dumps(new_match(tmp_path, "takebacktoe"))], cwd=tmp_path,
                         capture_output=True, text=True, env={**os.environ, "PYTHONPATH": str(ROOT)}, timeout=120)
    assert (tmp_path / "m-000.png").exists(), run.stderr
    assert json.loads(run.stdout.split("COLLECTED ")[1]) == []
