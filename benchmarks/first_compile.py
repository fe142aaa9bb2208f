"""The numba solvers' first use, timed the way a GM meets it: a fresh interpreter with an empty cache, then a second
one that loads what the first compiled (a helper of gyulbot.py and ice.py)."""
from __future__ import annotations

import os
import subprocess
import sys
import tempfile
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent


def compile_times(first_solve: str) -> dict:
    """Wall and CPU seconds of `first_solve` (a `python -c` program printing its own wall and CPU seconds) with an
    empty numba cache, then of the same program again, which loads the cache."""
    with tempfile.TemporaryDirectory() as cache:
        env = {**os.environ, "NUMBA_CACHE_DIR": cache, "PYTHONPATH": str(ROOT)}
        (cold, cold_cpu), (warm, warm_cpu) = (map(float, subprocess.run(
            [sys.executable, "-c", first_solve], env=env, check=True, capture_output=True, text=True).stdout.split())
            for _ in range(2))
    return {"cold_compile_s": round(cold, 2), "cold_compile_cpu_s": round(cold_cpu, 2),
            "warm_load_s": round(warm, 3), "warm_load_cpu_s": round(warm_cpu, 3)}
