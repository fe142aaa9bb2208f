"""Stage reports from the engine's events and snapshots (DESIGN.md "Reports", seed 003's tables):
the rows, the text tables, the pages, the emails and the site.

Expected rows are worked out by hand from the sample turn (tests/render_support.py): RULES B5
orders each stage — cards by priority (B3.2), then belts (B6b.1), then lasers (B6b.5).
"""
from __future__ import annotations

import email
import re
from email import policy

import pytest

from pbem.render.message import message_bytes
from pbem.render.model import NONE, board_report
from pbem.render.site import GameHistory, Summary, write_site
from pbem.render.text import table_text
from pbem.render.turn import Recipient, build_turn_report, eml_files, player_message, write_turn_report
from tests.render_support import SCRIPT, link_targets, sample_board_turn


@pytest.fixture(scope="module")
def board_turn():
    return sample_board_turn()


@pytest.fixture(scope="module")
def report(board_turn):
    return board_report(board_turn.title, board_turn.room, board_turn.snapshots, board_turn.events,
                        board_turn.final)


@pytest.fixture(scope="module")
def turn_report(board_turn):
    return build_turn_report("Geek-o <2026>", 1, [board_turn])


def rows(table) -> dict[str, list[list[str]]]:
    return {row.label: row.cells for row in table.rows}


def test_render_report_stage_rows_follow_seed_003(report):
    """Seed 003: NAME, MODE, CARDS, the outcome of the moves, mechanisms, "-1 HP", HP."""
    assert len(report.stages) == 3
    first = report.stages[0].table
    assert first.columns == ["Zapper", SCRIPT]
    assert [r.label for r in first.rows] == ["MODE", "CARDS", "MOVE", "MECHANISMS", "DAMAGE", "HP"]
    one = rows(first)
    assert one["CARDS"] == [["FWD2#700"], ["FWD1#490"]]
    assert one["MOVE"] == [["r6c1 → r4c1"], ["r6c5 → r5c5", "presses s1: on"]]  # B6.7: moving onto it
    assert one["MECHANISMS"] == [["conveyor r4c1 → r4c2"], [NONE]]  # B6b.1, phase 3
    assert first.notes == ["trap door r2c3 now open (s1)"]
    two = rows(report.stages[1].table)
    # B6b.1: the express belt moves first, then the turning belt both rotates and moves it.
    assert two["MECHANISMS"][0] == ["express conveyor r4c2 → r4c3", "turned E → N by the conveyor",
                                    "conveyor r4c3 → r3c3"]
    three = rows(report.stages[2].table)
    assert three["MODE"] == [["destroyed"], ["real"]]  # B6.5: the open trap door
    assert three["MOVE"][0] == ["r3c3 → r2c3", "falls into the trap door at r2c3", "DESTROYED (trap door)"]
    assert three["DAMAGE"][1] == ["-1 HP (laser r1c6)", "register 9 fuses (empty)"]  # B6b.5, B7.1 geeko
    assert three["HP"][1] == ["9"]


def test_render_report_end_of_turn_and_fused_tables(report):
    end = rows(report.end_of_turn)
    assert list(end) == ["MODE", "REINSTATE", "UPGRADES", "OPTIONS", "REBOOT/HP"]  # as DESIGN.md "Reports" lists them
    assert end["UPGRADES"] == end["OPTIONS"] == [["—"], ["—"]]
    assert end["REBOOT/HP"] == [["HP 9"], ["HP 9"]]
    fused = report.fused
    assert fused.columns == ["Zapper", SCRIPT]
    assert rows(fused) == {"REGISTER 9": [["FWD1#600"], ["(empty)"]]}


def test_render_report_text_table_lines_up(report):
    text = table_text(report.stages[2].table)
    lines = text.splitlines()
    assert lines[0] == "Stage 3"
    assert len({len(line) for line in lines[1:]}) == 1  # every row as wide as the frame
    assert "| DAMAGE     | —" in text and "-1 HP (laser r1c6)" in text


def test_render_report_escapes_typed_names(turn_report, tmp_path):
    """A robot named <script>… appears as text, never as markup."""
    write_turn_report(tmp_path, turn_report)
    for page in tmp_path.glob("*.html"):
        html = page.read_text()
        assert "<script" not in html, page.name
    assert "&lt;script&gt;alert(1)&lt;/script&gt;" in (tmp_path / "index.html").read_text()
    assert "Geek-o &lt;2026&gt;" in (tmp_path / "index.html").read_text()


def _parse(data: bytes) -> email.message.EmailMessage:
    return email.message_from_bytes(data, policy=policy.default)


def test_render_report_email_parts_and_inline_images(turn_report):
    data = message_bytes(player_message(turn_report, Recipient("alice", "Alice <alice@example.org>")))
    message = _parse(data)
    assert message["To"] == "Alice <alice@example.org>"
    assert message.get_content_type() == "multipart/alternative"
    text, related = message.get_payload()
    assert text.get_content_type() == "text/plain" and related.get_content_type() == "multipart/related"
    assert "| CARDS      | FWD2#700" in text.get_content()
    html_part, *pictures = related.get_payload()
    html = html_part.get_content()
    kept = re.findall(r"<style>(.*?)</style>", html, re.S)  # CSS inlined for mail readers; a phone's @media kept
    assert 'style="' in html and all(block.strip().startswith("@media") for block in kept)
    cids = re.findall(r'src="cid:([^"]+)"', html)
    assert len(cids) == 1  # the animated turn: the stage pictures are on the site (issue #24, under 200 KB)
    assert "Stage 3" in html and "End of turn" in html and "| HP " in text.get_content()  # every table stays
    by_cid = {p["Content-ID"].strip("<>"): p for p in pictures}
    assert set(cids) == set(by_cid)
    for cid in cids:
        picture = by_cid[cid].get_content()
        assert picture.startswith((b"\x89PNG", b"GIF89a")) and picture == turn_report.images[cid.removesuffix("@pbem")]
        assert by_cid[cid].get_content_subtype() == ("gif" if cid.endswith(".gif@pbem") else "png")
    assert "&lt;script&gt;" in html and "<script" not in html


def test_render_report_email_is_deterministic(board_turn):
    """Same turn, same bytes: boundaries and Message-ID come from the content, no Date is written."""
    one = message_bytes(player_message(build_turn_report("g", 1, [board_turn]), Recipient("alice", "a@x.org")))
    two = message_bytes(player_message(build_turn_report("g", 1, [board_turn]), Recipient("alice", "a@x.org")))
    assert one == two
    assert b"\r\nDate:" not in one and re.search(rb"Message-ID: <[0-9a-f]{32}@pbem>", one)


def test_render_report_email_bytes_are_the_standard_generators(turn_report):
    """`message_bytes` writes pictures from their stored bytes and line ends in one pass: the same bytes as the
    standard library's own serialisation of the message."""
    from email.policy import SMTP

    message = player_message(turn_report, Recipient("alice", "a@x.org"))
    assert message_bytes(message) == message.as_bytes(policy=SMTP)


def test_render_report_email_only_for_the_players_boards(board_turn):
    """G2: a Geek-o player sees their own room only; a player with no board this turn gets no email."""
    report = build_turn_report("g", 1, [board_turn])
    bob = _parse(message_bytes(player_message(report, Recipient("bob", "b@x.org"))))
    assert "Zapper" not in bob.get_body(("plain",)).get_content()
    files = eml_files(report, [Recipient("alice", "a@x.org"), Recipient("bob", "b@x.org")])
    assert list(files) == ["alice"]


def test_render_report_turn_folder(tmp_path):
    turn_report = build_turn_report("g", 1, [sample_board_turn((SCRIPT,))])
    files = write_turn_report(tmp_path, turn_report, [Recipient(SCRIPT, "x@example.org")])
    names = {p.relative_to(tmp_path).as_posix() for p in files}
    assert {"index.html", "stage-1.html", "stage-2.html", "stage-3.html", "final.html", "legend.png",
            "board1-stage1.png", "board1-final.png"} <= names
    assert "mail/script-alert-1-script.eml" in names  # typed names never become paths as they are
    for page in tmp_path.glob("*.html"):
        for target in link_targets(page):
            assert (tmp_path / target).exists(), f"{page.name} links to missing {target}"


def test_render_report_turn_folder_written_again_leaves_identical_files_and_replaces_the_rest(board_turn, tmp_path):
    """A turn processed again after a rollback: files that come out the same are not rewritten (mtime kept),
    a file that differs gets the new content, and every file is still listed."""
    import os

    first = write_turn_report(tmp_path, build_turn_report("g", 1, [board_turn]))
    for path in first:
        os.utime(path, ns=(0, 0))
    (tmp_path / "stage-1.html").write_text("stale")
    again = write_turn_report(tmp_path, build_turn_report("g", 1, [board_turn]))
    assert again == first
    assert [p.name for p in again if p.stat().st_mtime_ns != 0] == ["stage-1.html"]
    assert "stale" not in (tmp_path / "stage-1.html").read_text()
    (tmp_path / "index.html").unlink()
    (tmp_path / "index.html").symlink_to(tmp_path / "elsewhere.html")  # a link is written through, and kept
    renamed = write_turn_report(tmp_path, build_turn_report("renamed", 1, [board_turn]))
    assert "renamed" in (tmp_path / "elsewhere.html").read_text() and len(renamed) == len(first)
    assert (tmp_path / "index.html").is_symlink()


def test_render_report_site_navigation(board_turn, tmp_path):
    turns = [build_turn_report("Geek-o <2026>", n, [board_turn]) for n in (1, 2)]
    write_site(tmp_path, [GameHistory("Geek-o <2026>", turns, Summary([{"place": 1, "player": "alice", "rooms_done": 2, "turns": None}]))])
    pages = sorted(tmp_path.rglob("*.html"))
    assert len(pages) == 1 + 1 + 1 + 2 * 5  # the games, the rules, the game, 2 turns of 5 pages
    for page in pages:
        for target in link_targets(page):
            assert (page.parent / target).resolve().exists(), f"{page} links to missing {target}"
    game = tmp_path / "Geek-o-2026"
    last_of_first = link_targets(game / "turn-001" / "final.html")
    assert "../turn-002/stage-1.html" in last_of_first  # "next" runs on into the next turn
    assert "../turn-001/final.html" in link_targets(game / "turn-002" / "stage-1.html")
    assert "legend.png" in link_targets(game / "turn-002" / "stage-1.html")  # what the pictures show
    index = (game / "index.html").read_text()
    assert "Geek-o standings" in index and "<td>alice</td>" in index


def test_render_report_shared_bodies_give_the_same_bytes_as_single_messages(board_turn):
    """Players with the same boards share one serialised body; each file is still exactly the
    message `player_message` builds for that player (the mail sender uses that one)."""
    report = build_turn_report("g", 1, [sample_board_turn(("alice", "bob"))])
    recipients = [Recipient("alice", "Alice <a@x.org>"), Recipient("bob", "b@x.org")]
    files = eml_files(report, recipients)
    assert list(files) == ["alice", "bob"]
    for recipient, data in zip(recipients, files.values()):
        assert data == message_bytes(player_message(report, recipient))
        parsed = _parse(data)
        assert parsed["To"] == recipient.address and recipient.player in parsed["Subject"]
    assert _parse(files["alice"])["Message-ID"] != _parse(files["bob"])["Message-ID"]


def test_render_report_turn_sheet_page_text_and_email():
    """DESIGN.md "Reports": HP, fused registers, the dealt hand with card numbers, the order file."""
    from pbem.render.sheet import turn_sheet_html, turn_sheet_message, turn_sheet_text
    from tests.render_support import sample_sheet

    sheet = sample_sheet()
    text = turn_sheet_text(sheet)
    assert "Zapper: real, HP 9, up to 8 cards" in text
    assert "    fused register 9: FWD1#600" in text
    assert f"{SCRIPT}: in-transit, HP 10, no program this turn: in\n  transit: 1 turn to go before it is back (G5)" \
        in text and max(len(line) for line in text.splitlines()) <= 78 and "The board: Sample Works" in text and "  A = Zapper (yours) at r6c1, facing N, HP 9" in text
    assert "Hand: FWD3#840 FWD2#700 RT90#80" in text and text.endswith(sheet.orders)
    page = turn_sheet_html(sheet)
    assert SCRIPT not in page and "game: Geek-o &lt;2026&gt;" in page  # a typed name stays text, builder data too
    assert "<script" not in turn_sheet_html(sheet, builder=False)  # the mail body's page: mail programs drop scripts
    assert page.count('<span class="card">') == 8
    message = _parse(message_bytes(turn_sheet_message(sheet, "gm@x.org")))
    assert message["To"] == "alice@example.org" and "turn 2" in message["Subject"]
    assert message.get_body(("plain",)).get_content().replace("\r\n", "\n").rstrip("\n") == text.rstrip("\n")


def test_render_report_next_flag_row_on_boards_with_flags(board_turn):
    """B5.9 botwars: flags are touched in order; the end-of-turn table says which one is next."""
    from dataclasses import replace

    from tests.render_support import element

    room = replace(board_turn.room, elements=board_turn.room.elements + (element("flag", "r1c1", number=1),))
    final = replace(board_turn.final.copy(), room=room)  # a copy: the fixture is shared
    final.robots["Zapper"].next_flag = 2
    report = board_report("t", room, board_turn.snapshots, board_turn.events, final)
    assert rows(report.end_of_turn)["NEXT FLAG"] == [["all touched"], ["1"]]


def test_render_report_destroyed_robot_left_as_a_wreck_where_it_fell(report):
    """B8.1: a destroyed robot is removed from the board; the later pictures of the turn show a wreck
    on the square where it fell, so players see what happened."""
    zapper = report.final.robot("Zapper")
    assert zapper.mode == "destroyed" and str(zapper.at) == "r2c3"  # the open trap door, stage 3
    assert all(str(s.position.robot("Zapper").at) != "r2c3" for s in report.stages)


def test_render_report_text_table_of_many_robots_comes_in_blocks():
    """Eight BotWars robots do not make a 300-column line: the table is cut into blocks of robots."""
    from pbem.render.model import Row, Table
    from pbem.render.text import MAX_WIDTH

    names = [f"Robot number {i}" for i in range(1, 9)]
    table = Table("Stage 1", names, [Row("CARDS", [[f"FWD1#{490 + 10 * i}"] for i in range(8)]),
                                     Row("MOVE", [["r12c2 → r11c2", "pushed by Robot number 3 r11c2 → r10c2"]] * 8)])
    lines = table_text(table).splitlines()
    assert max(len(line) for line in lines) <= MAX_WIDTH
    assert sum(line.startswith("| NAME ") for line in lines) > 1  # several blocks, each labelled
    text = "\n".join(lines)
    assert all(name in text for name in names) and text.count("FWD1#") == 8


def test_render_report_buzzsaw_note_says_what_the_number_is():
    """B6b.6: a saw spins when its draw is above the threshold; the note says the number is the draw."""
    from pbem.engine.events import SawSpun
    from pbem.engine.geometry import Square
    from pbem.render.model import describe

    assert describe(SawSpun(2, None, Square.parse("r4c9"), "buzzsaw@r4c9", "0.7682")) == \
        "the buzzsaw at r4c9 spins"


def test_b4_6_a_player_played_by_the_bot_is_told_so():
    from pbem.render.model import missed_note
    note = missed_note({"Zapper": ["FWD2#700"], "Spanner": ["FWD1#500"]}, "bot")
    assert note[0].endswith("your robots were played by the bot:")
    assert note[1:] == ["  Spanner: FWD1#500", "  Zapper: FWD2#700"]
