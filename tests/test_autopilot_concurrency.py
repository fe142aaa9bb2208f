"""Two `pbem run` started together on one database (cron jobs overlapping), SQLite and PostgreSQL, 20 times
each: every due turn is processed once, every message queued once, a death match's passed deadline is applied
once, neither run fails."""
from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path
from typing import Callable

import pytest
from mail_fixtures import new_campaign
from sqlmodel import Session, create_engine, select

from pbem.store.mail import MailOutgoing
from pbem.store.tables import OrderVersion, Turn

ROOT = Path(__file__).resolve().parent.parent
T0 = "2026-12-01T20:00:00+00:00"
DUE = "2026-12-06T20:00:00+00:00"


def pbem(url: str, now: str, *args: str, cwd: Path) -> subprocess.Popen:
    environment = {**os.environ, "PYTHONPATH": str(ROOT)}
    environment.pop("PBEM_MAIL_CONFIG", None)
    return subprocess.Popen([sys.executable, "-m", "pbem", "--db", url, "--now", now, *args], cwd=cwd,
                            env=environment, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)


@pytest.mark.slow
@pytest.mark.parametrize("backend", ["sqlite", "postgresql"])
def test_two_runs_at_once_process_each_turn_once_and_queue_each_message_once(tmp_path, request, backend):
    for trial in range(20):
        folder = tmp_path / f"trial{trial}"
        folder.mkdir()
        url = request.getfixturevalue("pg_server").new_database() if backend == "postgresql" else None
        url, _ = new_campaign(folder, url)
        for args in (("game", "set", "halls", "--deadline", "5d", "--remind", "24"), ("run",),
                     ("dm", "new", "ice", "--game", "ice", "--player", "ann", "--player", "bob", "--option",
                      f"start={T0}", "--option", "size=6x6", "--option", "moves=3", "--out", str(folder))):
            assert pbem(url, T0, *args, cwd=folder).wait(timeout=120) == 0
        now = "2026-12-06T19:30:00+00:00" if trial % 2 else DUE  # a reminder is due, or the turn itself
        runs = [pbem(url, now, "run", "--json", cwd=folder) for _ in range(2)]
        outputs = [run.communicate(timeout=120) for run in runs]
        assert [run.returncode for run in runs] == [0, 0], outputs
        done = [d["what"] for out, _ in outputs for d in json.loads(out)["done"]]
        engine = create_engine(url)
        with Session(engine) as session:
            turns = session.exec(select(Turn)).all()
            purposes = [row.purpose for row in session.exec(select(MailOutgoing)).all()]
            clock_records = session.exec(select(OrderVersion).where(OrderVersion.actor == "GM")).all()
        engine.dispose()
        # the Ice match: its buzz windows passed days ago, with nobody acting; one run applied them, once
        assert done.count("deadline") == 1 and len(clock_records) == 1
        if now == DUE:
            assert done.count("processed") == 1 and len(turns) == 1
            assert sorted(purposes) == ["report", "report", "sheet", "sheet"]
        else:
            assert done.count("reminded") == 1 and turns == [] and purposes == ["reminder", "reminder"]


def end_state(url: str) -> tuple:
    engine = create_engine(url)
    with Session(engine) as session:
        turns = sorted((t.number, t.after_hash, t.events_hash) for t in session.exec(select(Turn)).all())
        messages = sorted(row.message_id for row in session.exec(select(MailOutgoing)).all())
    engine.dispose()
    return turns, messages


KILLS = 64  # the reliability attack's kill -9 during `pbem run`, per backend (#37)


def killed_runs(tmp_path: Path, server, make: Callable[[Path, str | None], str], now: str, run: tuple[str, ...],
                end_state: Callable[[str], tuple], kills: int = KILLS, seed: int = 9, codes: tuple[int, ...] = (0,)) \
        -> tuple:
    """`pbem --now NOW RUN…` killed (kill -9) at a random moment and run again, `kills` times, on copies of the game
    `make(folder, url)` sets up in a folder (on PostgreSQL `server`, else SQLite; its URL): every end state is the
    uninterrupted run's, which is returned; each run after a kill exits with one of `codes`. The killed run is a
    process of its own; the game is set up once and copied for each trial (the folder, and a PostgreSQL database
    by CREATE DATABASE … TEMPLATE), the run after the kill is in this process (the same `main()`), so each trial
    costs one interpreter start."""
    import random
    import shutil
    import signal
    import time

    from cli_process import run_pbem

    template = tmp_path / "template"
    template.mkdir()
    template_url = make(template, server.new_database() if server else None)

    def prepared(folder: Path) -> str:
        shutil.copytree(template, folder)
        return server.new_database(copy_of=template_url) if server else f"sqlite:///{folder / 'pbem.db'}"

    def run_again(url: str, folder: Path) -> None:
        result = run_pbem("--db", url, "--now", now, *run, cwd=folder)
        assert result.returncode in codes and "Traceback" not in result.stderr, result.stderr

    reference = prepared(tmp_path / "reference")
    run_again(reference, tmp_path / "reference")
    expected = end_state(reference)
    chance = random.Random(seed)
    for trial in range(kills):
        folder = tmp_path / f"trial{trial}"
        url = prepared(folder)
        killed = pbem(url, now, *run, cwd=folder)
        time.sleep(chance.uniform(0.2, 2.5))  # the import, the mail, the processing, the reports: anywhere
        killed.send_signal(signal.SIGKILL)
        killed.wait(timeout=60)
        run_again(url, folder)
        assert end_state(url) == expected, trial
    return expected


def scheduled_halls(folder: Path, url: str | None) -> str:
    """The halls campaign with a 5-day deadline, its first turn's clock started at T0 by a run."""
    from cli_process import run_pbem

    url, _ = new_campaign(folder, url)
    for args in (("game", "set", "halls", "--deadline", "5d", "--remind", "24"), ("run",)):
        assert run_pbem("--db", url, "--now", T0, *args, cwd=folder).returncode == 0
    return url


@pytest.mark.slow
@pytest.mark.parametrize("backend", ["sqlite", "postgresql"])
def test_kill_9_at_any_moment_of_a_run_then_running_again_gives_the_uninterrupted_end_state(tmp_path, request,
                                                                                            backend):
    server = request.getfixturevalue("pg_server") if backend == "postgresql" else None
    expected = killed_runs(tmp_path, server, scheduled_halls, DUE, ("run",), end_state)
    assert len(expected[0]) == 1 and len(expected[1]) == 4  # turn 1 processed: 2 reports, 2 sheets
