"""#36: the due games shared by workers on one PostgreSQL. Two `pbem run` started together (two hosts, or cron
overlapping) over 20 due games: each game claimed by one of them (a per-game advisory lock), so every turn is
processed once, every message reaches the loopback SMTP server once, and both runs did part of the work."""
from __future__ import annotations

import json
import os
import subprocess
import sys
from email import message_from_bytes
from pathlib import Path

import pytest
from cycle_fixtures import AT, halls_description
from mail_fixtures import new_campaign
from mail_servers import HOST, PASSWORD, USER, SmtpServer, certificate
from sqlmodel import Session, create_engine, select

from pbem.formats.schedule import Schedule
from pbem.gm import cycle
from pbem.gm.setup import create_game
from pbem.store.games import Store
from pbem.store.mail import MailOutgoing
from pbem.store.runlock import claims_games, game_claims
from pbem.store.schedule import set_schedule
from pbem.store.tables import Turn

ROOT = Path(__file__).resolve().parent.parent
T0 = "2026-12-01T20:00:00+00:00"
DUE = "2026-12-06T20:00:00+00:00"
GAMES = [f"halls{n:02}" for n in range(20)]


def pbem(url: str, now: str, *args: str, cwd: Path, env: dict[str, str]) -> subprocess.Popen:
    return subprocess.Popen([sys.executable, "-m", "pbem", "--db", url, "--now", now, *args], cwd=cwd,
                            env={**os.environ, "PYTHONPATH": str(ROOT), **env}, stdout=subprocess.PIPE,
                            stderr=subprocess.PIPE, text=True)


def scheduled_games(url: str, names: list[str] = GAMES) -> None:
    """Dealt hall games (20 unless named), each on the default schedule (due five days after the first run)."""
    store = Store(url)
    try:
        with store.session() as session:
            for name in names:
                create_game(session, halls_description(name), AT)
                session.commit()
                cycle.deal(session, name)
                set_schedule(session, name, Schedule())
                session.commit()
    finally:
        store.close()


@pytest.mark.slow
def test_two_runs_on_one_postgresql_split_twenty_due_games_each_processed_and_mailed_once(pg_server, tmp_path,
                                                                                          tmp_path_factory):
    url = pg_server.new_database()
    scheduled_games(url)
    cert, key = certificate(tmp_path_factory.mktemp("tls"))
    smtp = SmtpServer(cert, key).start()
    try:
        config = tmp_path / "mail.yaml"
        config.write_text(f"from: gm@example.org\nsmtp: {{host: {HOST}, port: {smtp.port}, tls: starttls, "
                          f"user: {USER}, cafile: {cert}, timeout: 10}}\n")
        env = {"PBEM_MAIL_CONFIG": str(config), "PBEM_SMTP_PASSWORD": PASSWORD}
        assert pbem(url, T0, "run", cwd=tmp_path, env=env).wait(timeout=300) == 0  # every clock started
        before = len(smtp.messages)
        runs = [pbem(url, DUE, "run", "--json", *jobs, cwd=tmp_path, env=env) for jobs in ((), ("--jobs", "2"))]
        outputs = [run.communicate(timeout=900) for run in runs]
        received = [message_from_bytes(data)["Message-ID"] for _, _, data in smtp.messages[before:]]
    finally:
        smtp.stop()
    assert [run.returncode for run in runs] == [0, 0], outputs
    processed = [[d["game"] for d in json.loads(out)["done"] if d["what"] == "processed"] for out, _ in outputs]
    assert all(processed), processed  # both runs did some of the work
    assert sorted(processed[0] + processed[1]) == GAMES  # every game processed, once
    engine = create_engine(url)
    with Session(engine) as session:
        turns = sorted((t.game_id, t.number) for t in session.exec(select(Turn)).all())
        queued = {row.message_id for row in session.exec(select(MailOutgoing)).all()}
    engine.dispose()
    assert len(turns) == len(set(turns)) == 20 and {number for _, number in turns} == {1}
    assert len(received) == len(set(received)) == 4 * 20  # two reports and two sheets a game, each sent once
    assert set(received) <= queued


def test_a_game_claimed_by_one_worker_is_skipped_by_another_until_released(pg_server, tmp_path):
    url, _ = new_campaign(tmp_path, pg_server.new_database())
    with game_claims(url) as first, game_claims(url) as second:
        with first("halls") as mine:
            assert mine
            with second("halls") as theirs:
                assert not theirs  # another worker holds it: skip it, take the next
        with second("halls") as theirs:
            assert theirs  # released with the first worker's block


def test_on_sqlite_every_claim_is_granted_the_run_lock_serialises_the_runs(tmp_path):
    url, _ = new_campaign(tmp_path)
    assert not claims_games(url)
    with game_claims(url) as first, game_claims(url) as second, first("halls") as mine, second("halls") as theirs:
        assert mine and theirs


def test_a_full_pass_loads_the_state_of_the_due_games_only(tmp_path, monkeypatch):
    """A run with one game due reads the other's stored rows (store.due) and passes it without loading its state:
    what a worker that fell behind another meets for every game the other has done (#36)."""
    from typer.testing import CliRunner

    from pbem.cli import app
    from pbem.gm import schedule

    monkeypatch.chdir(tmp_path)
    url = f"sqlite:///{tmp_path / 'two.db'}"
    scheduled_games(url, ["early", "late"])

    def pbem(now: str, *args: str) -> str:
        result = CliRunner().invoke(app, ["--db", url, "--now", now, *args])
        assert result.exit_code == 0, result.output
        return result.output

    pbem(T0, "run")  # both clocks started: due at DUE
    pbem(T0, "turn", "extend", "late", "--by", "48h")
    loaded: list[str] = []
    state_of = schedule.current_state
    monkeypatch.setattr(schedule, "current_state", lambda session, game: loaded.append(game.name) or state_of(
        session, game))
    done = json.loads(pbem(DUE, "run", "--json"))["done"]
    assert [d["game"] for d in done if d["what"] == "processed"] == ["early"]
    assert set(loaded) == {"early"}


def test_each_worker_starts_as_the_pbem_process_does():
    """#36: `pbem run --jobs N`'s workers are spawned interpreters; each now starts as `python -m pbem` does
    (`pbem.__main__.start`): the dataclasses' methods come compiled from the cache folder (~40 ms of a worker's
    imports) and young objects are collected every 200,000 allocations, not every 700."""
    from pbem.cli.workers import worker_pool

    with worker_pool(1) as pool:
        started = pool.submit(eval, "(__import__('dataclasses').exec.__qualname__, __import__('gc').get_threshold()[0])")
        assert started.result(timeout=120) == ("KeptCode.exec", 200_000)
