"""The pictures of a due tick (issue #36), drawn again in one process: the CPU per game of a turn's stage and final
pictures (`board.position_png`), its animation (`animation.turn_gif`) and the dealt turn's sheets
(`sheet.DrawnSheets.of`: their pictures and texts), beside another checkout's.

    python3 benchmarks/due_pictures.py [--games 4] [--repeat 5] [--before CHECKOUT]

Makes `--games` dealt BotWars games as `due_tick.py` does, then, in a child process for each checkout, runs the due
tick (`pbem run`) recording the arguments of every picture drawn, draws them all again `--repeat` times and prints
one JSON document: each kind's best CPU per game, and the sha256 of all the pictures (the same in both checkouts
when no byte changed). The games are copies of one sample, so what a checkout keeps between pictures
(`board._backdrops`) is forgotten at each game's first: only a game's own pictures share work.
"""
from __future__ import annotations

import argparse
import json
import os
import subprocess
import sys
import tempfile
from pathlib import Path

from child_cpu import ENVIRONMENT  # benchmarks/, beside this script
from due_tick import DUE, setup

ROOT = Path(__file__).resolve().parent.parent
KINDS = ("position_png", "turn_gif", "DrawnSheets.of")

# run in the child, with the checkout first on sys.path: the tick with each picture's arguments recorded, then
# the pictures drawn again
CHILD = r'''
import contextlib, hashlib, io, json, os, sys, time
folder, games, repeat = sys.argv[1], int(sys.argv[2]), int(sys.argv[3])
from pbem.render import animation, board, sheet
calls = []  # (kind, function, args, kwargs, game): a game's pictures begin with its dealt sheets
games_seen = [0]

def recorded(module, name):
    drawn = getattr(module, name)

    def record(*args, **kwargs):
        calls.append((name, drawn, args, kwargs, games_seen[0]))
        return drawn(*args, **kwargs)
    setattr(module, name, record)

recorded(board, "position_png")
recorded(animation, "turn_gif")
of = sheet.DrawnSheets.of.__func__

def drawn_sheets(cls, sheets):
    games_seen[0] += 1
    calls.append(("DrawnSheets.of", lambda sheets: of(sheet.DrawnSheets, sheets), (sheets,), {}, games_seen[0]))
    return of(cls, sheets)
sheet.DrawnSheets.of = classmethod(drawn_sheets)
from pbem.cli import app
from pbem.cli.lazy import click_command
os.chdir(folder)
with contextlib.redirect_stdout(io.StringIO()):
    click_command(app).main(["--db", f"sqlite:///{folder}/tick.db", "--now", sys.argv[4], "run", "--out",
                             f"{folder}/out"], standalone_mode=False)

def draw(kind):
    game = None
    for name, function, args, kwargs, of_game in calls:
        if name == kind:
            if of_game != game:  # the games are copies: nothing kept from the one before
                getattr(board, "_backdrops", {}).clear()
                game = of_game
            drawn = function(*args, **kwargs)
            yield drawn if isinstance(drawn, bytes) else b"".join(drawn.pictures[p] for p in sorted(drawn.pictures))

digest = hashlib.sha256(b"".join(b"".join(draw(kind)) for kind in ("position_png", "turn_gif", "DrawnSheets.of")))
best = {}
for kind in ("position_png", "turn_gif", "DrawnSheets.of"):
    times = []
    for _ in range(repeat):
        start = time.process_time()
        for _ in draw(kind):
            pass
        times.append(time.process_time() - start)
    best[kind] = min(times) / games * 1000
print(json.dumps({"calls": {kind: sum(c[0] == kind for c in calls) for kind in best}, "sha256": digest.hexdigest(),
                  "cpu_ms_per_game": {kind: round(value, 1) for kind, value in best.items()},
                  "total_ms_per_game": round(sum(best.values()), 1)}))
'''


def pictures(checkout: Path, folder: Path, database: Path, games: int, repeat: int) -> dict[str, object]:
    """The due tick's pictures drawn again by `checkout`, in its own interpreter."""
    (folder / "tick.db").write_bytes(database.read_bytes())
    environment = {**ENVIRONMENT, "PYTHONPATH": str(checkout)}
    run = subprocess.run([sys.executable, "-c", CHILD, str(folder), str(games), str(repeat), DUE], cwd=folder,
                         env=environment, check=True, capture_output=True, text=True)
    return json.loads(run.stdout.splitlines()[-1])


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=int, default=4)
    parser.add_argument("--repeat", type=int, default=5)
    parser.add_argument("--before", type=Path, help="another checkout to time beside this one")
    args = parser.parse_args()
    load_before = os.getloadavg()[0]
    with tempfile.TemporaryDirectory() as name:
        folder = Path(name)
        database = setup(folder, args.games)
        checkouts = {"now": ROOT, **({"before": args.before} if args.before else {})}
        results = {}
        for key, checkout in checkouts.items():
            (folder / key).mkdir()
            results[key] = pictures(checkout, folder / key, database, args.games, args.repeat)
    print(json.dumps({"benchmark": "a due tick's pictures drawn again in one process, CPU per game",
                      "games": args.games, "repeat": args.repeat, **results,
                      "load": {"before": load_before, "after": os.getloadavg()[0]}}, indent=2))


if __name__ == "__main__":
    main()
