"""Gyulbot solver benchmark: prints ONE JSON document.

    python3 benchmarks/gyulbot.py [--data FILE] [--deep FILE] [--bfs N] [--repeat K]
    python3 benchmarks/gyulbot.py --generate LENGTH:COUNT,…   (appends to --deep)
    python3 benchmarks/gyulbot.py --peer /tmp/Ricochet [--sets FILE …] [--repeat K]

- `first_use`: the first solve after an install (the search is compiled by `pip install`), each in a fresh
  interpreter beside `python -c "import sqlmodel"`: whole-process CPU medians and their ratio.
- `shared`: every puzzle of the shared data file (proven optima 1–13): must match;
  seconds per optimal length (median, max).
- `deep`: deeper puzzles made by our generator (random 16x16 boards, 4 single robots,
  coloured goal on a wall corner; `benchmarks/data/gyulbot-deep.jsonl`, or with
  `--deep benchmarks/data/gyulbot-deep-anygoal.jsonl` goals on any square): seconds per minimum length (median and max of the per-puzzle
  medians over --repeat runs), CPU seconds and positions expanded.
- `fixed_cost`: microseconds per solve where the search is trivial (the 1-move puzzles of --data):
  a fresh puzzle's first solve, which makes its flat form, a repeated solve, and the flattening alone.
- `bfs`: the solver against the plain BFS on N random small puzzles up to 8 moves.
- `peer` (with --peer CLONE, instead of the sections above): side by side with fogleman's C
  solver built from the clone's ricochet.c as its own -O3 executable (`ricochet_peer.py`), in one run
  every puzzle of the shared file and of --sets (default benchmarks/data/gyulbot-deep*.jsonl: all 984),
  each solved --repeat times by both, alternately search by search (C: its program running beside this
  one, each search timed by its process CPU clock; pbem: this thread's CPU clock); per optimal length
  and per file the medians and maxima of the per-puzzle medians and their ratios (pbem / C), overall
  the ratio of the summed times and the geometric mean of the per-puzzle ratios; `targets` (issue
  #36: every optimum's ratio of medians <= 1.5, overall ratio of sums <= 0.6); the load average every
  100 puzzles and at each file's end; `disagree` lists every puzzle where the two optima (or the recorded one) differ.
  Progress (each file's end, seconds so far) goes to stderr.
Other processes share this 2-core machine: `load` gives the load average before/after.
"""
from __future__ import annotations

import argparse
import hashlib
import json
import os
import random
import statistics
import sys
import time
from functools import partial
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))
sys.path.insert(0, str(ROOT / "benchmarks"))

import first_use  # benchmarks/, beside this script

from pbem.dm.gyulbot import solver
from pbem.dm.gyulbot.bfs import bfs_solve
from pbem.dm.gyulbot.board import solved_after
from pbem.dm.gyulbot.flat import flatten
from pbem.dm.gyulbot.generator import generate
from pbem.engine.rng import derive_rng
from pbem.formats.gyulbot import parse_puzzle, puzzle_data

SHARED = Path("/work/shared/data/gyulbot-puzzles.jsonl")
DEEP = ROOT / "benchmarks" / "data" / "gyulbot-deep.jsonl"
FIRST_SOLVE = ("from pbem.dm.gyulbot.solver import solve; from pbem.formats.gyulbot import parse_puzzle;"
               "import time; p = parse_puzzle({'size': 4, 'robots': {'red': ['r4c1']}, 'goal': 'r1c4'});"
               "t, c = time.perf_counter(), time.process_time(); solve(p);"
               "print(time.perf_counter() - t, time.process_time() - c)")


def timed(puzzle, max_moves=solver.MAX_MOVES):
    """The moves, the wall seconds and this thread's CPU seconds (what other jobs on the machine sway least)."""
    wall, cpu = time.perf_counter(), time.thread_time()
    moves = solver.solve(puzzle, max_moves)
    return moves, time.perf_counter() - wall, time.thread_time() - cpu


def summary(values: list[float]) -> dict:
    return {"n": len(values), "median_s": round(statistics.median(values), 4), "max_s": round(max(values), 4)}


def shared(path: Path) -> dict:
    by_length: dict[int, list[float]] = {}
    wrong = []
    for i, line in enumerate(path.read_text().splitlines()):
        record = json.loads(line)
        puzzle = parse_puzzle(record["puzzle"], f"{path}:{i + 1}")
        moves, wall, _ = timed(puzzle)
        if moves is None or len(moves) != record["optimal"] or solved_after(puzzle, moves) != len(moves):
            wrong.append(i + 1)
        by_length.setdefault(record["optimal"], []).append(wall)
    every = [s for times in by_length.values() for s in times]
    return {"puzzles": len(every), "wrong": wrong, "total_s": round(sum(every), 2),
            "by_length": {str(k): summary(v) for k, v in sorted(by_length.items())}}


def deep(path: Path, repeat: int) -> dict:
    by_length: dict[int, list[dict]] = {}
    for line in path.read_text().splitlines():
        record = json.loads(line)
        puzzle = parse_puzzle(record["puzzle"], str(path))
        runs = [timed(puzzle) for _ in range(repeat)]
        moves = runs[0][0]
        assert moves is not None and len(moves) == record["optimal"] and solved_after(puzzle, moves) == len(moves)
        by_length.setdefault(record["optimal"], []).append({
            "wall_s": statistics.median(r[1] for r in runs), "cpu_s": statistics.median(r[2] for r in runs),
            "nodes": solver.STATS["nodes"]})
    result = {}
    for length, rows in sorted(by_length.items()):
        walls = [r["wall_s"] for r in rows]
        cpus = [r["cpu_s"] for r in rows]
        result[str(length)] = {**summary(walls), "cpu_median_s": round(statistics.median(cpus), 4),
                               "cpu_max_s": round(max(cpus), 4),
                               "nodes_median": int(statistics.median(r["nodes"] for r in rows))}
    return result


def bfs_agreement(count: int) -> dict:
    sys.path.insert(0, str(ROOT / "tests"))
    from test_gyulbot_solver import random_small_puzzle

    rng = random.Random(31337)
    disagree = 0
    for _ in range(count):
        puzzle = random_small_puzzle(rng)
        expected, found = bfs_solve(puzzle, 8), solver.solve(puzzle, 8)
        if (expected is None) != (found is None) or (found is not None and len(found) != len(expected)):
            disagree += 1
    return {"puzzles": count, "disagree": disagree}


def side_by_side(clone: Path, paths: list[Path], repeat: int) -> dict:
    """Every convertible puzzle of `paths` solved `repeat` times by each, alternately search by search, the one that
    goes first swapping each round: the C program (its own process, running beside this one: each search timed by
    its process CPU clock) and pbem (this thread's). Per optimum and per file the medians and ratios; the targets of
    issue #36 (every optimum's ratio of medians within 1.5, the ratio of the sums over all puzzles within 0.6)."""
    import ricochet_peer

    program, built = ricochet_peer.build(clone)
    built["ricochet_c_sha256"] = hashlib.sha256((clone / "ricochet.c").read_bytes()).hexdigest()  # names the source without .git
    peer = ricochet_peer.Peer(program)
    rows: dict[int, list[tuple[float, float]]] = {}
    by_set: dict[str, list[tuple[float, float]]] = {}
    disagree, skipped, loads, began = [], 0, [], time.perf_counter()
    load_at_end: dict[str, float] = {}
    for path in paths:
        for i, line in enumerate(path.read_text().splitlines()):
            record = json.loads(line)
            puzzle = parse_puzzle(record["puzzle"], f"{path}:{i + 1}")
            if not ricochet_peer.convertible(puzzle):
                skipped += 1
                continue
            game = ricochet_peer.to_game(puzzle)  # before the timings, as pbem's own conversion:
            _ = puzzle.flat  # the puzzle's flat form (made once per puzzle)
            ours, theirs = [], []
            for round_ in range(repeat):
                if round_ % 2:
                    peer_moves, peer_s = peer.solve(game)
                moves, _, cpu = timed(puzzle)
                if not round_ % 2:
                    peer_moves, peer_s = peer.solve(game)
                ours.append(cpu)
                theirs.append(peer_s)
            lengths = {len(moves), len(peer_moves), record["optimal"]}
            if len(lengths) > 1 or solved_after(puzzle, moves) != len(moves) \
                    or solved_after(puzzle, peer_moves) != len(peer_moves):
                disagree.append({"puzzle": f"{path.name}:{i + 1}", "recorded": record["optimal"],
                                 "pbem": len(moves), "c": len(peer_moves)})
            row = (statistics.median(ours), statistics.median(theirs))
            rows.setdefault(record["optimal"], []).append(row)
            by_set.setdefault(path.name, []).append(row)
            if sum(map(len, rows.values())) % 100 == 0:
                loads.append(round(os.getloadavg()[0], 2))
        done, load_at_end[path.name] = by_set.get(path.name, []), round(os.getloadavg()[0], 2)
        print(f"{path.name}: {len(done)} puzzles, pbem {sum(r[0] for r in done):.2f} s, C {sum(r[1] for r in done):.2f} s"
              f" ({time.perf_counter() - began:.0f} s so far, load {load_at_end[path.name]})", file=sys.stderr, flush=True)
    peer.close()
    every = [row for v in rows.values() for row in v]
    by_length = {str(k): _pair(v) for k, v in sorted(rows.items())}
    worst = max(by_length.values(), key=lambda bucket: bucket["ratio_median"])
    overall = _pair(every)
    return {"c_solver": built, "repeat": repeat, "sets": [str(p) for p in paths], "puzzles": len(every),
            "skipped": skipped, "disagree": disagree, "by_length": by_length,
            "by_set": {name: {**_pair(v), "load_at_end": load_at_end[name]} for name, v in by_set.items()},
            "overall": overall,
            "targets": {"worst_bucket": [k for k, v in by_length.items() if v is worst][0],
                        "worst_bucket_ratio_median": worst["ratio_median"],
                        "every_bucket_within_1_5": worst["ratio_median"] <= 1.5,
                        "overall_ratio_total": overall["ratio_total"],
                        "overall_within_0_6": overall["ratio_total"] <= 0.6},
            "load_every_100_puzzles": loads, "elapsed_s": round(time.perf_counter() - began, 1)}


def _pair(rows: list[tuple[float, float]]) -> dict:
    """Both solvers' medians and maxima (seconds), the ratios pbem / C, and the summed times."""
    ours, theirs = [r[0] for r in rows], [r[1] for r in rows]
    return {"n": len(rows), "pbem_median_s": round(statistics.median(ours), 6), "pbem_max_s": round(max(ours), 6),
            "c_median_s": round(statistics.median(theirs), 6), "c_max_s": round(max(theirs), 6),
            "ratio_median": round(statistics.median(ours) / statistics.median(theirs), 2),
            "ratio_max": round(max(ours) / max(theirs), 2),
            "pbem_total_s": round(sum(ours), 3), "c_total_s": round(sum(theirs), 3),
            "ratio_total": round(sum(ours) / sum(theirs), 2),
            "ratio_geomean": round(statistics.geometric_mean([a / b for a, b in rows]), 2)}


def fixed_cost(path: Path, repeat: int = 21) -> dict:
    """Microseconds per solve of the 1-move puzzles of `path`, where the search is trivial: a
    fresh puzzle's first solve (its flat form made, `flat.py`), a repeated one, and the flattening
    alone; each the median over the puzzles of the best of `repeat` runs."""
    records = [record["puzzle"] for record in map(json.loads, path.read_text().splitlines()) if record["optimal"] == 1]
    if not records:
        return {"puzzles": 0}

    def best(run) -> float:
        return min(run() for _ in range(repeat)) * 1e6

    def first(data) -> float:
        puzzle = parse_puzzle(data)
        started = time.thread_time()
        solver.solve(puzzle)
        return time.thread_time() - started

    def clocked(work, puzzle) -> float:
        started = time.thread_time()
        work(puzzle)
        return time.thread_time() - started

    puzzles = [parse_puzzle(data) for data in records]
    return {"puzzles": len(records),
            "first_solve_us": round(statistics.median(best(partial(first, data)) for data in records), 1),
            "solve_us": round(statistics.median(best(partial(clocked, solver.solve, p)) for p in puzzles), 1),
            "flatten_us": round(statistics.median(best(partial(clocked, flatten, p)) for p in puzzles), 1)}


def generate_deep(spec: str, path: Path) -> None:
    """Append puzzles of the requested minimum lengths (LENGTH:COUNT,…) to `path`."""
    for item in spec.split(","):
        length, count = (int(x) for x in item.split(":"))
        for k in range(count):
            started = time.perf_counter()
            puzzle = generate(length, derive_rng(k, length, 0, "gyulbot benchmark"))
            with path.open("a") as out:
                out.write(json.dumps({"optimal": length, "puzzle": puzzle_data(puzzle)}) + "\n")
            print(f"{length} #{k}: {time.perf_counter() - started:.0f} s", file=sys.stderr, flush=True)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--data", type=Path, default=SHARED)
    parser.add_argument("--deep", type=Path, default=DEEP)
    parser.add_argument("--bfs", type=int, default=1000)
    parser.add_argument("--repeat", type=int, default=3)
    parser.add_argument("--no-compile", action="store_true", help="skip timing the first use")
    parser.add_argument("--generate", help="LENGTH:COUNT,… puzzles to append to --deep, then stop")
    parser.add_argument("--peer", type=Path, help="a clone of github.com/fogleman/Ricochet: compare side by side")
    parser.add_argument("--sets", type=Path, nargs="*", help="puzzle files for --peer besides --data "
                        "(default benchmarks/data/gyulbot-deep*.jsonl)")
    args = parser.parse_args()
    if args.generate:
        generate_deep(args.generate, args.deep)
        return
    load_before = os.getloadavg()[0]
    document: dict = {"machine": _machine(),
                      "first_use": None if args.no_compile else first_use.beside_sqlmodel(FIRST_SOLVE)}
    solver.warm_up()
    document["fixed_cost"] = fixed_cost(args.data)
    if args.peer:
        sets = args.sets if args.sets is not None else sorted((ROOT / "benchmarks" / "data").glob("gyulbot-deep*.jsonl"))
        document["peer"] = side_by_side(args.peer, [args.data] + sets, args.repeat)
    elif args.data.exists():
        document["shared"] = shared(args.data)
    if args.deep.exists() and not args.peer:
        document["deep"] = deep(args.deep, args.repeat)
    if args.bfs and not args.peer:
        document["bfs"] = bfs_agreement(args.bfs)
    document["load"] = {"before": round(load_before, 2), "after": round(os.getloadavg()[0], 2)}
    print(json.dumps(document, indent=2, sort_keys=True))


def _machine() -> str:
    for line in Path("/proc/cpuinfo").read_text().splitlines():
        if line.startswith("model name"):
            return f"{line.split(':', 1)[1].strip()}, {os.cpu_count()} cores"
    return f"{os.cpu_count()} cores"


if __name__ == "__main__":
    main()
