"""Cron-tick benchmark: the CPU a `pbem run` and a `pbem status` with nothing due cost, beside `import sqlmodel`.

    python3 benchmarks/tick.py [--games 3] [--matches 0] [--postgresql] [--repeat 7] [--before CHECKOUT]

Makes a database with `--games` scheduled Geek-o games (the bundled sample), each with its first turn processed
(nobody's orders in) and the second dealt with its clock started, then, at a time when nothing is due, runs each command in its own interpreter in turn, `--repeat` rounds
(alternating, so every command sees the same load), and prints one JSON document with each command's median CPU
time (user + system of the child process, which other jobs on the machine sway far less than wall time) and its
ratio to `python -c "import sqlmodel"` in the same rounds. Also timed: `pbem game list` (its lines read with plain
SQL), `pbem game list` of games with no turn processed yet, `pbem turn status` (the store and the engine: who is expected), and the tick's rows read with the standard library's sqlite3 in a bare interpreter (the floor). `--before`
times `run`, `status` and `game list` of another checkout (e.g. `git archive main`) in the same rounds.
`--matches N` adds N death matches, both players of each by mail (issue #33): Take-Back-Toe with the GM's dice,
waiting for the GM's roll, and Ice matches that start the next day (their opening mails owed then). `--postgresql`
times the same commands, in the same rounds, against the same games in a throwaway PostgreSQL server
(tests/postgres_server.py), keyed `pg_run`, `pg_status`, `pg_game_list`.
"""
from __future__ import annotations

import argparse
import json
import os
import statistics
import subprocess
import sys
import tempfile
from pathlib import Path

from child_cpu import ENVIRONMENT, cpu, timings  # benchmarks/, beside this script

ROOT = Path(__file__).resolve().parent.parent
T0 = "2026-12-01T20:00Z"
QUIET = "2026-12-01T21:00Z"  # an hour later: nothing due (2-day deadlines, reminders 24 h before)
SQLITE_READ = """import sqlite3, sys
db = sqlite3.connect(sys.argv[1])
games = db.execute("SELECT g.id, g.name, s.schedule FROM games g JOIN game_schedules s ON s.game_id = g.id").fetchall()
for game_id, name, schedule in games:
    db.execute("SELECT number, over FROM turns WHERE game_id = ? ORDER BY number DESC LIMIT 1", (game_id,)).fetchone()
    db.execute("SELECT holder, cards FROM dealt_hands WHERE game_id = ?", (game_id,)).fetchall()
    db.execute("SELECT due_at, reminded FROM turn_deadlines WHERE game_id = ?", (game_id,)).fetchall()
print(len(games))
"""



def setup(folder: Path, games: int, matches: int = 0, url: str | None = None, *, database: str = "tick.db",
          played: bool = True) -> str:
    """`games` scheduled Geek-o games and `matches` death matches in `url` (or the SQLite file `database`):
    dealt, turn 1 processed and turn 2 dealt (`played`), else only imported (no turn yet: issue #36's `game list`
    before any turn)."""
    url = url or f"sqlite:///{folder / database}"
    pbem = [sys.executable, "-m", "pbem", "--db", url]
    description = (ROOT / "turns" / "geeko" / "game.yaml").read_text()
    for n in range(games):
        (folder / f"g{n}").mkdir(exist_ok=True)
        (folder / f"g{n}" / "game.yaml").write_text(description.replace("name: geeko-demo", f"name: g{n}")
                                                    .replace("rooms: [rooms/geeko]", f"rooms: [{ROOT}/rooms/geeko]")
                                                    .replace("deck: decks/geeko.yaml", f"deck: {ROOT}/decks/geeko.yaml"))
        for args in (["game", "import", str(folder / f"g{n}")],
                     ["--now", T0, "game", "set", f"g{n}", "--deadline", "2d", "--remind", "24"]):
            subprocess.run(pbem + args, cwd=folder, env={**ENVIRONMENT, "PYTHONPATH": str(ROOT)}, check=True,
                           capture_output=True)
    environment = {**ENVIRONMENT, "PYTHONPATH": str(ROOT)}
    if not played:
        return url
    subprocess.run(pbem + ["--now", T0, "run"], cwd=folder, env=environment, check=True,
                   capture_output=True)  # deals every game and starts its clock
    for n in range(games):  # turn 1 processed with nobody's orders (B4.6): a stored turn for `game list` to read
        subprocess.run(pbem + ["--now", T0, "turn", "process", f"g{n}"], cwd=folder, env=environment, check=True,
                       capture_output=True)
    subprocess.run(pbem + ["--now", T0, "run"], cwd=folder, env=environment, check=True,
                   capture_output=True)  # deals turn 2 and starts its clock
    for n in range(matches):
        name, game = f"m{n}", ("takebacktoe", "ice")[n % 2]
        options = ["--option", "dice=gm"] if game == "takebacktoe" else [
            "--option", "start=2026-12-02T20:00:00Z", "--option", "size=6x6"]
        commands = [["dm", "new", name, "--game", game, "--player", "ann", "--player", "bob", *options,
                     "--out", str(folder)]]
        commands += [["mail", "dm-player", name, p, f"{p}@example.org"] for p in ("ann", "bob")]
        for args in commands:
            subprocess.run(pbem + ["--now", T0, *args], cwd=folder, env=environment, check=True, capture_output=True)
    return url


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=int, default=3)
    parser.add_argument("--repeat", type=int, default=7)
    parser.add_argument("--matches", type=int, default=0)
    parser.add_argument("--postgresql", action="store_true", help="also time the commands on PostgreSQL")
    parser.add_argument("--before", type=Path, help="another checkout to time beside this one")
    args = parser.parse_args()
    load_before = os.getloadavg()[0]
    server = None
    with tempfile.TemporaryDirectory() as name:
        folder = Path(name)
        url = setup(folder, args.games, args.matches)
        new = setup(folder, args.games, database="new.db", played=False)
        python = [sys.executable]
        pbem = python + ["-m", "pbem", "--db", url, "--now", QUIET]
        commands = {"import_sqlmodel": (python + ["-c", "import sqlmodel"], ROOT),
                    "run": (pbem + ["run"], ROOT), "status": (pbem + ["status"], ROOT),
                    "game_list": (pbem + ["game", "list"], ROOT),
                    "game_list_no_turn_yet": ([*python, "-m", "pbem", "--db", new, "game", "list"], ROOT), "turn_status": (pbem + ["turn", "status", "g0"], ROOT),
                    "sqlite3_rows": (python + ["-c", SQLITE_READ, str(folder / "tick.db")], ROOT)}
        if args.postgresql:
            sys.path.insert(0, str(ROOT / "tests"))
            from postgres_server import start_server

            server = start_server()
            (folder / "pg").mkdir()
            pg = python + ["-m", "pbem", "--db", setup(folder / "pg", args.games, args.matches, server.new_database()),
                           "--now", QUIET]
            commands |= {"pg_run": (pg + ["run"], ROOT), "pg_status": (pg + ["status"], ROOT),
                         "pg_game_list": (pg + ["game", "list"], ROOT)}
        if args.before:
            commands |= {"before_run": (pbem + ["run"], args.before), "before_status": (pbem + ["status"], args.before),
                         "before_game_list": (pbem + ["game", "list"], args.before),
                         "before_game_list_no_turn_yet": ([*python, "-m", "pbem", "--db", new, "game", "list"],
                                                          args.before)}
        for command, source in commands.values():  # warm-up: bytecode written
            cpu(command, source, folder)
        times: dict[str, list[float]] = {key: [] for key in commands}
        for _ in range(args.repeat):
            for key, (command, source) in commands.items():
                times[key].append(cpu(command, source, folder))
        if server is not None:
            server.stop()
    medians = {key: statistics.median(values) for key, values in times.items()}
    print(json.dumps({
        "benchmark": "cron tick with nothing due", "games": args.games, "matches": args.matches, "repeat": args.repeat,
        "ratio_to_import_sqlmodel": {key: round(value / medians["import_sqlmodel"], 2) for key, value in medians.items()},
        **timings(times, load_before)}, indent=2))


if __name__ == "__main__":
    main()
