"""Ice maze solver benchmark: random and adversarial 20x20 mazes with up to 8 snoms.

Target (issue 5): every 20x20 maze with up to 8 snoms solved, or proven to
have no solution within 15 orders, in at most 2 s. Each maze is solved three
times and the median time kept (the machine is shared). Prints one JSON document.

`first_use`: the CPU of a fresh interpreter's first solve after an install (`warm_up()`, imports included) and of
a whole `pbem ice solve` of one maze, each beside `python -c "import sqlmodel"` in the same rounds (issue #36's
target: at most 5x). The solver is a C extension compiled by `pip install`: nothing is compiled on first use.
`--before CHECKOUT` times another checkout in the same rounds (its C solver built too). Each child gets an empty
NUMBA_CACHE_DIR, which matters only for a `--before` checkout from before #36 whose solver was still Numba's: it then
compiles as after an install; for a checkout with the C solver the variable is ignored.
"""
from __future__ import annotations

import argparse
import json
import os
import platform
import statistics
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from child_cpu import cpu  # benchmarks/, beside this script

from pbem.dm.icemaze import Maze, solve
from pbem.dm.icemaze.generate import generate, mutate, random_maze
from pbem.dm.icemaze.solver import warm_up
from pbem.engine.rng import derive_rng

REPEATS = 3
# a single snom needing 18 orders; walled copies of it make compartments whose snoms never reach a goal in time
EIGHTEEN = ["###..##", "......#", "..#...G", "#...#.#", "S####..", "..##...", "#....##"]
FIRST_SOLVE = "from pbem.dm.icemaze.solver import warm_up; warm_up()"
MAZE_FILE = "map: [S...., ....., ..#.., ....., ....G]\n"


def first_use(sources: dict[str, Path], repeat: int) -> dict:
    """Median CPU seconds of each first use in a fresh interpreter, and its ratio to `import sqlmodel`, alternating
    so that every command sees the same load; each with an empty numba cache (for a Numba-era `--before` only)."""
    times: dict[str, list[float]] = {}
    with tempfile.TemporaryDirectory() as folder:
        (Path(folder) / "m.yaml").write_text(MAZE_FILE)
        cpu([sys.executable, "-c", "import sqlmodel"], ROOT)  # warm-up: bytecode written
        for _ in range(repeat):
            times.setdefault("import sqlmodel", []).append(cpu([sys.executable, "-c", "import sqlmodel"], ROOT))
            for label, source in sources.items():
                for name, command, cwd in (("first solve", ["-c", FIRST_SOLVE], None),
                                           ("pbem ice solve", ["-m", "pbem", "ice", "solve", "m.yaml"], folder)):
                    with tempfile.TemporaryDirectory() as cache:
                        seconds = cpu([sys.executable, *command], source, Path(cwd) if cwd else None,
                                      {"NUMBA_CACHE_DIR": cache})
                    times.setdefault(f"{name} ({label})", []).append(seconds)
    base = statistics.median(times["import sqlmodel"])
    return {name: {"cpu_s": round(statistics.median(t), 3), "ratio": round(statistics.median(t) / base, 2)}
            for name, t in times.items()}


def timed(maze: Maze) -> dict:
    times, solution = [], None
    for _ in range(REPEATS):
        began = time.perf_counter()
        solution = solve(maze)
        times.append(time.perf_counter() - began)
    return {"seconds": statistics.median(times), "moves": solution.moves, "positions": solution.positions}


def summary(name: str, runs: list[dict]) -> dict:
    seconds = [r["seconds"] for r in runs]
    return {
        "set": name,
        "mazes": len(runs),
        "solved": sum(r["moves"] is not None for r in runs),
        "none_within_15": sum(r["moves"] is None for r in runs),
        "median_seconds": round(statistics.median(seconds), 4),
        "max_seconds": round(max(seconds), 4),
        "max_positions": max(r["positions"] for r in runs),
        "max_moves": max((r["moves"] for r in runs if r["moves"] is not None), default=None),
    }


def random_sets(count: int = 30) -> list[dict]:
    sets = []
    for snoms in (1, 2, 4, 6, 8):
        runs = []
        for i in range(count):
            rng = derive_rng(2026, snoms, i, "bench-ice-random")
            runs.append(timed(random_maze(rng, 20, 20, snoms)))
        sets.append(summary(f"random 20x20, {snoms} snoms, {snoms} goals", runs))
    runs = [timed(random_maze(derive_rng(2026, 8, i, "bench-ice-goals"), 20, 20, 8, 16)) for i in range(count)]
    sets.append(summary("random 20x20, 8 snoms, 16 goals", runs))
    return sets


def generated_set() -> dict:
    runs = [timed(generate(20, 20, 15, 8, seed)[0]) for seed in range(5)]
    return summary("generated 20x20, 8 snoms, minimum 15", runs)


def compartments_set() -> dict:
    """Up to four walled 7x7 rooms, each a copy (turned or mirrored) of an 18-order maze."""
    turn = lambda rows: ["".join(r[i] for r in reversed(rows)) for i in range(len(rows[0]))]
    variants = [EIGHTEEN, turn(EIGHTEEN), [r[::-1] for r in EIGHTEEN], turn(turn(EIGHTEEN))]
    runs = []
    for count in range(1, 5):
        grid = [["#"] * 20 for _ in range(20)]
        for index, part in enumerate(variants[:count]):
            top, left = divmod(index, 2)
            for r, row in enumerate(part):
                grid[top * 9 + 1 + r][left * 9 + 1 : left * 9 + 8] = row
        runs.append(timed(Maze.from_rows(["".join(row) for row in grid])))
    return summary("adversarial: walled 18-order rooms", runs)


def hill_climbed_set(starts: int = 3, steps: int = 150) -> dict:
    """Mazes changed one square at a time to maximise the positions the search must store."""
    runs = []
    for start in range(starts):
        rng = derive_rng(2026, 0, start, "bench-ice-adversary")
        maze = random_maze(rng, 20, 20, 8)
        worst = solve(maze)
        for _ in range(steps):
            candidate = mutate(rng, maze)
            solution = solve(candidate)
            if solution.positions >= worst.positions:
                maze, worst = candidate, solution
        runs.append(timed(maze))
    return summary(f"adversarial: hill-climbed for work, 8 snoms ({starts} x {steps} steps)", runs)


def many_snoms_set() -> dict:
    runs = [timed(random_maze(derive_rng(2026, k, 0, "bench-ice-many"), 20, 20, k)) for k in (10, 12, 16, 20)]
    return summary("beyond the target: random 20x20, 10-20 snoms", runs)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--smoke", action="store_true", help="one random maze per set only: that the benchmark runs")
    parser.add_argument("--repeat", type=int, default=3, help="rounds of the first-use timings")
    parser.add_argument("--before", type=Path, help="another checkout whose first use is timed in the same rounds")
    args = parser.parse_args()
    load = os.getloadavg()[0]
    sources = {"now": ROOT, **({"before": args.before.resolve()} if args.before else {})}
    first = first_use(sources, 1 if args.smoke else args.repeat)
    began = time.perf_counter()
    warm_up()
    warm = time.perf_counter() - began
    cpu_began = time.process_time()
    if args.smoke:
        sets = random_sets(1)
    else:
        sets = random_sets() + [generated_set(), compartments_set(), hill_climbed_set(), many_snoms_set()]
    search_cpu = time.process_time() - cpu_began
    print(json.dumps({
        "benchmark": "ice",
        "python": platform.python_version(),
        "load_average": round(load, 1),
        "first_use": first,
        "load_seconds": round(warm, 3),
        "search_cpu_seconds": round(search_cpu, 2),
        "repeats_median_of": REPEATS,
        "target_max_seconds": 2.0,
        "all_within_target": all(s["max_seconds"] <= 2.0 for s in sets[:-1]),
        "sets": sets,
    }, indent=2))


if __name__ == "__main__":
    main()
