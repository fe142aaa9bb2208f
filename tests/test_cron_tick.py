"""Cron ticks that cost what they do (issue #27): `pbem run` and `pbem status` read the stored schedule first
(`pbem.store.due`) and load the engine, rendering and mail only when something is due. The rows' answer is checked
against the engine's at every step of simulated days (pauses, review holds, absences and an unreadable inbox
among them), and a full pass after a quiet tick must find nothing."""
from __future__ import annotations

import json
import mailbox
from datetime import datetime, timedelta, timezone

import pytest
from cli_process import imported_by
from cycle_fixtures import order
from mail_fixtures import new_campaign
from sqlmodel import Session, create_engine
from typer.testing import CliRunner

from pbem.cli import app
from pbem.store.due import Inbox, RowReader, game_ticks, inbox_of, quiet_status, stored_tick
from pbem.store.mail import inbox_state, note_inbox

RUNNER = CliRunner()
T0 = datetime(2026, 12, 1, 20, 0, tzinfo=timezone.utc)


def at(hours: float = 0) -> str:
    return (T0 + timedelta(hours=hours)).isoformat()


@pytest.fixture
def campaign(tmp_path, monkeypatch):
    """The dealt halls game, scheduled: 2-day deadlines, reminders 24 h and 2 h before, processed when all are in."""
    monkeypatch.chdir(tmp_path)
    monkeypatch.delenv("PBEM_MAIL_CONFIG", raising=False)
    return scheduled(tmp_path)


def scheduled(tmp_path, url: str | None = None):
    """(pbem at a time, the database's URL): the campaign fixture's game, in `url` when given."""
    url, _ = new_campaign(tmp_path, url)
    mailbox.Maildir(str(tmp_path / "empty"), create=True)  # an inbox with nothing new: forces the full pass

    def pbem(now: str, *args):
        result = RUNNER.invoke(app, ["--db", url, "--now", now, *map(str, args)])
        assert result.exception is None or isinstance(result.exception, SystemExit), result.exception
        return result
    assert pbem(at(), "game", "set", "halls", "--deadline", "2d", "--remind", "24,2", "--process", "all-in") \
        .exit_code == 0
    return pbem, url


def done(result) -> list[tuple[str, int]]:
    assert result.exit_code == 0, result.output
    return [(d["what"], d["turn"]) for d in json.loads(result.stdout)["done"]]


def submit(pbem, now: str, tmp_path, player: str) -> None:
    """`player`'s orders for the current turn: one card for each robot that receives cards."""
    sheet = next(s for s in json.loads(pbem(now, "turn", "deal", "halls", "--json").stdout)["sheets"]
                 if s["player"] == player)
    hand = sheet["hands"][player]
    programs = {r["name"]: hand[i:i + 1] if r["receives_cards"] else [] for i, r in enumerate(sheet["robots"])}
    path = tmp_path / f"{player}-{sheet['turn']}.yaml"
    path.write_bytes(order("halls", sheet["turn"], player, programs))
    assert pbem(now, "turn", "submit", "halls", path).exit_code == 0


def test_the_rows_tell_what_the_engine_tells_and_a_quiet_tick_leaves_nothing_undone(campaign, tmp_path):
    pbem, url = campaign
    engine = create_engine(url)
    kinds = set()
    for step in range(0, 24 * 9, 5):
        now = at(step)
        if step % 48 == 10:
            submit(pbem, now, tmp_path, "alice")
        if step % 96 == 25:
            submit(pbem, now, tmp_path, "bob")
        with RowReader(url) as rows, Session(engine) as session:
            ticks = game_ticks(rows)
            assert ticks == [stored_tick(session, tick.game) for tick in ticks], now  # waiting, over, deadline
        due = ticks[0].due(T0 + timedelta(hours=step))
        quick = done(pbem(now, "run", "--json"))  # no mail to fetch: the rows are asked first
        assert due or not quick, (now, quick)  # (due and nothing to show: the turn's clock started)
        assert done(pbem(now, "run", "--maildir", tmp_path / "empty", "--json")) == []  # the full pass: all done
        kinds.update(what for what, _ in quick)
    assert kinds == {"dealt", "reminded", "processed"}
    assert json.loads(pbem(at(24 * 9), "status", "--json").stdout)["games"][0]["turn"] > 4


def test_status_from_the_rows_is_what_the_engine_says(campaign, tmp_path):
    pbem, _ = campaign
    assert done(pbem(at(), "run", "--json")) == []  # turn 1 was dealt by hand: its clock starts
    submit(pbem, at(1), tmp_path, "alice")
    quiet = json.loads(pbem(at(2), "status", "--json").stdout)  # nothing due: from the rows
    assert quiet["games"][0]["waiting_for"] == ["bob"] and quiet["games"][0]["next"] == "process at 2026-12-03 20:00 UTC"
    loud = json.loads(pbem(at(48), "status", "--json").stdout)  # due: from the engine
    assert loud["games"][0]["next"] == "process the turn"
    assert {k: v for k, v in loud["games"][0].items() if k != "next"} == \
        {k: v for k, v in quiet["games"][0].items() if k != "next"}


def test_status_from_the_rows_is_the_orm_paths_through_pauses_holds_absences_and_an_unreadable_inbox(
        campaign, tmp_path, monkeypatch):
    """At every step of six days: the rows' ticks are the ORM's, `status --json` from the rows is the ORM path's
    byte for byte, and a quiet `run` leaves nothing for a full pass (which fetches nothing, so the inbox fault
    stays). Quiet statuses are seen paused, held for review with its expiry, and with the inbox fault."""
    pbem, url = campaign
    engine = create_engine(url)
    assert pbem(at(), "game", "set", "halls", "--deadline", "2d", "--remind", "24", "--process", "deadline",
                "--review", "--hold", "12").exit_code == 0
    assert pbem(at(), "game", "policy", "halls", "--absence", "pilot").exit_code == 0
    actions = {6: ("game", "pause", "halls"), 15: ("game", "resume", "halls"),
               18: ("game", "away", "halls", "bob", "--from", at(50), "--to", at(70))}
    seen: set[str] = set()
    for step in range(0, 24 * 6, 3):
        now, moment = at(step), T0 + timedelta(hours=step)
        if step in actions:
            assert pbem(now, *actions[step]).exit_code == 0, actions[step]
        if step == 3:
            with Session(engine) as session:
                note_inbox(session, "imap://mail.example.org/INBOX", "connection refused", moment)
                session.commit()
        if step == 30:
            submit(pbem, now, tmp_path, "alice")
        with RowReader(url) as rows, Session(engine) as session:
            assert [t.game for t in game_ticks(rows)] == ["halls"]
            assert game_ticks(rows) == [stored_tick(session, "halls")], now
            found = inbox_state(session)
            assert inbox_of(rows) == (found and Inbox(found.origin, found.error, found.failed_since,
                                                      found.checked_at)), now
        quiet = quiet_status(url, moment) is not None
        from_rows = pbem(now, "status", "--json").stdout
        with monkeypatch.context() as patch:
            patch.setattr("pbem.cli.run.quiet_status", lambda *_: None)
            assert pbem(now, "status", "--json").stdout == from_rows, now
        if quiet:
            shown = json.loads(from_rows)
            game = shown["games"][0]
            seen |= {"paused"} if game["paused"] else set()
            seen |= {"held"} if game["held_at"] and game["hold_expires"] else set()
            seen |= {"inbox"} if shown["inbox"] and shown["inbox"]["failed_since"] else set()
        quick = done(pbem(now, "run", "--json"))
        assert not quiet or quick == [], (now, quick)
        with monkeypatch.context() as patch:
            patch.setattr("pbem.cli.run.quiet_ticks", lambda *_, **__: None)
            assert done(pbem(now, "run", "--no-fetch", "--json")) == [], now  # the full pass: all done
        seen |= {what for what, _ in quick}
    assert seen >= {"paused", "held", "inbox", "piloted", "processed", "reminded"}, seen


HEAVY = {"pbem.engine.campaign", "pbem.engine.turn", "pbem.mail.outbox", "pbem.mail.fetch",
         "pbem.gm.cycle", "pbem.store.turns", "pbem.store.games", "jinja2", "PIL", "css_inline", "imaplib", "smtplib", "numpy", "yaml", "sqlmodel"}


def light(modules: set[str]) -> bool:
    drawing = {m for m in modules if m.startswith("pbem.render.")} - {"pbem.render.shelf"}  # (every command's)
    return "pbem.store.due" in modules and "sqlalchemy" not in modules and \
        {m for m in modules if m in HEAVY or m.split(".")[0] in HEAVY} | drawing == set()


def test_a_tick_with_nothing_due_imports_no_engine_no_rendering_no_mail(campaign, tmp_path):
    pbem, url = campaign
    assert done(pbem(at(), "run", "--json")) == []
    for command in ("run", "status"):
        assert light(imported_by("--db", url, "--now", at(1), command, cwd=tmp_path, whole_names=True)), command
    # something due (the deadline passed): the same commands load what the work needs
    modules = imported_by("--db", url, "--now", at(48), "run", cwd=tmp_path, whole_names=True)
    assert "pbem.engine.campaign" in modules
    # the next due tick, the setup's rooms parsed and kept by the last (the shelf), loads no PyYAML (#36): the sheets'
    # order files and builders are written and read without it; nor the html module, which only notices and match
    # mails escape with
    modules = imported_by("--db", url, "--now", at(96), "run", cwd=tmp_path, whole_names=True)
    assert "pbem.render.sheet" in modules and "yaml" not in modules and "html" not in modules


def test_a_quiet_status_shows_a_review_hold_a_pause_and_an_unreadable_inbox_and_imports_nothing_heavy(
        campaign, tmp_path):
    pbem, url = campaign
    assert pbem(at(), "game", "set", "halls", "--deadline", "2d", "--review", "--hold", "12").exit_code == 0
    assert done(pbem(at(), "run", "--json")) == []
    assert done(pbem(at(48), "run", "--json")) == [("held", 1)]
    with Session(create_engine(url)) as session:
        note_inbox(session, "imap://mail.example.org/INBOX", "connection refused", T0 + timedelta(hours=49))
        session.commit()
    held = pbem(at(50), "status").stdout
    assert "held for review since 2026-12-03 20:00 UTC until pbem turn approve halls or 2026-12-04 08:00 UTC" in held
    assert "inbox imap://mail.example.org/INBOX: cannot be read since 2026-12-03T21:00 UTC (connection refused)" in held
    assert light(imported_by("--db", url, "--now", at(50), "status", cwd=tmp_path, whole_names=True))
    assert pbem(at(51), "game", "pause", "halls").exit_code == 0
    assert "next: nothing: paused since 2026-12-03 23:00 UTC" in pbem(at(70), "status").stdout  # the hold expired
    assert light(imported_by("--db", url, "--now", at(70), "status", cwd=tmp_path, whole_names=True))


@pytest.mark.parametrize("backend", ["sqlite", "postgresql"])
def test_a_quiet_status_from_the_rows_is_the_orm_paths_on_both_databases(backend, request, tmp_path, monkeypatch):
    """PostgreSQL gives the rows back typed (datetimes, booleans), SQLite as text and integers: the same status."""
    monkeypatch.chdir(tmp_path)
    monkeypatch.delenv("PBEM_MAIL_CONFIG", raising=False)
    pbem, url = scheduled(tmp_path, request.getfixturevalue("pg_server").new_database()
                          if backend == "postgresql" else None)
    assert pbem(at(), "game", "set", "halls", "--deadline", "2d", "--review", "--hold", "12").exit_code == 0
    assert pbem(at(), "game", "away", "halls", "bob", "--from", at(100), "--to", at(110)).exit_code == 0
    assert done(pbem(at(), "run", "--json")) == []
    assert done(pbem(at(48), "run", "--json")) == [("held", 1)]
    with Session(create_engine(url)) as session:
        note_inbox(session, "imap://mail.example.org/INBOX", "connection refused", T0 + timedelta(hours=49))
        session.commit()
    for hours, action in ((50, None), (52, ("game", "pause", "halls")), (70, None)):
        if action:
            assert pbem(at(hours - 1), *action).exit_code == 0
        assert quiet_status(url, T0 + timedelta(hours=hours)) is not None, hours
        from_rows = json.loads(pbem(at(hours), "status", "--json").stdout)
        with monkeypatch.context() as patch:
            patch.setattr("pbem.cli.run.quiet_status", lambda *_: None)
            assert json.loads(pbem(at(hours), "status", "--json").stdout) == from_rows, hours
        game = from_rows["games"][0]
        assert game["held_at"] == at(48) and from_rows["inbox"]["failed_since"] == at(49), hours
        assert (game["paused"] is not None) == (hours > 50), hours


@pytest.mark.parametrize("backend", ["sqlite", "postgresql"])
def test_a_death_match_keeps_the_tick_quiet_until_its_deadline_row_says_due(backend, request, tmp_path, monkeypatch):
    """Issue #33: a match writes its one deadline row whenever its position changes, so the rows tell when `pbem
    run` has something to do for it (an Ice match's 10-minute buzz window, D2, passing with nobody acting); a
    quiet `run` and `status` with a campaign and a match import nothing heavy, and the status from the rows is the
    full path's."""
    monkeypatch.chdir(tmp_path)
    monkeypatch.delenv("PBEM_MAIL_CONFIG", raising=False)
    pbem, url = scheduled(tmp_path, request.getfixturevalue("pg_server").new_database()
                          if backend == "postgresql" else None)
    assert pbem(at(), "dm", "new", "i1", "--game", "ice", "--player", "ann", "--player", "bob", "--option",
                f"start={at()}", "--option", "size=6x6", "--out", tmp_path).exit_code == 0
    assert pbem(at(), "mail", "dm-player", "i1", "ann", "ann@example.org").exit_code == 0  # opened at once
    assert done(pbem(at(), "run", "--json")) == []  # the campaign dealt, its clock running; the match opened
    window = T0 + timedelta(minutes=10)
    quiet = quiet_status(url, window - timedelta(seconds=1))
    assert quiet is not None and [(m.match, m.due_at) for m in quiet.matches] == [("i1", window)]
    from_rows = json.loads(pbem(at(0.1), "status", "--json").stdout)
    with monkeypatch.context() as patch:
        patch.setattr("pbem.cli.run.quiet_status", lambda *_: None)
        assert json.loads(pbem(at(0.1), "status", "--json").stdout) == from_rows
    assert from_rows["matches"][0]["next"] == "at 2026-12-01 20:10:00 UTC: nobody buzzed for maze 1: the round is junked"
    if backend == "sqlite":
        for command in ("run", "status"):
            assert light(imported_by("--db", url, "--now", at(0.1), command, cwd=tmp_path, whole_names=True)), command
    assert quiet_status(url, window) is None  # the window closes: due
    assert [what for what, _ in done(pbem(at(0.2), "run", "--json"))] == ["deadline"]
    assert quiet_status(url, window + timedelta(minutes=2)) is not None  # applied once; the next window runs
