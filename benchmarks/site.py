"""Benchmark: `pbem site` of a long campaign, full and after one more turn (issue #15: adding one turn to a
1,000-turn campaign <= 1 s; a full rebuild took 76 s).

Builds the campaign once in a temporary SQLite database (the bundled Geek-o game, random legal programs every turn,
as benchmarks/replay.py does), then times whole `pbem site` processes into one folder: the first (everything
written), one more with nothing new, and one after another turn was played (that turn and the one before it
rewritten, plus the indexes). The `pbem` processes run a copy of this checkout made at the start, so editing it
meanwhile changes nothing (the site's version hashes pbem's code and templates). Prints one JSON document.

    python3 benchmarks/site.py [--turns 1000]
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


def site(folder: Path) -> float:
    """Seconds for one whole `pbem site` process."""
    started = time.perf_counter()
    subprocess.run([sys.executable, "-m", "pbem", "--db", f"sqlite:///{folder}/bench.db", "site", "bench", "--out",
                    str(folder / "site")], cwd=folder, env=ENVIRONMENT, check=True, capture_output=True)
    return round(time.perf_counter() - started, 3)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--turns", type=int, default=1000)
    turns = parser.parse_args().turns
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
        nothing_new = site(folder)
        store = Store(f"sqlite:///{folder}/bench.db")
        build(store, 1, fresh=False)
        store.close()
        one_more = site(folder)
        files = sum(1 for p in (folder / "site").rglob("*") if p.is_file())
    print(json.dumps({"machine": {"cores": os.cpu_count(), "python": platform.python_version(),
                                  "load_average": [round(x, 2) for x in os.getloadavg()]},
                      "turns": turns, "build_s": round(built, 1), "site_files": files,
                      "full_site_s": full, "nothing_new_s": nothing_new, "one_more_turn_s": one_more,
                      "target_s": 1.0}, indent=2))


if __name__ == "__main__":
    main()
