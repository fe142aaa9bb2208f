"""`pbem demo --out DIR` writes a browsable site of the bundled campaign (issue "Done when"): every
link and picture of every page resolves, every player's `.eml` parses with its inline pictures,
and the main pages open in headless Chromium without a broken image or a console error."""
from __future__ import annotations

import email
import re
from email import policy
from pathlib import Path

import pytest
from cycle_fixtures import AT

from pbem.cli.demo import run_demo
from tests.render_browser import CHROMIUM, Browser, serve
from tests.render_support import link_targets


@pytest.fixture(scope="module")
def demo(tmp_path_factory) -> Path:
    folder = tmp_path_factory.mktemp("demo")
    run_demo(folder / "pbem-demo.db", folder / "site", AT)
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


def test_render_demo_every_text_part_fits_78_columns(demo):
    """Issue #24: no line of a report mail's text part, nor of a turn sheet's text (the sheet mail's text part),
    is wider than 78 columns: tables are cut into blocks of robots and their cells wrapped by field."""
    texts = {path: email.message_from_bytes(path.read_bytes(), policy=policy.default).get_body(("plain",))
             .get_content() for path in demo.rglob("*.eml")}
    texts |= {path: path.read_text(encoding="utf-8") for path in demo.rglob("sheets/*.txt")}
    assert len(texts) > 28
    wide = [(path.relative_to(demo).as_posix(), line) for path, text in texts.items() for line in text.splitlines()
            if len(line) > 78]
    assert wide == []


def test_render_demo_report_mails_stay_under_200_kb_with_the_animation(demo):
    """Issue #24: a player's report mail of a turn, with the animated turn, under 200 KB (1000 bytes each)."""
    for path in demo.rglob("*.eml"):
        data = path.read_bytes()
        assert len(data) <= 200_000 and b"image/gif" in data, path


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


def test_render_demo_every_board_of_every_turn_has_its_animation(demo):
    """One frame at each stage's start, one per movement step, one at the end (render/animation.py)."""
    from PIL import Image
    from sqlmodel import Session

    from pbem.render.animation import frames
    from pbem.store.db import open_database
    from pbem.store.games import get_game, processed_turns, read_state, snapshot, stage_snapshots, turn_events

    engine = open_database(f"sqlite:///{demo.parent / 'pbem-demo.db'}")
    checked = 0
    with Session(engine) as session:
        for name in ("geeko-demo", "botwars-demo"):
            game = get_game(session, name)
            for turn in processed_turns(session, game):
                before = read_state(game, snapshot(session, game, turn.number, "before").state)
                stages, events = stage_snapshots(session, game, turn.number), turn_events(session, game, turn.number)
                played = [key for key in before.boards if key in stages]
                for index, key in enumerate(played):
                    path = demo / name / f"turn-{turn.number:03d}" / f"board{index + 1}-turn.gif"
                    with Image.open(path) as gif:
                        expected = frames(before.boards[key].room, stages[key], [e for b, e in events if b == key])
                        assert gif.n_frames == len(expected), path
                        assert gif.info["loop"] == 0
                    checked += 1
    engine.dispose()
    assert checked == 6 * 2 + 4


def test_render_demo_animations_map_only_what_the_robots_cover_to_the_same_bytes(demo, monkeypatch):
    """A frame is scaled and put in the first frame's palette box by box (animation._pieces), and compared with the
    frame before where its boxes changed; whole frames, as before, gives the same GIF: Pillow maps each pixel on
    its own. On the BotWars demo: four robots, labels overlapping neighbours, robots on the board's edge."""
    from PIL import Image
    from sqlmodel import Session

    from pbem.render import animation
    from pbem.store.db import open_database
    from pbem.store.games import get_game, processed_turns, read_state, snapshot, stage_snapshots, turn_events

    def whole_frames(image, boxes, palette, before):
        return {((0, 0, *image.size), image.tobytes()): animation._scaled(image).quantize(palette=palette,
                                                                                          dither=Image.Dither.NONE)}

    engine = open_database(f"sqlite:///{demo.parent / 'pbem-demo.db'}")
    with Session(engine) as session:
        game = get_game(session, "botwars-demo")
        turns = processed_turns(session, game)
        for turn in turns:
            room = read_state(game, snapshot(session, game, turn.number, "before").state).boards["board"].room
            stages = stage_snapshots(session, game, turn.number)["board"]
            events = [event for _, event in turn_events(session, game, turn.number)]
            by_boxes = animation.turn_gif(room, stages, events)
            with monkeypatch.context() as patch:
                patch.setattr(animation, "_pieces", whole_frames)
                assert animation.turn_gif(room, stages, events) == by_boxes, turn.number
    engine.dispose()
    assert len(turns) == 4
