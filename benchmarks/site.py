"""Benchmark: `pbem site` of a long campaign, full and after one more turn (issue #15: adding one turn to a
1,000-turn campaign <= 1 s; a full rebuild took 76 s).

Builds the campaign once in a temporary SQLite database (the bundled Geek-o game, random legal programs every turn,
as benchmarks/replay.py does), then times whole `pbem site` processes into one folder: the first (everything
written), one more with nothing new, and one after another turn was played (that turn and the one before it
rewritten, plus the indexes). The `pbem` processes run a copy of this checkout made at the start, so editing it
meanwhile changes nothing (the site's version hashes pbem's code and templates). Each process's wall time, CPU time
and peak resident memory (issue #36: <= 100 MB at 1,000 turns, flat) are reported, and the CPU of the two incremental
runs beside `import sqlmodel`'s (issue #36: one more turn <= 1.0x); `--before CHECKOUT` runs the same three steps with
another checkout (e.g. `git archive main`), into its own folder with its own shelf, in the same run. Prints one JSON
document.

    python3 benchmarks/site.py [--turns 1000] [--before CHECKOUT]
"""
from __future__ import annotations

import argparse
import json
import os
import platform
import shutil
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

HERE = Path(__file__).resolve().parent
sys.path.insert(0, str(HERE))
sys.path.insert(0, str(HERE.parent))

from replay import build

from pbem.store.games import Store

ENVIRONMENT = {key: value for key, value in os.environ.items() if key != "PYTHONDONTWRITEBYTECODE"}
ENVIRONMENT["PYTHONPATH"] = str(HERE.parent)


# Runs its arguments as a forked child and prints that child's exit code, CPU seconds and peak resident KB. A child
# started straight from this process would report this process's own peak with its own (Linux keeps `ru_maxrss`
# across the exec); a small launcher's fork starts from the launcher's few MB instead.
LAUNCHER = """import json, os, sys
child = os.fork()
if child == 0:
    os.dup2(os.open(os.devnull, os.O_WRONLY), 1)
    os.execv(sys.executable, [sys.executable, *sys.argv[1:]])
_, status, usage = os.wait4(child, 0)
print(json.dumps([os.waitstatus_to_exitcode(status), usage.ru_utime + usage.ru_stime, usage.ru_maxrss]))
"""


def launched(folder: Path, arguments: list[str], environment: dict[str, str]) -> tuple[float, float]:
    """One process of `python ARGUMENTS` through the launcher: its CPU seconds and peak resident MB."""
    done = subprocess.run([sys.executable, "-c", LAUNCHER, *arguments], cwd=folder, env=environment,
                          capture_output=True, text=True)
    code, cpu, peak_kb = json.loads(done.stdout) if done.stdout else (done.returncode, 0, 0)
    if code != 0:
        raise SystemExit(f"{' '.join(arguments)} failed: {done.stderr}")
    return cpu, peak_kb / 1024


def site(folder: Path, source: Path | None = None, out: str = "site") -> dict[str, float]:
    """One whole `pbem site` process (of `source`, else the copy of this checkout): seconds, CPU seconds, peak MB."""
    started = time.perf_counter()
    environment = {**ENVIRONMENT, **({"PYTHONPATH": str(source), "PBEM_CACHE_DIR": str(folder / f"cache-{out}")}
                                     if source else {})}  # its own shelf: it draws every room as this one did
    cpu, peak = launched(folder, ["-m", "pbem", "--db", f"sqlite:///{folder}/bench.db", "site", "bench", "--out",
                                  str(folder / out)], environment)
    return {"s": round(time.perf_counter() - started, 3), "cpu_s": round(cpu, 2), "peak_mb": round(peak, 1)}


def import_sqlmodel(folder: Path) -> float:
    """The yardstick: CPU seconds of `python -c "import sqlmodel"`, the median of three."""
    return statistics.median(launched(folder, ["-c", "import sqlmodel"], ENVIRONMENT)[0] for _ in range(3))


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--turns", type=int, default=1000)
    parser.add_argument("--before", type=Path, help="another checkout run beside this one (e.g. `git archive main`)")
    args = parser.parse_args()
    turns = args.turns
    load = os.getloadavg()[0]
    sources: dict[str, Path | None] = {"after": None, **({"before": args.before.resolve()} if args.before else {})}
    runs: dict[str, dict[str, dict[str, float]]] = {name: {} for name in sources}

    def every(step: str) -> None:  # each checkout in turn, into its own folder
        for name, source in sources.items():
            runs[name][step] = site(folder, source, "site" if source is None else f"site-{name}")

    with tempfile.TemporaryDirectory() as tmp:
        folder = Path(tmp)
        ENVIRONMENT["PBEM_CACHE_DIR"] = str(folder / "cache")
        for name in ("pbem", "rooms", "decks", "templates", "turns", "docs"):
            shutil.copytree(HERE.parent / name, folder / "code" / name, ignore=shutil.ignore_patterns("__pycache__"))
        ENVIRONMENT["PYTHONPATH"] = str(folder / "code")
        store = Store(f"sqlite:///{folder}/bench.db")
        started = time.perf_counter()
        build(store, turns - 1)
        built = time.perf_counter() - started
        store.close()
        for code in [folder / "code", *(source for source in sources.values() if source)]:
            subprocess.run([sys.executable, "-m", "compileall", "-q", str(code / "pbem")], check=True,
                           capture_output=True)  # as installed
        yardstick = [import_sqlmodel(folder)]
        every("full_site")
        every("nothing_new")
        store = Store(f"sqlite:///{folder}/bench.db")
        build(store, 1, fresh=False)
        store.close()
        every("one_more_turn")
        yardstick.append(import_sqlmodel(folder))
        files = sum(1 for p in (folder / "site").rglob("*") if p.is_file())
    sqlmodel = statistics.mean(yardstick)
    for steps in runs.values():
        for step in ("nothing_new", "one_more_turn"):
            steps[step]["x_import_sqlmodel"] = round(steps[step]["cpu_s"] / sqlmodel, 2)
    print(json.dumps({"machine": {"cores": os.cpu_count(), "python": platform.python_version(),
                                  "load_average": {"start": round(load, 2), "end": round(os.getloadavg()[0], 2)}},
                      "turns": turns, "build_s": round(built, 1), "site_files": files,
                      "import_sqlmodel_cpu_s": round(sqlmodel, 3), **runs,
                      "targets": {"full_site_peak_mb": 100, "one_more_turn_x_import_sqlmodel": 1.0}}, indent=2))


if __name__ == "__main__":
    main()
