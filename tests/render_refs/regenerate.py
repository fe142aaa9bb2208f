"""Redraw the reference pictures of tests/test_render_golden.py. Run it by hand, only after checking
the new pictures by eye:  python3 tests/render_refs/regenerate.py"""
from __future__ import annotations

import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
sys.path.insert(0, str(ROOT))

from tests.render_support import GOLDEN_CASES, REFS  # noqa: E402

from pbem.render.board import position_png  # noqa: E402

if __name__ == "__main__":
    for name, case in GOLDEN_CASES.items():
        (REFS / f"{name}.png").write_bytes(position_png(case))
    print(f"wrote {len(GOLDEN_CASES)} pictures to {REFS}")
