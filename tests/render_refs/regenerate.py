"""Redraw the reference pictures of tests/test_render_golden.py and (with --pages, needs chromium) the
page screenshots of tests/test_render_browser.py. Run it by hand, only after checking the new
pictures by eye:  python3 tests/render_refs/regenerate.py [--pages]"""
from __future__ import annotations

import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
sys.path.insert(0, str(ROOT))

import tempfile

from pbem.render.board import position_png
from tests.render_browser import Browser, serve
from tests.render_support import GOLDEN_CASES, REFS, SCREENSHOT_PAGES, write_screenshot_pages

if __name__ == "__main__":
    for name, case in GOLDEN_CASES.items():
        (REFS / f"{name}.png").write_bytes(position_png(case))
    print(f"wrote {len(GOLDEN_CASES)} pictures to {REFS}")
    if "--pages" in sys.argv:
        with tempfile.TemporaryDirectory() as folder:
            write_screenshot_pages(Path(folder))
            browser = Browser()
            try:
                with serve(Path(folder)) as url:
                    for name, page in SCREENSHOT_PAGES.items():
                        browser.open(f"{url}/{page}")
                        (REFS / f"{name}.png").write_bytes(browser.screenshot())
            finally:
                browser.close()
        print(f"wrote {len(SCREENSHOT_PAGES)} page screenshots to {REFS}")
