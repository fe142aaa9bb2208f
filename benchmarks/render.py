"""Report rendering speed (BENCHMARKS.md "Reports"); prints one JSON document.

- `stage_png_ms`: one stage picture (PNG bytes) of a 12x12 board with 8 robots, the room's
  floor already cached (as for every stage after a room's first); `stage_png_cold_ms` the very
  first one, which also draws the floor.
- `turn_report_ms`: a whole 5-stage BotWars turn resolved by the engine, rendered: the report
  model, 6 pictures, the animated turn (GIF), the turn's HTML pages and one `.eml` per player
  (8 players), written to disk; `turn_report_with_sheets_ms` the same plus the next turn's 8 turn
  sheets (text, HTML, board picture), as `turn process` and `turn deal` write them.
- `turn_sheet_ms`: one turn sheet with its picture (text with the map, HTML, PNG).
- `animation_ms` / `animation_frames` / `animation_kb`: the turn's GIF alone.
Medians of several runs.

    python3 benchmarks/render.py [--room rooms/botwars/foundry.yaml] [--runs 15]
"""
from __future__ import annotations

import argparse
import json
import platform
import random
import statistics
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from pbem.engine.cards import standard_cards
from pbem.engine.elements import new_board
from pbem.engine.geometry import Dir
from pbem.engine.ruleset import get_ruleset
from pbem.engine.state import Robot
from pbem.engine.turn import resolve_turn
from pbem.formats.rooms import read_room
from pbem.render import static
from pbem.render.animation import frames, turn_gif
from pbem.render.board import position_png
from pbem.render.model import Position
from pbem.render.sheet import sheet_png, turn_sheet_html, turn_sheet_text
from pbem.render.turn import BoardTurn, Recipient, build_turn_report, legend_bytes, write_turn_report
from pbem.store.turns import RobotSheet, TurnSheet


def timed(fn) -> float:
    start = time.perf_counter()
    fn()
    return (time.perf_counter() - start) * 1000


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--room", default=str(ROOT / "rooms" / "botwars" / "foundry.yaml"))
    parser.add_argument("--runs", type=int, default=15)
    args = parser.parse_args()

    room = read_room(args.room)
    players = [f"player{i + 1}" for i in range(8)]
    robots = [Robot(f"Robot {i + 1}", players[i], square, Dir.N) for i, square in enumerate(room.starts[:8])]
    board = new_board(room, robots)
    cards = standard_cards()
    random.Random(1).shuffle(cards)  # a fixed deal: the benchmark needs varied, legal programs
    programs = {r.name: sorted(cards[i * 5:(i + 1) * 5], key=lambda c: -c.number)[:5]
                for i, r in enumerate(robots)}
    result = resolve_turn(board, programs, get_ruleset("botwars"), seed=1, turn=1)
    turn = BoardTurn(room.name, room, result.snapshots, result.events, result.board, tuple(players))
    recipients = [Recipient(p, f"{p}@example.org") for p in players]
    position = Position.of(room, result.snapshots[2])

    static._CACHE.clear()
    cold = timed(lambda: position_png(position))
    stage = statistics.median(timed(lambda: position_png(position)) for _ in range(args.runs * 2))
    legend_bytes()  # drawn once per process

    def whole_turn() -> None:
        with tempfile.TemporaryDirectory() as folder:
            write_turn_report(Path(folder), build_turn_report("bench", 1, [turn]), recipients)

    report = statistics.median(timed(whole_turn) for _ in range(args.runs))
    sheets = [TurnSheet("bench", 2, player, f"{player}@example.org", room.name,
                        [RobotSheet(robot.name, robot.mode, robot.hp, str(robot.at), robot.facing.name, {}, True, 5)],
                        {robot.name: [str(c) for c in cards[40:46]]}, "game: bench\n", exact_program=True,
                        board=result.board)
              for player, robot in zip(players, robots)]

    def one_sheet(sheet) -> None:
        turn_sheet_text(sheet), turn_sheet_html(sheet), sheet_png(sheet)

    def with_sheets() -> None:
        whole_turn()
        for sheet in sheets:
            one_sheet(sheet)

    sheet_ms = statistics.median(timed(lambda: one_sheet(sheets[0])) for _ in range(args.runs * 2))
    report_and_sheets = statistics.median(timed(with_sheets) for _ in range(args.runs))
    gif = turn_gif(room, result.snapshots, result.events)
    animation = statistics.median(timed(lambda: turn_gif(room, result.snapshots, result.events))
                                  for _ in range(max(3, args.runs // 3)))
    print(json.dumps({
        "room": f"{room.name} {room.size}", "robots": len(robots), "stages": result.stages, "players": len(players),
        "events": len(result.events), "runs": args.runs,
        "stage_png_ms": round(stage, 2), "stage_png_cold_ms": round(cold, 2), "turn_report_ms": round(report, 1),
        "turn_report_with_sheets_ms": round(report_and_sheets, 1), "turn_sheet_ms": round(sheet_ms, 2),
        "animation_ms": round(animation, 1), "animation_frames": len(frames(room, result.snapshots, result.events)),
        "animation_kb": round(len(gif) / 1024, 1),
        "targets_ms": {"stage_png": 20, "turn_report_with_sheets": 300, "turn_sheet": 20},
        "python": platform.python_version(),
    }, indent=2))


if __name__ == "__main__":
    main()
