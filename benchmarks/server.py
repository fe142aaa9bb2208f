"""A GM's server (issue #36): `--games` games — campaigns and death matches mixed (server_games.MIX) — all due at
one tick on PostgreSQL, processed by `pbem run --jobs N` for each N of `--workers` (and, with `--hosts`, by two
`pbem run` processes started together, as two hosts would); the wall time of the tick and its CPU per game (the
runs and their workers, the PostgreSQL server's own CPU left out), as one JSON document.

    python3 benchmarks/server.py [--games 100] [--workers 1,2,4] [--hosts]

The games are made once (server_games: one of each kind through the CLI, then copied with SQL) in one database;
each tick runs on a fresh copy of it (CREATE DATABASE … TEMPLATE), three days later when every deadline has passed.
Each row checks what the tick did and says so in `checked`: every campaign processed once and every match's
deadlines taken once, over all the workers, and the outbox holding each game's messages once (as many for every
game of a kind, no Message-ID twice, the same number in every row).
"""
from __future__ import annotations

import argparse
import json
import os
import re
import resource
import subprocess
import sys
import tempfile
import time
from collections import Counter
from pathlib import Path

from child_cpu import ENVIRONMENT, machine  # benchmarks/, beside this script
from server_games import DUE, KINDS, ROOT, copy_games, libpq, mixed, templates

SUBJECT = re.compile(r"^(?:\[pbem\] )?([^:\s]+):")  # the game a message is about, from its subject


def tick(url: str, runs: list[int], folder: Path) -> tuple[dict[str, float], list[dict]]:
    """One due tick by `pbem run` processes started together, one per entry of `runs` with that many workers: its
    wall time and CPU (the runs and every worker they waited for), and what each run did (its --json)."""
    before, started = resource.getrusage(resource.RUSAGE_CHILDREN), time.perf_counter()
    processes = [subprocess.Popen([sys.executable, "-m", "pbem", "--db", url, "--now", DUE, "run", "--json", "--jobs",
                                   str(jobs), "--out", str(folder / "out")], cwd=folder,
                                  env={**ENVIRONMENT, "PYTHONPATH": str(ROOT)}, stdout=subprocess.PIPE,
                                  stderr=subprocess.PIPE, text=True) for jobs in runs]
    outputs = [process.communicate() for process in processes]
    wall, after = time.perf_counter() - started, resource.getrusage(resource.RUSAGE_CHILDREN)
    for process, (_, err) in zip(processes, outputs):
        if process.returncode not in (0, 1):  # 1: something needs the GM (a match ended, say): still a tick
            raise SystemExit(f"pbem run failed: {err}")
    return ({"wall_s": wall, "cpu_s": (after.ru_utime + after.ru_stime) - (before.ru_utime + before.ru_stime)},
            [json.loads(out) for out, _ in outputs])


def checked(url: str, names: list[str], done: list[dict]) -> dict[str, object]:
    """What one tick did, checked (SystemExit when wrong): each campaign processed once and each match's deadlines
    taken once over every run, and the outbox's messages by game."""
    steps = [d for run in done for d in run["done"]]
    processed = Counter(d["game"] for d in steps if d["what"] == "processed")
    deadlines = Counter(d["game"] for d in steps if d["what"] == "deadline")
    campaigns = [n for n in names if not n.startswith(KINDS["match"])]
    matches = [n for n in names if n.startswith(KINDS["match"])]
    if processed != Counter(campaigns) or deadlines != Counter(matches):
        raise SystemExit(f"not each game once: processed {processed}, deadlines {deadlines}")
    import psycopg

    with psycopg.connect(libpq(url)) as conn:
        rows = conn.execute("SELECT message_id, subject FROM mail_outbox").fetchall()
    if len({message_id for message_id, _ in rows}) != len(rows):
        raise SystemExit("a Message-ID queued twice")
    by_game = Counter(match.group(1) for _, subject in rows if (match := SUBJECT.match(subject)))
    per_kind = {kind: sorted({by_game[n] for n in names if n.rsplit("-", 1)[0] == name})
                for kind, name in KINDS.items()}
    if any(len(counts) != 1 or counts[0] == 0 for counts in per_kind.values() if counts):
        raise SystemExit(f"messages per game differ within a kind: {per_kind}")
    return {"campaigns_processed_once": len(campaigns), "matches_deadlines_once": len(matches),
            "messages_queued": len(rows), "messages_per_game": {k: c[0] for k, c in per_kind.items() if c},
            "runs_that_processed_games": sum(any(d["what"] in ("processed", "deadline") for d in run["done"])
                                             for run in done)}


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=int, default=100)
    parser.add_argument("--workers", default="1,2,4", help="the worker counts to time, comma-separated")
    parser.add_argument("--hosts", action="store_true", help="also two `pbem run` processes of one worker each")
    args = parser.parse_args()
    sys.path.insert(0, str(ROOT / "tests"))
    from postgres_server import start_server

    server = start_server()
    load_before = os.getloadavg()
    rows: dict[str, dict[str, object]] = {}
    try:
        with tempfile.TemporaryDirectory() as name:
            folder = Path(name)
            dealt = server.new_database()
            templates(folder, dealt)
            names = copy_games(dealt, mixed(args.games))
            ticks = {f"jobs {n}": [int(n)] for n in args.workers.split(",")} | ({"two runs": [1, 1]} if args.hosts
                                                                                 else {})
            for row, runs in ticks.items():
                url = server.new_database(copy_of=dealt)
                (folder / "out").mkdir(exist_ok=True)
                measured, done = tick(url, runs, folder)
                rows[row] = {"wall_s_per_tick": round(measured["wall_s"], 1),
                             "cpu_ms_per_game": round(measured["cpu_s"] * 1000 / args.games, 1),
                             "checked": checked(url, names, done), "load_after": round(os.getloadavg()[0], 2)}
                print(json.dumps({row: rows[row]}), file=sys.stderr, flush=True)  # a long run's progress
    finally:
        server.stop()
    queued = {row["checked"]["messages_queued"] for row in rows.values()}  # type: ignore[index]
    if len(queued) > 1:
        raise SystemExit(f"the rows queued different numbers of messages: {queued}")
    print(json.dumps({
        "benchmark": "server: every game due at one tick on PostgreSQL, pbem run --jobs N",
        "games": args.games, "mix": mixed(args.games), "rows": rows,
        "load_before": [round(x, 2) for x in load_before], "load_after": [round(x, 2) for x in os.getloadavg()],
        **machine()}, indent=2))


if __name__ == "__main__":
    main()
