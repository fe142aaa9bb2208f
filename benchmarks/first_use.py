"""A solver's first use, timed the way a GM meets it after an install: fresh interpreters beside `import sqlmodel`
(a helper of gyulbot.py). Both solvers are compiled by `pip install`, so nothing is compiled or cached on first use
(the Numba-era timings of a cold and a warm cache are in BENCHMARKS.md's history)."""
from __future__ import annotations

import os
import resource
import statistics
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent


def beside_sqlmodel(first_solve: str, rounds: int = 5) -> dict:
    """The first use of a solver compiled by `pip install`, beside `python -c "import sqlmodel"` in the same rounds
    (alternating, each a fresh interpreter): the CPU of the whole child (user + system: its imports and first
    solve), the ratio of the medians, and the first solve's own CPU, which `first_solve` (a `python -c` program)
    prints after its wall seconds."""
    env = {**os.environ, "PYTHONPATH": str(ROOT)}

    def child(program: str) -> tuple[float, str]:
        before = resource.getrusage(resource.RUSAGE_CHILDREN)
        out = subprocess.run([sys.executable, "-c", program], env=env, cwd=ROOT, check=True, capture_output=True,
                             text=True).stdout
        after = resource.getrusage(resource.RUSAGE_CHILDREN)
        return after.ru_utime - before.ru_utime + after.ru_stime - before.ru_stime, out

    base, whole, solving = [], [], []
    for _ in range(rounds):
        base.append(child("import sqlmodel")[0])
        seconds, out = child(first_solve)
        whole.append(seconds)
        solving.append(float(out.split()[1]))
    sqlmodel, first = statistics.median(base), statistics.median(whole)
    return {"rounds": rounds, "import_sqlmodel_cpu_s": round(sqlmodel, 3), "first_use_cpu_s": round(first, 3),
            "ratio": round(first / sqlmodel, 2), "first_solve_cpu_s": round(statistics.median(solving), 4)}
