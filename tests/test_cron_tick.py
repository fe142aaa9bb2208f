"""Cron ticks that cost what they do (issue #27): `pbem run` and `pbem status` read the stored schedule first
(`pbem.store.due`) and load the engine, rendering and mail only when something is due. The rows' answer is checked
against the engine's at every step of two simulated weeks, and a full pass after a quiet tick must find nothing."""
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
from pbem.store.due import GameTick, RowReader, game_ticks

RUNNER = CliRunner()
T0 = datetime(2026, 12, 1, 20, 0, tzinfo=timezone.utc)


def _engine_tick(session, name: str) -> GameTick:
    """A game's tick as the engine tells it (its state loaded): whether it is over, who is expected."""
    from pbem.store import turns
    from pbem.store.games import get_game
    from pbem.store.schedule import deadline_of, schedule_for

    game = get_game(session, name)
    turn = turns.status(session, name)
    deadline = deadline_of(session, game, turn.turn) if turn.dealt else None
    return GameTick(name, turn.turn, turn.over, turn.dealt, deadline.due_at if deadline else None,
                    deadline.reminded if deadline else (), schedule_for(session, game), turn.waiting_for)


def at(hours: float = 0) -> str:
    return (T0 + timedelta(hours=hours)).isoformat()


@pytest.fixture
def campaign(tmp_path, monkeypatch):
    """The dealt halls game, scheduled: 2-day deadlines, reminders 24 h and 2 h before, processed when all are in."""
    monkeypatch.chdir(tmp_path)
    monkeypatch.delenv("PBEM_MAIL_CONFIG", raising=False)
    url, _ = new_campaign(tmp_path)
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
            assert ticks == [_engine_tick(session, tick.game) for tick in ticks], now  # waiting, over, deadline
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


HEAVY = {"pbem.engine.campaign", "pbem.engine.turn", "pbem.mail.outbox", "pbem.mail.fetch",
         "pbem.gm.cycle", "pbem.store.turns", "pbem.store.games", "jinja2", "PIL", "css_inline", "imaplib", "smtplib", "numba", "yaml", "sqlmodel"}


def test_a_tick_with_nothing_due_imports_no_engine_no_rendering_no_mail(campaign, tmp_path):
    pbem, url = campaign
    assert done(pbem(at(), "run", "--json")) == []
    for command in ("run",):  # `status` reads pauses, holds and faults through the store (no rows-only path yet)
        modules = imported_by("--db", url, "--now", at(1), command, cwd=tmp_path, whole_names=True)
        assert "pbem.store.due" in modules and "sqlalchemy" not in modules
        drawing = {m for m in modules if m.startswith("pbem.render.")} - {"pbem.render.shelf"}  # (every command's)
        assert {m for m in modules if m in HEAVY or m.split(".")[0] in HEAVY} | drawing == set(), command
    # something due (the deadline passed): the same commands load what the work needs
    modules = imported_by("--db", url, "--now", at(48), "run", cwd=tmp_path, whole_names=True)
    assert "pbem.engine.campaign" in modules
