"""Command-line benchmark: how long a GM waits for whole `pbem` commands, each in its own interpreter.

    python3 benchmarks/cli.py [--repeat N]

Prints one JSON document: the median wall time (ms) of N runs (default 5), after one warm-up run, of
`pbem --help`, `pbem game list` on the demo database, `pbem turn check GAME FILE` and `pbem turn process` of an
8-player BotWars turn with its reports (rolled back between runs, not timed), beside `python -c "import sqlmodel"`
and `python -c pass` timed in the same run, so a slower or busier machine shows in the baseline too.
The interpreter is this one (not a pyenv shim), with this checkout first on PYTHONPATH, writing bytecode as an
installed copy has it (PYTHONDONTWRITEBYTECODE is dropped) and keeping pictures in a fresh cache folder: the
warm-up run (`first_ms`) fills it, as a campaign's first turn does.
"""
from __future__ import annotations

import argparse
import json
import os
import platform
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
PLAYERS = ("ann", "ben", "cy", "dee", "eve", "fay", "gus", "hal")
TARGETS_MS = {"help": 150, "game_list": 450, "turn_check": 500, "turn_process": 1000}
ENVIRONMENT = {key: value for key, value in os.environ.items() if key != "PYTHONDONTWRITEBYTECODE"}
ENVIRONMENT["PYTHONPATH"] = str(ROOT)


def pbem(*args: str, cwd: Path) -> subprocess.CompletedProcess:
    done = subprocess.run([sys.executable, "-m", "pbem", *args], cwd=cwd, env=ENVIRONMENT, capture_output=True,
                          text=True)
    if done.returncode != 0:
        raise SystemExit(f"pbem {' '.join(args)} failed ({done.returncode}): {done.stderr}")
    return done


def timed(command: list[str], cwd: Path, repeat: int, between=None) -> dict:
    """Median and every run in ms, after one warm-up run; `between` runs untimed after each run."""
    runs, first = [], 0.0
    for attempt in range(repeat + 1):
        started = time.perf_counter()
        done = subprocess.run(command, cwd=cwd, env=ENVIRONMENT, capture_output=True)
        elapsed = (time.perf_counter() - started) * 1000
        if done.returncode != 0:
            raise SystemExit(f"{' '.join(command)} failed: {done.stderr.decode()}")
        if attempt:
            runs.append(round(elapsed, 1))
        else:
            first = round(elapsed, 1)
        if between:
            between()
    return {"median_ms": round(statistics.median(runs), 1), "runs_ms": runs, "first_ms": first}


def botwars_turn(folder: Path) -> Path:
    """An 8-player BotWars game with turn 1 dealt and everyone's orders in; returns one order file."""
    db = ["--db", "sqlite:///bench.db"]
    pbem(*db, "game", "new", "bw", "--ruleset", "botwars", "--seed", "3",
         *[f"--player={p}:{p}@example.org" for p in PLAYERS], cwd=folder)
    sheets = json.loads(pbem(*db, "turn", "deal", "bw", "--json", cwd=folder).stdout)["sheets"]
    files = []
    for sheet in sheets:
        (robot, hand), = sheet["hands"].items()
        path = folder / f"{sheet['player']}.yaml"
        program = f"{robot}: {{program: [{', '.join(hand[:5])}]}}"
        path.write_text(sheet["orders"].replace(f"{robot}: {{program: []}}", program))
        files.append(str(path))
    pbem(*db, "turn", "submit", "bw", *files, cwd=folder)
    return Path(files[0])


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--repeat", type=int, default=5)
    repeat = parser.parse_args().repeat
    python = [sys.executable]
    with tempfile.TemporaryDirectory() as tmp:
        folder = Path(tmp)
        ENVIRONMENT["PBEM_CACHE_DIR"] = str(folder / "cache")
        pbem("demo", "--out", "demo", cwd=folder)
        orders = botwars_turn(folder)
        bench = ["--db", "sqlite:///bench.db"]
        results = {
            "python_startup": timed([*python, "-c", "pass"], folder, repeat),
            "import_sqlmodel": timed([*python, "-c", "import sqlmodel"], folder, repeat),
            "help": timed([*python, "-m", "pbem", "--help"], folder, repeat),
            "game_list": timed([*python, "-m", "pbem", "--db", "sqlite:///pbem-demo.db", "game", "list"], folder,
                               repeat),
            "turn_check": timed([*python, "-m", "pbem", *bench, "turn", "check", "bw", str(orders)], folder, repeat),
            "turn_process": timed([*python, "-m", "pbem", *bench, "turn", "process", "bw"], folder, repeat,
                                  between=lambda: pbem(*bench, "turn", "rollback", "bw", "--to", "1", cwd=folder)),
        }
    for name, target in TARGETS_MS.items():
        results[name]["target_ms"] = target
    cpu = next((line.split(":", 1)[1].strip() for line in Path("/proc/cpuinfo").read_text().splitlines()
                if line.startswith("model name")), platform.processor())
    print(json.dumps({"machine": {"cpu": cpu, "cores": os.cpu_count(), "python": platform.python_version(),
                                  "load_average": [round(x, 2) for x in os.getloadavg()]},
                      "repeat": repeat, "results": results}, indent=2))


if __name__ == "__main__":
    main()
