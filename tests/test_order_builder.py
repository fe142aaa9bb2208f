"""The turn sheet's order builder in a real headless Chromium, opened from file:// as a player opens the
attachment: click a legal program from the hand, read the order file it writes (and the mailto: link), and
`pbem turn check` accepts it, for BotWars (every free register, B4.5) and Geek-o (a shared hand, programs of
one length, B4.3/B4.5). Without scripts the sheet still shows the hand and the order file."""
from __future__ import annotations

import email
import json
from email import policy
from urllib.parse import parse_qs, unquote, urlsplit

import pytest
from typer.testing import CliRunner

from pbem.cli import app
from tests.render_browser import CHROMIUM, Browser

pytestmark = pytest.mark.skipif(CHROMIUM is None, reason="chromium is not installed")
RUNNER = CliRunner()
NOW = "2026-01-01T12:00:00Z"


@pytest.fixture(scope="module")
def browser():
    b = Browser(width=1000, height=1400)
    yield b
    b.close()


@pytest.fixture(scope="module")
def campaign(tmp_path_factory):
    folder = tmp_path_factory.mktemp("builder")
    db = f"sqlite:///{folder / 'pbem.db'}"

    def pbem(*args: str) -> tuple[int, str]:
        result = RUNNER.invoke(app, ["--db", db, "--now", NOW, *args])
        return result.exit_code, result.stdout
    for command in (["game", "new", "bw", "--ruleset", "botwars", "--player", "alice:alice@x.org:Zapper",
                     "--player", "bob:bob@x.org:Bolt", "--seed", "3"],
                    ["game", "new", "gk", "--ruleset", "geeko", "--player", "carol:carol@x.org:Zip,Zap",
                     "--seed", "3"],
                    ["turn", "deal", "bw", "--out", str(folder / "sheets")],
                    ["turn", "deal", "gk", "--out", str(folder / "sheets")]):
        code, out = pbem(*command)
        assert code == 0, out
    return folder, pbem


def click_program(browser: Browser, robot: str, count: int) -> None:
    """Click the robot, then the first `count` cards the builder offers it."""
    browser.evaluate(f"document.querySelector('[data-robot={json.dumps(robot)}] .robot-name').click()")
    for _ in range(count):
        assert browser.evaluate("(() => { const c = document.querySelector('#builder-hand button:not(:disabled)');"
                                " if (!c) return false; c.click(); return true; })()"), f"no card left for {robot}"


def built_orders(browser: Browser) -> tuple[str, str, dict]:
    """The builder's status line, order text, and its mailto: link taken apart."""
    status = browser.evaluate("document.getElementById('builder-status').textContent")
    text = browser.evaluate("document.getElementById('builder-text').textContent")
    link = urlsplit(browser.evaluate("document.getElementById('builder-send').href"))
    return status, text, {"to": unquote(link.path), **{k: v[0] for k, v in parse_qs(link.query).items()}}


def test_a_botwars_program_clicked_together_is_accepted_by_turn_check(browser, campaign, tmp_path):
    folder, pbem = campaign
    sheet = folder / "sheets" / "bw" / "turn-001" / "alice.html"
    check = browser.open(sheet.as_uri())
    assert check.errors == [] and check.broken_images == []
    click_program(browser, "Zapper", 4)
    status, _, _ = built_orders(browser)
    assert status.startswith("Not complete: Zapper: 4 of 5 cards")  # BotWars fills every free register (B4.5)
    click_program(browser, "Zapper", 1)
    assert browser.evaluate("document.querySelectorAll('#builder-hand button:not(:disabled)').length") == 0
    status, text, link = built_orders(browser)
    assert status == "Complete: ready to send."
    assert link["body"].replace("\r\n", "\n") == text and "turn 1" in link["subject"]
    rehearsal = parse_qs(urlsplit(browser.evaluate("document.getElementById('builder-preview').href")).query)
    assert rehearsal["body"][0].replace("\r\n", "\n") == text + "preview: true\n"  # see before you send
    (tmp_path / "alice.yaml").write_text(text, encoding="utf-8")
    code, out = pbem("turn", "check", "bw", str(tmp_path / "alice.yaml"))
    assert code == 0 and "secret:" in text, (out, text)
    (folder / "shot-botwars.png").write_bytes(browser.screenshot())


def test_a_geeko_pair_of_programs_of_one_length_is_accepted_by_turn_check(browser, campaign, tmp_path):
    folder, pbem = campaign
    browser.open((folder / "sheets" / "gk" / "turn-001" / "carol.html").as_uri())
    click_program(browser, "Zip", 3)
    click_program(browser, "Zap", 2)
    status, _, _ = built_orders(browser)
    assert "the same length (B4.5)" in status
    click_program(browser, "Zap", 1)
    browser.evaluate("document.querySelector('[data-robot=\"Zip\"] [data-register=\"2\"]').click()")  # take back
    click_program(browser, "Zip", 1)
    status, text, _ = built_orders(browser)
    assert status == "Complete: ready to send.", status
    (tmp_path / "carol.yaml").write_text(text, encoding="utf-8")
    code, out = pbem("turn", "check", "gk", str(tmp_path / "carol.yaml"))
    assert code == 0, (out, text)
    (folder / "shot-geeko.png").write_bytes(browser.screenshot())


def test_the_sheet_mail_carries_the_builder_as_an_attachment_addressed_to_the_gm(campaign):
    from pbem.gm import cycle
    from pbem.render.sheet import turn_sheet_message
    from pbem.store.games import Store

    folder, _ = campaign
    store = Store(f"sqlite:///{folder / 'pbem.db'}")
    try:
        with store.session() as session:
            _, sheets = cycle.deal(session, "bw")
    finally:
        store.close()
    message = email.message_from_bytes(turn_sheet_message(sheets[0], "gm@example.org").as_bytes(),
                                       policy=policy.default)
    [attachment] = [part for part in message.iter_attachments() if part.get_filename() == "alice-sheet.html"]
    page = attachment.get_content()
    assert '"to": "gm@example.org"' in page and "data:image/png;base64," in page
    assert "<script" not in message.get_body(("html",)).get_content()  # mail programs drop scripts anyway
    assert "robots:" in message.get_body(("plain",)).get_content()


def test_with_scripts_off_the_sheet_shows_the_hand_and_the_order_file_and_no_builder(browser, campaign):
    folder, _ = campaign
    browser.call("Emulation.setScriptExecutionDisabled", {"value": True})
    try:
        browser.open((folder / "sheets" / "bw" / "turn-001" / "alice.html").as_uri())
        shown = browser.evaluate("document.body.innerText")
    finally:
        browser.call("Emulation.setScriptExecutionDisabled", {"value": False})
    assert shown is None or "Build your orders" not in shown


def test_the_sheet_mail_of_a_scheduled_game_carries_the_deadline_as_a_calendar_entry():
    from datetime import datetime, timezone

    from pbem.render.sheet import turn_sheet_message
    from tests.render_support import sample_sheet

    sheet = sample_sheet()
    sheet.due_at = datetime(2026, 12, 4, 20, 0, tzinfo=timezone.utc)
    sheet.written_at, sheet.reminders = datetime(2026, 11, 29, 20, 0, tzinfo=timezone.utc), (24, 2)
    message = email.message_from_bytes(turn_sheet_message(sheet, "gm@example.org").as_bytes(), policy=policy.default)
    [entry] = [part for part in message.iter_attachments() if part.get_content_type() == "text/calendar"]
    text = entry.get_content()
    assert entry.get_filename() == "Geek-o-2026-turn-2.ics"
    assert "DTSTART:20261204T200000Z\r\n" in text and "SUMMARY:Geek-o <2026>: turn 2 orders due" in text
    assert "DTSTAMP:20261129T200000Z\r\n" in text and text.count("BEGIN:VALARM") == 2
    assert text.startswith("BEGIN:VCALENDAR\r\n") and text.endswith("END:VCALENDAR\r\n")
    assert all(len(line) <= 75 for line in text.split("\r\n"))


def send_link(browser: Browser) -> str | None:
    return browser.evaluate("document.getElementById('builder-send').getAttribute('href')")


def test_send_by_mail_is_no_link_until_the_program_is_complete(browser, campaign):
    """Issue #35: with 1 of 5 cards "Send by mail" was a live mailto: link, and the mail it wrote was refused."""
    folder, _ = campaign
    browser.open((folder / "sheets" / "bw" / "turn-001" / "alice.html").as_uri())
    assert send_link(browser) is None
    click_program(browser, "Zapper", 1)
    assert send_link(browser) is None and browser.evaluate(
        "document.getElementById('builder-preview').getAttribute('href')") is None
    assert browser.evaluate("document.getElementById('builder-send').getAttribute('aria-disabled')") == "true"
    click_program(browser, "Zapper", 4)
    assert send_link(browser).startswith("mailto:")
    browser.evaluate("document.querySelector('[data-robot=\"Zapper\"] [data-register=\"5\"]').click()")  # take back
    assert send_link(browser) is None


def test_the_builder_keeps_the_sheets_option_hp(browser, campaign, tmp_path):
    """Issue #35: the sheet says `option_hp: 6` (B11); the builder started at "(no)" and left the line out."""
    folder, pbem = campaign
    sheet = (folder / "sheets" / "bw" / "turn-001" / "alice.html")
    assert "\noption_hp: 6\n" in sheet.read_text(encoding="utf-8")
    browser.open(sheet.as_uri())
    assert browser.evaluate("document.getElementById('builder-option').value") == "6"
    click_program(browser, "Zapper", 5)
    _, text, _ = built_orders(browser)
    assert text.endswith("option_hp: 6\n"), text
    browser.evaluate("(() => { const s = document.getElementById('builder-option'); s.value = '3';"
                     " s.dispatchEvent(new Event('change')); })()")
    _, text, _ = built_orders(browser)
    assert text.endswith("option_hp: 3\n") and text.count("option_hp") == 1
    (tmp_path / "alice.yaml").write_text(text, encoding="utf-8")
    code, out = pbem("turn", "check", "bw", str(tmp_path / "alice.yaml"))
    assert code == 0, (out, text)


def test_a_long_geeko_program_is_written_in_lines_of_72_columns_that_turn_check_accepts(browser, campaign, tmp_path):
    """Issue #35: 9 + 9 cards made a 110-column line, which a mail program wraps into broken YAML."""
    folder, pbem = campaign
    browser.open((folder / "sheets" / "gk" / "turn-001" / "carol.html").as_uri())
    click_program(browser, "Zip", 9)
    click_program(browser, "Zap", 9)
    browser.evaluate("document.querySelector('[data-robot=\"Zap\"] input').click()")  # reboot: a flow list too
    status, text, link = built_orders(browser)
    assert status == "Complete: ready to send.", status
    assert max(len(line) for line in text.splitlines()) <= 72, text
    assert text.count("#") >= 18 and len(text.splitlines()) > len(text.split("robots:")[0].splitlines()) + 3
    assert link["body"].replace("\r\n", "\n") == text
    (tmp_path / "carol.yaml").write_text(text, encoding="utf-8")
    code, out = pbem("turn", "check", "gk", str(tmp_path / "carol.yaml"))
    assert code == 0, (out, text)


def test_the_mailto_recipient_is_a_bare_address(browser, campaign, tmp_path):
    """RFC 6068: a mailto: link carries addr-spec only; `Game Master <gm@…>` was written as it was."""
    from pbem.render.sheet import turn_sheet_html
    from tests.render_support import sample_sheet

    sheet = sample_sheet()
    page = tmp_path / "sheet.html"
    page.write_text(turn_sheet_html(sheet, picture="", to='"Game Master, GM" <gm@example.org>'), encoding="utf-8")
    browser.open(page.as_uri())
    click_program(browser, "Zapper", 1)
    _, _, link = built_orders(browser)
    assert link["to"] == "gm@example.org"


def test_the_sheet_says_the_checkers_limit_where_programs_are_of_one_length():
    """B4.5 (Geek-o): with 9 and 8 free registers, both programs may hold up to 8 cards; the sheet said "up to
    9 cards" for the first while the builder (and the order checker) stopped at 8."""
    from types import SimpleNamespace

    from pbem.render.sheet import builder_data, turn_sheet_html, turn_sheet_text
    from tests.render_support import sample_sheet

    sheet = sample_sheet()
    zapper = sheet.robots[0]  # 8 free registers
    sheet.robots[1] = SimpleNamespace(**{**vars(zapper), "name": "Zip", "free_registers": 9, "fused": {}})
    limits = {robot["name"]: (robot["max"], robot["note"]) for robot in builder_data(sheet)["robots"]}
    assert {name: most for name, (most, _) in limits.items()} == {"Zapper": 8, "Zip": 8}
    assert all(note.startswith("up to 8 cards") for _, note in limits.values())
    text, page = turn_sheet_text(sheet), turn_sheet_html(sheet, picture="", builder=False)
    assert "up to 9" not in text + page and text.count("up to 8 cards") == page.count("up to 8 cards") == 2
