"""Both solvers' C searches read plain buffers (`array`, `bytearray`): pbem solves without NumPy installed, so NumPy
is not one of its dependencies (pyproject.toml; the tests' pixel comparisons still use it)."""
from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
# NumPy made unimportable, then `pbem`'s command line run once per command (in one process: pbem.cli.main, as the
# installed command runs it but for ending the process)
WITHOUT_NUMPY = """import json, sys
sys.modules["numpy"] = None  # `import numpy` raises ImportError, as where it is not installed
from pbem.cli import main
for args in json.loads(sys.argv[1]):
    sys.argv = ["pbem", *args]
    try:
        main()
    except SystemExit as exit:
        print("EXIT", exit.code, flush=True)
"""


def test_gyulbot_and_ice_generate_and_solve_with_numpy_unimportable(tmp_path):
    (tmp_path / "maze.yaml").write_text("map: [S...., ....., ..#.., ....., ....G]\n")
    commands = [["gyulbot", "generate", "--moves", "5", "--seed", "3", "--out", "five.yaml"],
                ["gyulbot", "solve", "five.yaml", "--json", "--timeout", "60"],
                ["ice", "solve", "maze.yaml", "--json", "--timeout", "60"]]
    run = subprocess.run([sys.executable, "-c", WITHOUT_NUMPY, json.dumps(commands)], cwd=tmp_path, text=True,
                         capture_output=True, timeout=300, env={**os.environ, "PYTHONPATH": str(ROOT)})
    assert "numpy" not in run.stderr.lower() and "Traceback" not in run.stderr, run.stderr
    outputs = run.stdout.split("EXIT 0\n")
    assert len(outputs) == 4 and outputs[-1] == "", run.stdout
    [puzzle] = json.loads(outputs[1])
    [maze] = json.loads(outputs[2])
    assert puzzle["moves"] == 5 and maze["moves"] == 2, run.stdout  # maze: R along the top row, D down to G
