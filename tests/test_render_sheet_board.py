"""The board on the turn sheet is the engine's state at the start of that turn: the same robots on the same
squares facing the same way, the same element states, in the picture, the page and the text map."""
from __future__ import annotations

from email import message_from_bytes, policy

from cycle_fixtures import AT, halls_description

from pbem.gm import cycle
from pbem.gm.setup import create_game
from pbem.render.ascii import ARROWS
from pbem.render.board import position_png
from pbem.render.message import message_bytes
from pbem.render.model import Position
from pbem.render.sheet import board_lines, sheet_png, sheet_position, turn_sheet_html, turn_sheet_message
from pbem.store.games import Store, current_state, get_game


def sheets_and_state(tmp_path):
    store = Store(f"sqlite:///{tmp_path / 'pbem.db'}")
    with store.session() as session:
        create_game(session, halls_description(), AT)
        session.commit()
        _, sheets = cycle.deal(session, "halls")
        state = current_state(session, get_game(session, "halls"))
    store.close()
    return sheets, state


def test_the_sheet_shows_the_board_the_turn_starts_from(tmp_path):
    sheets, state = sheets_and_state(tmp_path)
    for sheet in sheets:
        board = state.board_of(sheet.player)
        position = sheet_position(sheet)
        assert {r.name: (r.at, r.facing, r.hp) for r in position.robots} == \
            {r.name: (r.at, r.facing, r.hp) for r in board.robots.values()}
        assert dict(position.elements) == board.elements and position.room == board.room
        assert sheet_png(sheet) == position_png(Position.of(board.room, board))  # Geek-o: no flag to mark
        text = "\n".join(board_lines(sheet))
        for robot in board.robots.values():
            row = next(line for line in text.splitlines() if line.startswith(f"{robot.at.row:>3} |"))
            assert ARROWS[robot.facing] in row and f"at {robot.at}, facing {robot.facing.name}" in text


def test_the_sheet_page_and_mail_carry_the_picture(tmp_path):
    sheets, _ = sheets_and_state(tmp_path)
    sheet = sheets[0]
    page = turn_sheet_html(sheet)
    assert f'src="{sheet.player}-board.png"' in page and 'width="' in page and "facing N" in page
    message = message_from_bytes(message_bytes(turn_sheet_message(sheet, "gm@example.org")), policy=policy.default)
    pictures = [part for part in message.walk() if part.get_content_type() == "image/png"]
    assert [p.get_content() for p in pictures] == [sheet_png(sheet)]
    html = next(p for p in message.walk() if p.get_content_type() == "text/html").get_content()
    assert f"cid:{pictures[0]['Content-ID'].strip('<>')}" in html
    text = next(p for p in message.walk() if p.get_content_type() == "text/plain").get_content()
    assert "The board: Hall 1" in text and max(len(line) for line in text.splitlines()) <= 72


def test_on_a_shared_board_each_players_mail_marks_their_own_robot_and_names_the_owners():
    from pbem.engine.cards import Card
    from pbem.engine.elements import new_board
    from pbem.engine.geometry import Dir
    from pbem.engine.ruleset import get_ruleset
    from pbem.engine.state import Robot
    from pbem.engine.turn import resolve_turn
    from pbem.formats.rooms import read_room
    from pbem.render.turn import BoardTurn, Recipient, build_turn_report, eml_files
    from tests.conftest import ROOT

    room = read_room(ROOT / "rooms" / "botwars" / "foundry.yaml")
    robots = [Robot("Rusty", "ann", room.starts[0], Dir.N), Robot("Sparky", "ben", room.starts[1], Dir.N)]
    board = new_board(room, robots)
    programs = {"Rusty": [Card.parse("FWD1#500")], "Sparky": [Card.parse("FWD1#490")]}
    result = resolve_turn(board, programs, get_ruleset("botwars"), seed=1, turn=1)
    report = build_turn_report("bw", 1, [BoardTurn(room.name, room, result.snapshots, result.events, result.board,
                                                   ("ann", "ben"))])
    files = eml_files(report, [Recipient("ann", "ann@example.org"), Recipient("ben", "ben@example.org")])
    for player, mine, other in (("ann", "Rusty", "Sparky"), ("ben", "Sparky", "Rusty")):
        message = message_from_bytes(files[player], policy=policy.default)
        html = message.get_body(("html",)).get_content()
        owner = {"Rusty": "ann", "Sparky": "ben"}[other]
        assert 'class="mine"' in html and f">{mine}<br><span" in html and ">yours</span>" in html
        assert f">{other}<br><span" in html and f">{owner}</span>" in html


def test_a_botwars_sheet_rings_the_next_flag_and_asks_for_exactly_the_free_registers(tmp_path):
    from typer.testing import CliRunner

    from pbem.cli import app
    from pbem.render.sheet import turn_sheet_text

    url = f"sqlite:///{tmp_path / 'pbem.db'}"
    result = CliRunner().invoke(app, ["--db", url, "game", "new", "bw", "--ruleset", "botwars", "--player",
                                      "ann:ann@example.org:Rusty", "--player", "ben:ben@example.org:Sparky"])
    assert result.exit_code == 0, result.output
    store = Store(url)
    with store.session() as session:
        _, sheets = cycle.deal(session, "bw")
    store.close()
    sheet = next(s for s in sheets if s.player == "ann")
    position = sheet_position(sheet)
    flag = next(f for f in position.room.of_type("flag") if f.get("number") == 1)
    assert position.marks == (flag.at,) and position.own == ("Rusty",)  # ben's Sparky shares the board
    assert sheet_png(sheet) == position_png(Position.of(sheet.board.room, sheet.board, (flag.at,), ("Rusty",)))
    flag_only = position_png(Position.of(sheet.board.room, sheet.board, (flag.at,)))
    assert sheet_png(sheet) != flag_only != position_png(Position.of(sheet.board.room, sheet.board))  # both drawn
    text = turn_sheet_text(sheet)
    assert "Rusty: real, HP 10, exactly 5 cards" in text and f"next flag for Rusty: 1 at {flag.at}" in text
    assert "B = Sparky (ben)" in text and "A = Rusty (yours)" in text


def test_shared_board_reports_key_each_owners_colour_and_mark_the_readers_own(tmp_path, monkeypatch):
    """#11: on a BotWars board every player's mail says whose robots wear which colour, and which are theirs."""
    from typer.testing import CliRunner

    from pbem.cli import app

    monkeypatch.chdir(tmp_path)
    pbem = lambda *args: CliRunner().invoke(app, ["--db", f"sqlite:///{tmp_path / 'pbem.db'}", *args])
    assert pbem("game", "new", "bw", "--ruleset", "botwars", "--player", "ann:ann@example.org:Rusty",
                "--player", "ben:ben@example.org:Sparky").exit_code == 0
    assert pbem("turn", "deal", "bw").exit_code == 0
    processed = pbem("turn", "process", "bw", "--out", str(tmp_path / "reports"))  # nobody sent orders: B4.6
    assert processed.exit_code == 0, processed.output
    (eml,) = (tmp_path / "reports").rglob("ben.eml")
    mail = message_from_bytes(eml.read_bytes(), policy=policy.default)
    text = mail.get_body(("plain",)).get_content()
    html = mail.get_body(("html",)).get_content()
    assert "Robots: ann: Rusty; yours: Sparky." in text.splitlines()
    assert html.count('class="swatch"') >= 1 and "yours (Sparky)" in html and "ann (Rusty)" in html


def test_the_sheets_of_a_shared_board_draw_its_floor_beams_and_walls_once(tmp_path, monkeypatch):
    """#36: each player's sheet of a shared board drew the room's floor, the beams and the walls again for their
    own rings and marks; now once for the dealt turn's sheets (`board._backdrop`). Each picture is the one drawn
    on its own."""
    from typer.testing import CliRunner

    from pbem.cli import app
    from pbem.render import board
    from pbem.render.sheet import DrawnSheets

    url = f"sqlite:///{tmp_path / 'pbem.db'}"
    result = CliRunner().invoke(app, ["--db", url, "game", "new", "bw", "--ruleset", "botwars", "--player",
                                      "ann:ann@example.org:Rusty", "--player", "ben:ben@example.org:Sparky",
                                      "--player", "cy:cy@example.org:Tinny"])
    assert result.exit_code == 0, result.output
    store = Store(url)
    with store.session() as session:
        _, sheets = cycle.deal(session, "bw")
    store.close()
    floors = [0]
    draw_floor = board.draw_floor

    def counted(position):
        floors[0] += 1
        return draw_floor(position)

    monkeypatch.setattr(board, "draw_floor", counted)
    board._backdrops.clear()
    drawn = DrawnSheets.of(sheets)
    assert len(drawn.pictures) == 3 and floors[0] == 1
    for sheet in sheets:
        board._backdrops.clear()
        assert drawn.pictures[sheet.player] == sheet_png(sheet)
    assert len(set(drawn.pictures.values())) == 3  # each player's own robot ringed
