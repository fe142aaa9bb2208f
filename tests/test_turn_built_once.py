"""#36: a due tick builds each processed turn's report, animation and mails once, and shares them between the
outbox and the report folder (they were built twice: once for the mails, again for the folder). The builders are
counted by wrapping them, and the mails queued are the very bytes of the folder's .eml files."""
from __future__ import annotations

import email.policy
import json
import re
from collections import Counter
from email import message_from_bytes

import pytest
from cycle_fixtures import two_halls
from sqlmodel import Session, create_engine, select
from typer.testing import CliRunner

from pbem.cli import app
from pbem.store.mail import MailOutgoing

RUNNER = CliRunner()


@pytest.fixture
def counted(monkeypatch) -> Counter[str]:
    """How often each builder of a turn's report ran (by name), from now on."""
    import pbem.render.animation as animation
    import pbem.render.history as history
    import pbem.render.turn as turn

    calls: Counter[str] = Counter()

    def counting(module, name):
        original = getattr(module, name)

        def wrapper(*args, **kwargs):
            calls[name] += 1
            return original(*args, **kwargs)
        monkeypatch.setattr(module, name, wrapper)
    counting(history, "build_turn_report")
    counting(animation, "turn_gif")  # render.turn imports it where a picture is drawn (#36)
    counting(turn, "player_message")  # one per distinct mail body
    return calls


def run(url: str, now: str) -> list[dict]:
    result = RUNNER.invoke(app, ["--db", url, "--now", now, "run", "--json", "--out", "reports"])
    assert result.exit_code == 0, result.output
    return json.loads(result.stdout)["done"]


def dealt_halls(tmp_path, monkeypatch) -> str:
    """Two hall games scheduled with 2-day deadlines, their first turn dealt by a run at 2026-12-01 20:00 (clocks
    started, sheets mailed and kept); the database's URL."""
    monkeypatch.chdir(tmp_path)
    url = two_halls(tmp_path)
    for game in ("halls", "keep"):
        assert RUNNER.invoke(app, ["--db", url, "game", "set", game, "--deadline", "2d"]).exit_code == 0
    run(url, "2026-12-01T20:00Z")
    return url


def test_a_due_tick_builds_each_turns_report_animation_and_mails_once(tmp_path, monkeypatch, counted):
    url = dealt_halls(tmp_path, monkeypatch)
    assert not counted
    done = run(url, "2026-12-04T20:00Z")  # both due: processed with nobody's orders (B4.6)
    assert sorted(d["game"] for d in done if d["what"] == "processed") == ["halls", "keep"]
    boards = 2  # Geek-o: each of the two players on a board of their own
    assert counted == {"build_turn_report": 2, "turn_gif": 2 * boards, "player_message": 2 * boards}
    engine = create_engine(url)
    with Session(engine) as session:
        queued = {(row.recipient, row.subject): row.data for row in session.exec(select(MailOutgoing))
                  if row.purpose == "report"}
    engine.dispose()
    for game in ("halls", "keep"):
        for path in sorted((tmp_path / "reports" / game / "turn-001" / "mail").glob("*.eml")):
            folder_mail = path.read_bytes()
            header = message_from_bytes(folder_mail)
            assert queued[(header["To"], header["Subject"])] == folder_mail, path
    assert len(queued) == 4


def test_a_due_tick_draws_each_turn_sheets_picture_once_for_the_mail_and_the_folder(tmp_path, monkeypatch):
    """The sheets of the dealt turn were built and drawn twice, for the mails and again for OUT/…/sheets/."""
    import pbem.gm.reports as reports
    import pbem.render.sheet as sheet

    drawn: Counter[tuple[str, int, str]] = Counter()
    original = sheet.sheet_png

    def counting(turn_sheet, *args, **kwargs):
        drawn[(turn_sheet.game, turn_sheet.turn, turn_sheet.player)] += 1
        return original(turn_sheet, *args, **kwargs)
    monkeypatch.setattr(sheet, "sheet_png", counting)
    monkeypatch.setattr(reports, "sheet_png", counting, raising=False)  # where the folder's pictures were drawn
    url = dealt_halls(tmp_path, monkeypatch)
    run(url, "2026-12-04T20:00Z")  # turn 1 processed, turn 2 dealt: its sheets mailed and kept
    assert set(drawn.values()) == {1} and {turn for _, turn, _ in drawn} == {1, 2}, drawn
    engine = create_engine(url)
    with Session(engine) as session:
        mailed = {(row.recipient, row.subject): row.data for row in session.exec(select(MailOutgoing))
                  if row.purpose == "sheet"}
    engine.dispose()
    assert len(mailed) == len(drawn)
    for data in mailed.values():
        message = message_from_bytes(data)
        game, turn, player = re.match(r"(\S+): turn (\d+) cards for (\S+)", message["Subject"]).groups()
        picture = next(p.get_payload(decode=True) for p in message.walk() if p.get_content_type() == "image/png")
        kept = tmp_path / "reports" / game / f"turn-{int(turn):03}" / "sheets" / f"{player}-board.png"
        assert kept.read_bytes() == picture, kept


def test_a_due_tick_decodes_each_stored_state_once_per_game(tmp_path, monkeypatch):
    """#36: a due game's stored states were decoded five times a tick (the game's step, who is waited for, the turn
    played, the next dealt, the end told: the same two snapshots parsed again); now the state before the turn and
    the state after it once each, the same decoded state handed down."""
    import pbem.store.states as states
    from pbem.engine.campaign import GameState

    decoded: Counter[tuple[str, int]] = Counter()
    original = states.from_data

    def counting(kind, data, *args, **kwargs):
        value = original(kind, data, *args, **kwargs)
        if kind is GameState:
            decoded[(value.setup.name, value.turn)] += 1
        return value
    url = dealt_halls(tmp_path, monkeypatch)
    monkeypatch.setattr(states, "from_data", counting)
    done = run(url, "2026-12-04T20:00Z")  # both due: processed with nobody's orders (B4.6), turn 2 dealt
    assert sorted(d["game"] for d in done if d["what"] == "processed") == ["halls", "keep"]
    assert decoded == {(game, turn): 1 for game in ("halls", "keep") for turn in (1, 2)}, decoded
    decoded.clear()
    run(url, "2026-12-05T10:00Z")  # nothing due (the reminder comes at 20:00): no state read at all
    assert not decoded


def test_a_due_tick_reads_each_room_and_deck_once_for_every_game_playing_it(tmp_path, monkeypatch):
    """#36: every game's stored setup parsed its rooms and deck from their YAML again (the same bundled rooms, game
    after game, and their pictures drawn or fetched from the shelf again for the new room objects); now a room or
    deck's text is parsed once per process, and the games share the (immutable) result."""
    import pbem.store.states as states

    parsed: Counter[str] = Counter()

    def counting(read):
        def wrapper(data, source):
            parsed[source] += 1
            return read(data, source)
        return wrapper
    url = dealt_halls(tmp_path, monkeypatch)
    states.load_setup.cache_clear()  # as in a new process: nothing parsed yet
    states._parsed.cache_clear()
    monkeypatch.setattr(states, "load_room", counting(states.load_room))
    monkeypatch.setattr(states, "parse_deck", counting(states.parse_deck))
    done = run(url, "2026-12-04T20:00Z")  # both due: processed, the next turn dealt
    assert sorted(d["game"] for d in done if d["what"] == "processed") == ["halls", "keep"]
    assert parsed and set(parsed.values()) == {1}, parsed


def test_a_due_tick_writes_each_text_sheet_and_reads_each_order_file_once(tmp_path, monkeypatch):
    """#36: the dealt turn's text sheets were written twice (for the mail and again for OUT/…/sheets/), and each
    pre-filled order file read as YAML twice (for the mailed page's order builder and the kept page's); now each is
    read once, and pbem's own `option_hp` line without YAML."""
    import yaml

    import pbem.render.sheet as sheet

    written: Counter[tuple[str, int, str]] = Counter()
    read: Counter[str] = Counter()
    original_text, original_load = sheet.turn_sheet_text, yaml.safe_load

    def counting_text(turn_sheet):
        written[(turn_sheet.game, turn_sheet.turn, turn_sheet.player)] += 1
        return original_text(turn_sheet)

    def counting_load(text, *args, **kwargs):
        read[text] += 1
        return original_load(text, *args, **kwargs)
    sheet._option_hp.cache_clear()  # as in a new process
    monkeypatch.setattr(sheet, "turn_sheet_text", counting_text)
    monkeypatch.setattr(yaml, "safe_load", counting_load)
    url = dealt_halls(tmp_path, monkeypatch)
    run(url, "2026-12-04T20:00Z")  # turn 1 processed, turn 2 dealt: its sheets mailed and kept
    assert len(written) == 8 and set(written.values()) == {1}, written  # two games, two players, two turns
    assert sheet._option_hp.cache_info().misses == 8  # each order file read once
    assert not [text for text in read if text.startswith("game:")]  # and none of them as YAML
    engine = create_engine(url)
    with Session(engine) as session:
        mailed = [message_from_bytes(row.data, policy=email.policy.default)
                  for row in session.exec(select(MailOutgoing)) if row.purpose == "sheet"]
    engine.dispose()
    assert len(mailed) == len(written)
    for message in mailed:  # the text mailed is the text kept
        game, turn, player = re.match(r"(\S+): turn (\d+) cards for (\S+)", message["Subject"]).groups()
        kept = tmp_path / "reports" / game / f"turn-{int(turn):03}" / "sheets" / f"{player}.txt"
        text = message.get_body(("plain",)).get_content()
        assert text.replace("\r\n", "\n").rstrip("\n") == kept.read_text().rstrip("\n"), kept


def test_a_due_tick_reads_each_games_controls_once_a_transaction(tmp_path, monkeypatch):
    """#36: a due game's history of GM controls was read ~9 times a tick (ended? paused? its observers, seats and
    policies, each a query of the same rows); now once a transaction, and read again after a control is recorded."""
    from cycle_fixtures import AT
    from sqlalchemy import event
    from sqlalchemy.engine import Engine

    from pbem.formats.controls import Control
    from pbem.store.controls import paused, record
    from pbem.store.games import Store, get_game

    read: list[str] = []

    def counting(conn, cursor, statement, *args):
        if statement.startswith("SELECT gm_events.id"):  # the ORM's read (the quiet tick's plain SQL aside)
            read.append(statement)
    url = dealt_halls(tmp_path, monkeypatch)
    event.listen(Engine, "before_cursor_execute", counting)
    try:
        done = run(url, "2026-12-04T20:00Z")  # both due: processed, the next turn dealt
    finally:
        event.remove(Engine, "before_cursor_execute", counting)
    assert sorted(d["game"] for d in done if d["what"] == "processed") == ["halls", "keep"]
    assert len(read) == 2, read
    store = Store(url)
    with store.session() as session:  # a control recorded is in the history read next, in the same transaction
        game = get_game(session, "halls")
        assert paused(session, game) is None
        record(session, game, Control.PAUSE, AT, turn=2, remaining=None)
        assert paused(session, game) is not None
        session.rollback()  # and a new transaction reads the history again
        assert paused(session, game) is None
    store.close()


def test_a_due_tick_looks_up_each_game_its_players_hands_and_orders_once_a_transaction(tmp_path, monkeypatch):
    """#36: a due game was looked up by name six times a tick and its players six times, each player's order
    versions were a query of their own (twice: who is waited for, the orders played), whether the turn was dealt
    was asked five times, each hand dealt inserted alone, and the game locked twice in one transaction (`pbem run`
    locks it to look at it, the turn played locks it again). Now each is read once a transaction (the turn's
    commit starts another, for the report folder), the versions in one query, the hands in one statement."""
    from sqlalchemy import event
    from sqlalchemy.engine import Engine

    statements: Counter[str] = Counter()
    kinds = {"SELECT games.id": "game", "SELECT players.id": "players", "SELECT order_versions.id": "versions",
             "SELECT dealt_hands.id": "dealt?", "INSERT INTO dealt_hands": "hands", "UPDATE games": "lock",
             "SELECT state_snapshots.id": "state", "SELECT turns.number": "last turn"}

    def counting(conn, cursor, statement, *args):
        statements.update(kind for start, kind in kinds.items() if statement.startswith(start))
    url = dealt_halls(tmp_path, monkeypatch)
    event.listen(Engine, "before_cursor_execute", counting)
    try:
        done = run(url, "2026-12-04T20:00Z")  # both due: processed, turn 2 dealt
    finally:
        event.remove(Engine, "before_cursor_execute", counting)
    assert sorted(d["game"] for d in done if d["what"] == "processed") == ["halls", "keep"]
    per_game = {kind: count / 2 for kind, count in statements.items()}
    # twice where the report folder's transaction reads again; the states before and after the turn, and whether
    # the state before is stored already
    assert per_game == {"game": 2, "players": 2, "versions": 1, "dealt?": 2, "hands": 1, "lock": 1, "state": 3,
                        "last turn": 2}, per_game


def test_a_messages_header_classes_are_made_once_a_process():
    """#36: the standard header registry makes a new class for every header it parses (~50 a message, a few
    percent of a due game); the messages' policy makes each once, and writes the same bytes (the due tick's outbox
    and .eml files are compared with main's in BENCHMARKS.md)."""
    from pbem.render.message import message_bytes, report_message

    def mail(to: str):
        return report_message(sender="gm@example.org", recipient=to, subject="halls: turn 1 report", text="Turn 1.",
                              html="<p>Turn 1.</p>", images={})
    ann, bob = mail("ann@example.org"), mail("Bob <bob@example.org>")
    assert type(ann["To"]) is type(bob["To"]) and type(ann["Subject"]) is type(bob["Subject"])
    assert b"\r\nTo: Bob <bob@example.org>\r\n" in message_bytes(bob)
