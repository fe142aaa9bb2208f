"""Issue #35: every page the site and the reports write, and every mail's HTML part, fits a phone: in headless
Chromium at a 390-px viewport the document is no wider than the screen. A table too wide scrolls inside its own
box, with a line above it saying so; text in boxes (order files, code) wraps. Each kind of page is listed here
from what render/ and mail/ write; the screenshots stay in the test's folder for a person to look at."""
from __future__ import annotations

import email
from datetime import datetime, timezone
from email import policy
from pathlib import Path

import pytest
from cycle_fixtures import AT
from typer.testing import CliRunner

from pbem.cli import app
from pbem.cli.demo import run_demo
from tests.render_browser import CHROMIUM, Browser, serve
from tests.render_support import html_as_shown

pytestmark = pytest.mark.skipif(CHROMIUM is None, reason="chromium is not installed")
PHONE = 390
NOW = datetime(2026, 12, 1, 19, 0, tzinfo=timezone.utc)
GM = "Game Master <gm@example.org>"
DEMO_KINDS = {"site index": "index.html", "rules": "rules.html", "game index with standings": "botwars-demo/index.html",
              "turn page": "botwars-demo/turn-002/index.html", "stage page": "botwars-demo/turn-002/stage-3.html",
              "end of turn page": "botwars-demo/turn-002/final.html",
              "BotWars sheet with its builder": "botwars-demo/turn-002/sheets/ann.html",
              "Geek-o sheet with its builder": "geeko-demo/turn-003/sheets/alice.html"}

FILL_EVERY_PROGRAM = """document.querySelectorAll('[data-robot] .robot-name:not(:disabled)').forEach(name => {
  name.click();
  for (let card; (card = document.querySelector('#builder-hand button:not(:disabled)')); ) card.click();
})"""


@pytest.fixture(scope="module")
def phone():
    browser = Browser(width=PHONE, height=800)
    browser.call("Emulation.setDeviceMetricsOverride", {"width": PHONE, "height": 800, "deviceScaleFactor": 1,
                                                        "mobile": True})
    yield browser
    browser.close()


def _mail_pages(folder: Path, kind: str, data: bytes) -> dict[str, str]:
    """A mail's HTML part as a reader shows it, and each HTML page it carries, written into `folder`."""
    name = kind.replace(" ", "-").replace("'", "")
    (folder / f"{name}.html").write_text(html_as_shown(data), encoding="utf-8")
    pages = {kind: f"{name}.html"}
    message = email.message_from_bytes(data, policy=policy.default)
    for part in message.iter_attachments():
        if part.get_content_type() == "text/html":
            (folder / f"{name}-attachment.html").write_bytes(part.get_payload(decode=True))  # as saved to disk
            pages[f"{kind}: its attachment"] = f"{name}-attachment.html"
    return pages


def _sheet_mails(folder: Path) -> dict[str, str]:
    """A BotWars and a Geek-o game's turn sheet mails (the builder travels as the attachment)."""
    from pbem.gm import cycle
    from pbem.render.sheet import turn_sheet_message
    from pbem.store.games import Store

    db = f"sqlite:///{folder / 'sheets.db'}"
    for command in (["game", "new", "bw", "--ruleset", "botwars", "--seed", "3", "--player", "alice:a@x.org:Zapper",
                     "--player", "bob:b@x.org:Bolt", "--player", "cy:c@x.org:Gizmo", "--player", "dee:d@x.org:Rusty"],
                    ["game", "new", "gk", "--ruleset", "geeko", "--seed", "3", "--player", "carol:c@x.org:Zip,Zap"]):
        result = CliRunner().invoke(app, ["--db", db, "--now", "2026-12-01T12:00:00Z", *command])
        assert result.exit_code == 0, result.output
    pages: dict[str, str] = {}
    store = Store(db)
    try:
        for game in ("bw", "gk"):
            with store.session() as session:
                _, sheets = cycle.deal(session, game)
            pages |= _mail_pages(folder, f"{game} sheet mail", turn_sheet_message(sheets[0], GM).as_bytes())
    finally:
        store.close()
    return pages


def _match_pages(folder: Path) -> dict[str, str]:
    """Each death match's site page (one action's payload a long word) and its mail."""
    from pbem.dm import Config, replay
    from pbem.gm.moves import letter as match_mail
    from pbem.render.dm_page import match_page

    pages: dict[str, str] = {}
    for game, variant in (("takebacktoe", None), ("flowerfield", "pan"), ("gyulbot", None), ("ice", None)):
        config = Config(game, ("Ann", "Bob"), variant=variant)
        state = replay(config, []).state
        long_word = {"seq": 1, "player": "Ann", "reason": "not a move", "at": "2026-12-01 19:00:00 UTC",
                     "payload": '{"moves": "' + "RULD" * 30 + '"}'}
        for file, content in match_page(f"m-{game}", config, state, [long_word]).items():
            (folder / "matches" / game).mkdir(parents=True, exist_ok=True)
            (folder / "matches" / game / file).write_bytes(content if isinstance(content, bytes)
                                                           else content.encode("utf-8"))
        pages[f"{game} match page"] = f"matches/{game}/index.html"
        mail = match_mail(sender=GM, recipient="ann@x.org", player="Ann", match=f"m-{game}", config=config,
                          state=state, now=NOW, subject="your move", lines=["It is your move."], token=game)
        pages |= _mail_pages(folder, f"{game} match mail", mail.as_bytes())
    return pages


def _notices(folder: Path) -> dict[str, str]:
    from pbem.mail.notices import notice, reminder

    pages = _mail_pages(folder, "reminder mail", reminder(
        GM, "botwars-demo", 3, "ann", "ann@x.org", "due Friday 4 December, 20:00 UTC", 24,
        fate=["If nothing comes, the robot pilot plays for you (B4.6):", "  Rusty: FWD2#700, RT90#80, FWD1#500"])
        .as_bytes())
    return pages | _mail_pages(folder, "notice mail", notice(
        GM, "ann@x.org", "botwars-demo: orders accepted", ["Orders of ann for botwars-demo, turn 5, as understood:",
                                                            "  Rusty: {program: [FWD2#700, RT90#80, FWD1#500]}"],
        ("ack",), "<x@pbem>").as_bytes())


@pytest.fixture(scope="module")
def pages(tmp_path_factory) -> tuple[Path, dict[str, str]]:
    """Every kind of page and mail HTML part, as files under one folder: kind -> its path there."""
    folder = tmp_path_factory.mktemp("phone")
    run_demo(folder / "pbem-demo.db", folder / "site", AT)
    site = folder / "site"
    kinds = dict(DEMO_KINDS)
    for game, mail in (("botwars-demo", "turn-002/mail/ann.eml"), ("geeko-demo", "turn-003/mail/alice.eml")):
        kinds |= _mail_pages(site, f"{game} report mail", (site / game / mail).read_bytes())
    kinds |= _sheet_mails(site) | _match_pages(site) | _notices(site)
    return site, kinds


def test_every_page_and_mail_fits_a_phone(phone, pages):
    site, kinds = pages
    assert len(kinds) == 8 + 2 + 2 * 2 + 4 * 2 + 2, sorted(kinds)  # the demo, its mails, sheets, matches, notices
    wide = {}
    with serve(site) as url:
        for kind, page in sorted(kinds.items()):
            check = phone.open(f"{url}/{page}")
            assert check.errors == [], (kind, check.errors)
            phone.evaluate(FILL_EVERY_PROGRAM)  # a sheet with its builder: measured with the longest programs
            assert phone.evaluate("window.innerWidth") == PHONE, kind
            width = phone.evaluate("document.documentElement.scrollWidth")
            if width > PHONE:
                wide[kind] = width
            (site / f"shot-{kind.replace(' ', '-').replace(':', '')}.png").write_bytes(phone.screenshot())
    assert wide == {}


def test_a_wide_table_scrolls_in_its_own_box_and_says_so_on_a_phone(phone, pages):
    """The BotWars report mail's stage tables (four robots) are wider than the phone: each box scrolls, and the
    line above it is shown; on a wide screen that line is hidden."""
    site, kinds = pages
    boxes = ("Array.from(document.querySelectorAll('div.scroll')).map(b => [b.scrollWidth > b.clientWidth, "
             "b.previousElementSibling && b.previousElementSibling.classList.contains('scroll-hint') "
             "&& b.previousElementSibling.offsetHeight > 0])")
    with serve(site) as url:
        phone.open(f"{url}/{kinds['botwars-demo report mail']}")
        shown = phone.evaluate(boxes)
        wide = Browser(width=1000, height=800)
        try:
            wide.open(f"{url}/{kinds['botwars-demo report mail']}")
            on_a_desk = wide.evaluate(boxes)
        finally:
            wide.close()
    assert sum(scrolls for scrolls, _ in shown) >= 6 and all(hinted for scrolls, hinted in shown if scrolls), shown
    assert on_a_desk and not any(hinted for _, hinted in on_a_desk)
