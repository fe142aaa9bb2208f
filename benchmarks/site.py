"""Benchmark: `pbem site` of a long campaign, full and after one more turn (issue #15: adding one turn to a
1,000-turn campaign <= 1 s; a full rebuild took 76 s).

Builds the campaign once in a temporary SQLite database (the bundled Geek-o game, random legal programs every turn,
as benchmarks/replay.py does), then times whole `pbem site` processes into one folder: the first (everything
written), one more with nothing new, and one after another turn was played (that turn and the one before it
rewritten, plus the indexes). The `pbem` processes run a copy of this checkout made at the start, so editing it
meanwhile changes nothing (the site's version hashes pbem's code and templates). Each process's wall time, CPU time
and peak resident memory (issue #27: <= 150 MB at 1,000 turns) are reported; `--before CHECKOUT` also runs a full
build with another checkout (e.g. `git archive main`), into its own folder, in the same run. Prints one JSON document.

    python3 benchmarks/site.py [--turns 1000] [--before CHECKOUT]
"""
from __future__ import annotations

import argparse
import json
import os
import platform
import shutil
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


def site(folder: Path, source: Path | None = None, out: str = "site") -> dict[str, float]:
    """One whole `pbem site` process (of `source`, else the copy of this checkout): seconds, CPU seconds, peak MB."""
    started = time.perf_counter()
    environment = {**ENVIRONMENT, **({"PYTHONPATH": str(source), "PBEM_CACHE_DIR": str(folder / f"cache-{out}")}
                                     if source else {})}  # its own shelf: it draws every room as this one did
    done = subprocess.run([sys.executable, "-c", LAUNCHER, "-m", "pbem", "--db", f"sqlite:///{folder}/bench.db",
                           "site", "bench", "--out", str(folder / out)], cwd=folder, env=environment,
                          capture_output=True, text=True)
    code, cpu, peak_kb = json.loads(done.stdout) if done.stdout else (done.returncode, 0, 0)
    if code != 0:
        raise SystemExit(f"pbem site failed: {done.stderr}")
    return {"s": round(time.perf_counter() - started, 3), "cpu_s": round(cpu, 2), "peak_mb": round(peak_kb / 1024, 1)}


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--turns", type=int, default=1000)
    parser.add_argument("--before", type=Path, help="another checkout whose full build runs beside this one's")
    args = parser.parse_args()
    turns = args.turns
    load = os.getloadavg()[0]
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
        subprocess.run([sys.executable, "-m", "compileall", "-q", str(folder / "code" / "pbem")], check=True,
                       capture_output=True)  # as installed
        full = site(folder)
        before = site(folder, args.before.resolve(), "site-before") if args.before else None
        nothing_new = site(folder)
        store = Store(f"sqlite:///{folder}/bench.db")
        build(store, 1, fresh=False)
        store.close()
        one_more = site(folder)
        files = sum(1 for p in (folder / "site").rglob("*") if p.is_file())
    print(json.dumps({"machine": {"cores": os.cpu_count(), "python": platform.python_version(),
                                  "load_average": {"start": round(load, 2), "end": round(os.getloadavg()[0], 2)}},
                      "turns": turns, "build_s": round(built, 1), "site_files": files,
                      "full_site": full, "nothing_new": nothing_new, "one_more_turn": one_more,
                      **({"full_site_before": before} if before else {}),
                      "target_one_more_turn_s": 1.0, "target_full_site_peak_mb": 150}, indent=2))


if __name__ == "__main__":
    main()
