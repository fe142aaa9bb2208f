"""`pbem demo --out DIR` writes a browsable site of the bundled campaign (issue "Done when"): every
link and picture of every page resolves, every player's `.eml` parses with its inline pictures,
and the main pages open in headless Chromium without a broken image or a console error."""
from __future__ import annotations

import email
import re
from email import policy
from pathlib import Path

import pytest

from pbem.cli.demo import run_demo
from tests.render_browser import CHROMIUM, Browser, serve
from tests.render_support import link_targets


@pytest.fixture(scope="module")
def demo(tmp_path_factory) -> Path:
    folder = tmp_path_factory.mktemp("demo")
    run_demo(folder / "pbem-demo.db", folder / "site")
    return folder / "site"


def test_render_demo_every_link_resolves(demo):
    pages = sorted(demo.rglob("*.html"))
    assert len(pages) > 40
    for page in pages:
        for target in link_targets(page):
            assert (page.parent / target).resolve().is_file(), f"{page.relative_to(demo)} -> {target}"
    assert {p.parent.name for p in demo.glob("*/index.html")} == {"geeko-demo", "botwars-demo"}


def test_render_demo_every_email_parses_with_its_pictures(demo):
    mails = sorted(demo.rglob("*.eml"))
    assert len(mails) == 6 * 2 + 4 * 4  # Geek-o: 2 players x 6 turns; BotWars: 4 players x 4 turns
    for path in mails:
        message = email.message_from_bytes(path.read_bytes(), policy=policy.default)
        html = message.get_body(("html",)).get_content()
        cids = set(re.findall(r'src="cid:([^"]+)"', html))
        parts = {p["Content-ID"].strip("<>") for p in message.walk() if p["Content-ID"]}
        assert cids and cids == parts, path
        assert "NAME" in message.get_body(("plain",)).get_content()


@pytest.mark.skipif(CHROMIUM is None, reason="chromium is not installed")
def test_render_demo_main_pages_open_in_chromium(demo):
    pages = ["index.html"] + [f"{game}/{page}" for game in ("geeko-demo", "botwars-demo")
                              for page in ("index.html", "turn-001/index.html", "turn-002/stage-1.html",
                                           "turn-002/final.html")]
    browser = Browser()
    try:
        with serve(demo) as url:
            for page in pages:
                check = browser.open(f"{url}/{page}")
                assert check.errors == [] and check.broken_images == [], page
    finally:
        browser.close()
