"""The generated pages in a real headless Chromium: every image loads, no console error, typed
names stay text, the emailed HTML works as a mail reader shows it, and a stage page and a turn
sheet look as their reference screenshots (small tolerance). Skipped only without chromium
(CI installs it, see .ci/run)."""
from __future__ import annotations

import base64
import email
import re
from email import policy
from io import BytesIO
from pathlib import Path

import pytest
from PIL import Image

from pbem.render.message import message_bytes
from pbem.render.turn import Recipient, build_turn_report, player_message
from tests.render_browser import CHROMIUM, Browser, serve
from tests.render_support import (
    REFS,
    SCREENSHOT_PAGES,
    SCRIPT,
    differing_fraction,
    sample_board_turn,
    write_screenshot_pages,
)

pytestmark = pytest.mark.skipif(CHROMIUM is None, reason="chromium is not installed")


@pytest.fixture(scope="module")
def browser():
    b = Browser()
    yield b
    b.close()


@pytest.fixture(scope="module")
def site(tmp_path_factory) -> Path:
    folder = tmp_path_factory.mktemp("site")
    write_screenshot_pages(folder)
    return folder


def test_render_browser_every_page_and_image_loads(browser, site):
    pages = sorted(p.relative_to(site).as_posix() for p in site.rglob("*.html"))
    assert len(pages) == 1 + 1 + 1 + 2 * 5 + 2  # site index, the rules, game index, 2 turns x 5 pages, the sheet, a mail
    with serve(site) as url:
        for page in pages:
            check = browser.open(f"{url}/{page}")
            assert check.errors == [], page
            assert check.broken_images == [], page
            if "/turn-" in page:
                assert check.images, f"{page} shows no board"


def test_render_browser_typed_name_is_text(browser, site):
    with serve(site) as url:
        browser.open(f"{url}/Geek-o-2026/turn-001/index.html")
        assert browser.evaluate("document.querySelectorAll('script').length") == 0
        assert SCRIPT in browser.evaluate("document.body.innerText")
        assert "Geek-o <2026>" in browser.evaluate("document.title")


def test_render_browser_email_html_shows_its_inline_images(browser, tmp_path):
    """As a mail reader does: each cid: reference resolved to its MIME part."""
    report = build_turn_report("Geek-o <2026>", 1, [sample_board_turn()])
    message = email.message_from_bytes(message_bytes(player_message(report, Recipient("alice", "a@x.org"))),
                                       policy=policy.default)
    html = message.get_body(("html",)).get_content()
    parts = {p["Content-ID"].strip("<>"): p.get_content() for p in message.walk() if p["Content-ID"]}
    shown = re.sub(r'src="cid:([^"]+)"',
                   lambda m: f'src="data:image/png;base64,{base64.b64encode(parts[m[1]]).decode()}"', html)
    (tmp_path / "mail.html").write_text(shown, encoding="utf-8")
    with serve(tmp_path) as url:
        check = browser.open(f"{url}/mail.html")
    assert len(check.images) == 1 and check.broken_images == [] and check.errors == []  # the animated turn


@pytest.mark.parametrize("name", sorted(SCREENSHOT_PAGES))
def test_render_browser_screenshot_matches_reference(browser, site, name):
    with serve(site) as url:
        browser.open(f"{url}/{SCREENSHOT_PAGES[name]}")
        shot = Image.open(BytesIO(browser.screenshot()))
    reference = Image.open(REFS / f"{name}.png")
    assert differing_fraction(shot, reference) <= 0.01, f"{name} looks different from {name}.png"


def test_render_browser_pages_fit_a_phone(site):
    """Issue #24: with the mobile viewport a turn page is as wide as the phone (wide tables scroll on their own)."""
    phone = Browser(width=390, height=800)
    try:
        phone.call("Emulation.setDeviceMetricsOverride", {"width": 390, "height": 800, "deviceScaleFactor": 1,
                                                          "mobile": True})
        with serve(site) as url:
            for page in ("Geek-o-2026/turn-001/index.html", "sheet.html", "index.html"):
                phone.open(f"{url}/{page}")
                assert phone.evaluate("window.innerWidth") == 390, page  # the viewport meta: no 980-px desktop page
                assert phone.evaluate("document.documentElement.scrollWidth") <= 390, page
    finally:
        phone.close()
