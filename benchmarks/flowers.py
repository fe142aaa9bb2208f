"""Benchmark: every duplicate pair of a full 7x7 Flower Field board (issue target: <= 10 ms).

Prints one JSON document: median and worst milliseconds over many full boards
with three kinds drawn at random (seeded), and over the one-kind board that
has the most pairs, for `named_pairs` (the DESIGN.md output, names sorted).
"""
from __future__ import annotations

import argparse
import json
import platform
import random
import statistics
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))  # run from a checkout without installing

from pbem.dm.flowerfield.fields import geometry, named_pairs

BOARDS = 200
REPEATS = 5


def timed(board: str) -> tuple[float, int]:
    best = float("inf")
    for _ in range(REPEATS):
        start = time.perf_counter()
        pairs = named_pairs(board)
        best = min(best, time.perf_counter() - start)
    return best * 1000, len(pairs)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--boards", type=int, default=BOARDS, help="random boards timed")
    boards = parser.parse_args().boards
    start = time.perf_counter()
    geometry(7, 7)
    setup_ms = (time.perf_counter() - start) * 1000
    rng = random.Random(2026)
    random_ms, counts = [], []
    for _ in range(boards):
        ms, count = timed("".join(rng.choice("RBP") for _ in range(49)))
        random_ms.append(ms)
        counts.append(count)
    uniform_ms, uniform_pairs = timed("R" * 49)
    print(json.dumps({
        "benchmark": "flowers duplicates, full 7x7 board",
        "python": platform.python_version(),
        "setup_ms_once": round(setup_ms, 2),
        "random_three_kinds": {
            "boards": boards,
            "median_ms": round(statistics.median(random_ms), 3),
            "max_ms": round(max(random_ms), 3),
            "median_pairs": statistics.median(counts),
        },
        "one_kind_worst_case": {"ms": round(uniform_ms, 3), "pairs": uniform_pairs},
        "target_ms": 10,
    }, indent=2))


if __name__ == "__main__":
    main()
