"""`pbem dm new` benchmark: the CPU a new match of each death-match game costs, beside `import sqlmodel` (#34).

    python3 benchmarks/dm_new.py [--repeat 5] [--before CHECKOUT]

Runs `pbem warm` first (the solvers compiled, as a GM's machine has them), then, `--repeat` rounds, each command in
its own interpreter in turn (alternating, so every command sees the same load): `python -c "import sqlmodel"` and
`pbem dm new` of each game into a fresh SQLite file, with its default options (Gyulbot's and Ice's puzzles from their
banks: no solver loaded), and Gyulbot with a 10-move puzzle too (banked since edition 3; before, generated: the
solver loaded).
Prints one JSON document with each command's median CPU (user + system of the child) and its ratio to `import
sqlmodel` in the same rounds; `--before` times another checkout (e.g. `git archive main`) in the same rounds.
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
from pathlib import Path

from child_cpu import ENVIRONMENT, cpu  # benchmarks/, beside this script

ROOT = Path(__file__).resolve().parent.parent
MATCHES = {"gyulbot moves=10": ["gyulbot", "--option", "moves=10"], "gyulbot": ["gyulbot"],
           "takebacktoe": ["takebacktoe"], "flowerfield": ["flowerfield"], "ice": ["ice"]}  # name: --game and options



def dm_new(match: str, source: Path) -> float:
    with tempfile.TemporaryDirectory() as folder:
        return cpu([sys.executable, "-m", "pbem", "--db", f"sqlite:///{folder}/m.db", "dm", "new", "m", "--game",
                    *MATCHES[match], "--player", "ann", "--player", "bob", "--seed", "3", "--out", folder], source)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--repeat", type=int, default=5)
    parser.add_argument("--before", type=Path, help="another checkout, timed in the same rounds")
    args = parser.parse_args()
    sources = {"now": ROOT, **({"before": args.before.resolve()} if args.before else {})}
    for source in sources.values():
        subprocess.run([sys.executable, "-m", "pbem", "warm"], env={**ENVIRONMENT, "PYTHONPATH": str(source)},
                       cwd=source, check=True, capture_output=True)
    times: dict[str, list[float]] = {}
    for _ in range(args.repeat):
        times.setdefault("import sqlmodel", []).append(cpu([sys.executable, "-c", "import sqlmodel"], ROOT))
        for match in MATCHES:
            for label, source in sources.items():
                times.setdefault(f"dm new {match} ({label})", []).append(dm_new(match, source))
    base = statistics.median(times["import sqlmodel"])
    print(json.dumps({"machine": platform.node(), "python": platform.python_version(), "load": os.getloadavg(),
                      "repeat": args.repeat, "commands": {name: {"cpu_ms": round(statistics.median(t) * 1000),
                                                                 "ratio": round(statistics.median(t) / base, 2)}
                                                          for name, t in times.items()}}, indent=2))


if __name__ == "__main__":
    main()
