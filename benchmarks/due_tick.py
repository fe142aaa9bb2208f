"""Due-tick benchmark (issue #36): the CPU a `pbem run` costs per game when every game's turn is due, beside
`import sqlmodel`, and (with `--profile`) how often the tick builds each turn's report, animation and mails.

    python3 benchmarks/due_tick.py [--games 8] [--repeat 3] [--profile] [--before CHECKOUT]

Makes a database of `--games` scheduled copies of the bundled BotWars sample (four players, the reports and mails
of a real tick), each dealt with its clock started; then, three days later (every deadline passed, nobody's orders
in: B4.6 plays for them), runs `pbem run` on a fresh copy of that database in its own interpreter, `--repeat` rounds
alternating with `python -c "import sqlmodel"` (and `--before`'s checkout), and prints one JSON document: each
command's median CPU (user + system of the child), the tick's CPU per game and its ratio to `import sqlmodel`, and
the CPU of each further game (the tick of every game less the tick of a database holding one, shared among the
others: the process's start-up left out) and the fixed part (the tick of one game less a further game's CPU:
what a tick pays before its games).
`--profile` runs one more tick under cProfile and reports the calls of the report builders and the functions with
the most cumulative time.
"""
from __future__ import annotations

import argparse
import contextlib
import cProfile
import io
import json
import os
import pstats
import shutil
import statistics
import subprocess
import sys
import tempfile
from pathlib import Path

from child_cpu import ENVIRONMENT, cpu, timings  # benchmarks/, beside this script

ROOT = Path(__file__).resolve().parent.parent
T0 = "2026-12-01T20:00Z"
DUE = "2026-12-04T20:00Z"  # three days later: every 2-day deadline has passed
BUILDERS = ("build_turn_report", "turn_gif", "player_message", "outcome_report", "position_png")



def setup(folder: Path, games: int) -> Path:
    """A SQLite database of `games` scheduled BotWars games, dealt, clocks started at T0."""
    database = folder / "dealt.db"
    dealt_games(folder, games, f"sqlite:///{database}")
    return database


def dealt_games(folder: Path, games: int, url: str) -> None:
    """`games` scheduled BotWars games made in the database at `url` (empty), dealt, clocks started at T0."""
    pbem = [sys.executable, "-m", "pbem", "--db", url]
    environment = {**ENVIRONMENT, "PYTHONPATH": str(ROOT)}
    description = (ROOT / "turns" / "botwars" / "game.yaml").read_text()
    for n in range(games):
        (folder / f"g{n}").mkdir()
        (folder / f"g{n}" / "game.yaml").write_text(
            description.replace("name: botwars-demo", f"name: g{n}")
            .replace("rooms: [rooms/", f"rooms: [{ROOT}/rooms/").replace("deck: decks/", f"deck: {ROOT}/decks/"))
        for args in (["game", "import", str(folder / f"g{n}")],
                     ["--now", T0, "game", "set", f"g{n}", "--deadline", "2d"]):
            subprocess.run(pbem + args, cwd=folder, env=environment, check=True, capture_output=True)
    subprocess.run(pbem + ["--now", T0, "run"], cwd=folder, env=environment, check=True, capture_output=True)


def due_run(folder: Path, database: Path, name: str) -> tuple[list[str], Path]:
    """A fresh copy of the dealt database and the `pbem run` command that processes every game in it."""
    copy = folder / f"{name}.db"
    shutil.copyfile(database, copy)
    shutil.rmtree(folder / f"out-{name}", ignore_errors=True)
    return [sys.executable, "-m", "pbem", "--db", f"sqlite:///{copy}", "--now", DUE, "run",
            "--out", str(folder / f"out-{name}")], copy


def profile(folder: Path, database: Path) -> dict[str, object]:
    """One due tick under cProfile, in this process: the builders' calls and the heaviest functions."""
    command, _ = due_run(folder, database, "profiled")
    sys.path.insert(0, str(ROOT))
    from pbem.cli import app
    from pbem.cli.lazy import click_command

    profiler = cProfile.Profile()
    cwd = Path.cwd()
    os.chdir(folder)
    with contextlib.redirect_stdout(io.StringIO()), contextlib.redirect_stderr(io.StringIO()):
        try:
            profiler.runcall(click_command(app).main, command[3:], standalone_mode=False)
        finally:
            os.chdir(cwd)
    stats = pstats.Stats(profiler)
    calls = {name: 0 for name in BUILDERS}
    rows = []
    for (file, _, function), (_, ncalls, _, cumulative, _) in stats.stats.items():  # type: ignore[attr-defined]
        if function in calls and "pbem" in file:
            calls[function] += ncalls
        if "pbem" in file:
            rows.append((cumulative, f"{Path(file).parent.name}/{Path(file).name}:{function}"))
    return {"calls": calls, "top_cumulative_s": {name: round(t, 3) for t, name in sorted(rows, reverse=True)[:25]}}


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=int, default=8)
    parser.add_argument("--repeat", type=int, default=3)
    parser.add_argument("--profile", action="store_true", help="one more tick under cProfile")
    parser.add_argument("--before", type=Path, help="another checkout to time beside this one")
    args = parser.parse_args()
    load_before = os.getloadavg()[0]
    with tempfile.TemporaryDirectory() as name:
        folder = Path(name)
        (folder / "one").mkdir()
        databases = {"one": setup(folder / "one", 1), "all": setup(folder, args.games)}
        sources = {"run": ROOT, **({"before_run": args.before} if args.before else {})}
        runs = [(f"{key}_{size}", source, databases[size]) for key, source in sources.items() for size in databases]
        times: dict[str, list[float]] = {"import_sqlmodel": [], **{key: [] for key, _, _ in runs}}
        cpu([sys.executable, "-c", "import sqlmodel"], ROOT, folder)  # warm-up: bytecode written
        for _ in range(args.repeat):
            times["import_sqlmodel"].append(cpu([sys.executable, "-c", "import sqlmodel"], ROOT, folder))
            for key, source, database in runs:
                command, _ = due_run(folder, database, key)
                times[key].append(cpu(command, source, folder))
        profiled = profile(folder, databases["all"]) if args.profile else None
    medians = {key: statistics.median(values) for key, values in times.items()}
    sqlmodel = medians["import_sqlmodel"]
    per_game = {key: medians[f"{key}_all"] / args.games for key in sources}
    # what one more game costs: the tick of every game less the tick of one, shared among the others
    marginal = {key: (medians[f"{key}_all"] - medians[f"{key}_one"]) / max(args.games - 1, 1) for key in sources}
    print(json.dumps({
        "benchmark": "due tick: every game's turn processed, reports written and mails queued",
        "games": args.games, "repeat": args.repeat,
        "cpu_ms_per_game": {key: round(value * 1000, 1) for key, value in per_game.items()},
        "per_game_ratio_to_import_sqlmodel": {key: round(value / sqlmodel, 2) for key, value in per_game.items()},
        "cpu_ms_per_further_game": {key: round(value * 1000, 1) for key, value in marginal.items()},
        "per_further_game_ratio_to_import_sqlmodel": {key: round(value / sqlmodel, 2)
                                                      for key, value in marginal.items()},
        # what every tick pays before its games: Python, the imports, the first game's first uses, the exit
        "cpu_ms_fixed": {key: round((medians[f"{key}_one"] - marginal[key]) * 1000, 1) for key in sources},
        "fixed_ratio_to_import_sqlmodel": {key: round((medians[f"{key}_one"] - marginal[key]) / sqlmodel, 2)
                                           for key in sources},
        **({"profile": profiled} if profiled else {}), **timings(times, load_before)}, indent=2))


if __name__ == "__main__":
    main()
