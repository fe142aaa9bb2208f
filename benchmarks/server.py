"""A GM's server (issue #36): `--games` BotWars games all due at one tick on PostgreSQL, processed by `pbem run
--jobs N` for each N of `--workers`; the wall time of the tick and its CPU per game (the run and its workers, the
PostgreSQL server's own CPU left out), as one JSON document.

    python3 benchmarks/server.py [--games 100] [--workers 1,2,4]

The games are made once (due_tick.dealt_games's BotWars copies, dealt, clocks started) in one database; each tick runs on
a fresh copy of it (CREATE DATABASE … TEMPLATE), three days later when every deadline has passed.
"""
from __future__ import annotations

import argparse
import json
import os
import platform
import resource
import subprocess
import sys
import tempfile
import time
from pathlib import Path

from child_cpu import ENVIRONMENT  # benchmarks/, beside this script
from due_tick import DUE, ROOT, dealt_games


def copy_of(server_url: str, template: str, name: str) -> str:
    """A new database on the server holding what `template` holds; its URL."""
    import psycopg

    with psycopg.connect(server_url.replace("postgresql+psycopg://", "postgresql://"), autocommit=True) as conn:
        conn.execute(f'CREATE DATABASE "{name}" TEMPLATE "{template}"')
    return server_url.rsplit("/", 1)[0] + f"/{name}"


def tick(url: str, jobs: int, folder: Path) -> dict[str, float]:
    """One due tick by `jobs` workers: its wall time and CPU (the run and every worker it waited for)."""
    before, started = resource.getrusage(resource.RUSAGE_CHILDREN), time.perf_counter()
    subprocess.run([sys.executable, "-m", "pbem", "--db", url, "--now", DUE, "run", "--jobs", str(jobs),
                    "--out", str(folder / f"out-{jobs}")], cwd=folder, env={**ENVIRONMENT, "PYTHONPATH": str(ROOT)},
                   check=True, capture_output=True)
    wall, after = time.perf_counter() - started, resource.getrusage(resource.RUSAGE_CHILDREN)
    return {"wall_s": wall, "cpu_s": (after.ru_utime + after.ru_stime) - (before.ru_utime + before.ru_stime)}


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=int, default=100)
    parser.add_argument("--workers", default="1,2,4", help="the worker counts to time, comma-separated")
    args = parser.parse_args()
    sys.path.insert(0, str(ROOT / "tests"))
    from postgres_server import start_server

    server = start_server()
    load_before = os.getloadavg()[0]
    rows = {}
    try:
        with tempfile.TemporaryDirectory() as name:
            folder = Path(name)
            dealt = server.new_database()
            dealt_games(folder, args.games, dealt)
            for jobs in (int(n) for n in args.workers.split(",")):
                measured = tick(copy_of(dealt, dealt.rsplit("/", 1)[1], f"tick_{jobs}"), jobs, folder)
                rows[jobs] = {"wall_s_per_tick": round(measured["wall_s"], 2),
                              "cpu_ms_per_game": round(measured["cpu_s"] * 1000 / args.games, 1)}
    finally:
        server.stop()
    print(json.dumps({
        "benchmark": "server: every game due at one tick on PostgreSQL, pbem run --jobs N",
        "games": args.games, "workers": rows, "cpu_count": os.cpu_count(), "python": platform.python_version(),
        "load_before": round(load_before, 2), "load_after": round(os.getloadavg()[0], 2)}, indent=2))


if __name__ == "__main__":
    main()
