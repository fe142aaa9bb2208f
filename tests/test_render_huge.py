"""Huge rooms (pbem accepts up to 100x100): the picture keeps under a pixel budget by drawing smaller squares, and
drawing and resolving a turn take bounded time and memory (a 100x100 room once took 55 s and 5 GB to draw)."""
from __future__ import annotations

import json
import subprocess
import sys

from pbem.render.static import FULL, PIXEL_BUDGET, image_size, scale_of
from tests.render_support import room

SCRIPT = """
import json, sys, time
from pbem.engine import BOTWARS, new_board, resolve_turn
from pbem.engine.cards import standard_cards
from pbem.engine.geometry import Dir
from pbem.engine.state import Robot
from pbem.render.board import draw_position, position_png
from pbem.render.model import Position
from tests.render_support import element, room

elements = []
for i in range(1, 101, 3):
    elements += [element("wall", f"r{i}c{(i * 7) % 100 + 1}", side="N"),
                 element("conveyor", f"r{(i * 3) % 100 + 1}c{i}", dir="E"),
                 element("pit", f"r{(i * 11) % 100 + 1}c{(i * 5) % 100 + 1}")]
big = room("100x100", *elements, element("laser", "r50c50", wall="E"), starts=("r1c1", "r1c2"))
robots = [Robot(f"R{i}", f"p{i}", big.size.squares()[i * 1234 + 1], Dir(i % 4)) for i in range(8)]
board = new_board(big, robots)
started = time.perf_counter()
result = resolve_turn(board, {r.name: standard_cards()[i * 5:i * 5 + 5] for i, r in enumerate(robots)},
                      BOTWARS, seed=1, turn=1)
resolved = time.perf_counter() - started
started = time.perf_counter()
picture = draw_position(Position.of(big, result.board))
png = position_png(Position.of(big, result.board))
# VmHWM: this address space's own peak (ru_maxrss keeps the pytest worker's from before the exec: 700+ MB late in a run)
peak_kb = next(int(line.split()[1]) for line in open("/proc/self/status") if line.startswith("VmHWM:"))
print(json.dumps({"size": picture.size, "png": len(png), "resolve_s": resolved,
                  "draw_s": time.perf_counter() - started,
                  "peak_mb": peak_kb // 1024}))
"""


def test_standard_rooms_keep_the_standard_scale():
    assert scale_of(room("12x12")) == scale_of(room("16x16")) == scale_of(room("20x20")) == FULL
    assert image_size(room("12x12")) == (12 * 48 + 44, 12 * 48 + 44)


def test_a_100x100_room_draws_smaller_squares_under_the_budget():
    big = room("100x100")
    width, height = image_size(big)
    assert width * height <= PIXEL_BUDGET
    cell = scale_of(big).cell
    assert width == 100 * cell + 2 * scale_of(big).margin and cell >= 16  # still readable squares


def test_a_100x100_room_resolves_and_renders_in_bounded_time_and_memory(repo_root):
    run = subprocess.run([sys.executable, "-c", SCRIPT], cwd=repo_root, capture_output=True, text=True, timeout=120)
    assert run.returncode == 0, run.stderr
    found = json.loads(run.stdout)
    width, height = found["size"]
    assert width * height <= PIXEL_BUDGET and width == height
    assert found["png"] > 10_000
    assert found["peak_mb"] < 700, found
    assert found["draw_s"] < 40 and found["resolve_s"] < 10, found
