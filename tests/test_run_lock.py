"""#22: runs that cannot double. One `pbem run` (or `pbem mail send`) at a time per database: a second waits a
bounded time, then exits 1 saying another run holds the lock, having done nothing; the lock dies with its holder
(kill -9 included); on PostgreSQL it is the server's (advisory), so runs on two hosts exclude each other too. And
overlapping runs against a real SMTP server deliver every message exactly once."""
from __future__ import annotations

import json
import os
import signal
import subprocess
import sys
import time
from email import message_from_bytes
from pathlib import Path

import pytest
from mail_fixtures import new_campaign
from mail_servers import HOST, PASSWORD, USER, SmtpServer, certificate
from sqlmodel import Session, create_engine, select

from pbem.store.mail import MailOutgoing
from pbem.store.runlock import RunBusy, run_lock

ROOT = Path(__file__).resolve().parent.parent
T0 = "2026-12-01T20:00:00+00:00"
DUE = "2026-12-06T20:00:00+00:00"
HOLDER = """import sys, time
from pbem.store.runlock import run_lock
with run_lock(sys.argv[1], 0):
    print("held", flush=True)
    time.sleep(600)
"""


def pbem(url: str, now: str, *args: str, cwd: Path, env: dict[str, str] | None = None) -> subprocess.Popen:
    environment = {**os.environ, "PYTHONPATH": str(ROOT), **(env or {})}
    if env is None:
        environment.pop("PBEM_MAIL_CONFIG", None)
    return subprocess.Popen([sys.executable, "-m", "pbem", "--db", url, "--now", now, *args], cwd=cwd,
                            env=environment, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)


def holder(url: str) -> subprocess.Popen:
    """Another process holding the run lock (a run in progress, here or on another host)."""
    process = subprocess.Popen([sys.executable, "-c", HOLDER, url], env={**os.environ, "PYTHONPATH": str(ROOT)},
                               stdout=subprocess.PIPE, text=True)
    assert process.stdout.readline() == "held\n"
    return process


@pytest.fixture(params=["sqlite", "postgresql"])
def campaign(request, tmp_path):
    url = request.getfixturevalue("pg_server").new_database() if request.param == "postgresql" else None
    url, _ = new_campaign(tmp_path, url)
    for args in (("game", "set", "halls", "--deadline", "5d"), ("run",)):  # the turn's clock starts at T0
        assert pbem(url, T0, *args, cwd=tmp_path).wait(timeout=120) == 0
    return url, tmp_path


def test_a_second_run_waits_then_exits_saying_another_holds_the_lock_and_does_nothing(campaign):
    url, folder = campaign
    other = holder(url)
    try:
        started = time.monotonic()
        second = pbem(url, DUE, "run", "--wait", "1", "--json", cwd=folder)
        out, err = second.communicate(timeout=120)
        waited = time.monotonic() - started
    finally:
        other.kill()
        other.wait()
    assert second.returncode == 1 and out == ""
    assert "holds the run lock" in err and "this one did nothing" in err
    assert waited >= 1  # it waited the time it was given first
    engine = create_engine(url)
    with Session(engine) as session:
        assert session.exec(select(MailOutgoing)).all() == []  # nothing processed, nothing queued
    engine.dispose()
    after = pbem(url, DUE, "run", "--wait", "0", "--json", cwd=folder)  # the holder is gone: this one runs
    out, err = after.communicate(timeout=120)
    assert after.returncode == 0, err
    assert "processed" in [d["what"] for d in json.loads(out)["done"]]


def test_a_holder_killed_with_sigkill_leaves_no_lock_behind(campaign):
    url, _ = campaign
    other = holder(url)
    with pytest.raises(RunBusy):
        with run_lock(url, 0):
            pass
    other.send_signal(signal.SIGKILL)
    other.wait()
    deadline = time.monotonic() + 30  # PostgreSQL notices the closed connection at once, SQLite's flock too
    while True:
        try:
            with run_lock(url, 0):
                break
        except RunBusy:
            assert time.monotonic() < deadline, "the killed holder's lock stayed"
            time.sleep(0.1)


def test_mail_send_waits_for_the_run_lock_too(campaign):
    url, folder = campaign
    other = holder(url)
    try:
        (folder / "mail.yaml").write_text("smtp: {host: 127.0.0.1, port: 9, tls: none}\n")
        send = pbem(url, DUE, "mail", "send", "--game", "halls", cwd=folder,
                    env={"PBEM_MAIL_CONFIG": str(folder / "mail.yaml")})
        time.sleep(1)
        assert send.poll() is None  # waiting for the lock, not sending
    finally:
        other.kill()
        other.wait()
    out, err = send.communicate(timeout=180)
    assert "ConnectionRefusedError" in out  # it went on once the lock was free


@pytest.mark.slow
@pytest.mark.parametrize("backend", ["sqlite", "postgresql"])
def test_three_overlapping_runs_deliver_every_message_exactly_once(backend, request, tmp_path, tmp_path_factory):
    """20 trials of three `pbem run` started together at the deadline, over the real loopback SMTP server: the turn
    is processed once and every queued message (reports, next turn sheets) reaches the server once."""
    cert, key = certificate(tmp_path_factory.mktemp("tls"))
    for trial in range(20):
        folder = tmp_path / f"trial{trial}"
        folder.mkdir()
        url = request.getfixturevalue("pg_server").new_database() if backend == "postgresql" else None
        url, _ = new_campaign(folder, url)
        smtp = SmtpServer(cert, key).start()
        try:
            config = folder / "mail.yaml"
            config.write_text(f"from: gm@example.org\nsmtp: {{host: {HOST}, port: {smtp.port}, tls: starttls, "
                              f"user: {USER}, cafile: {cert}, timeout: 10}}\n")
            env = {"PBEM_MAIL_CONFIG": str(config), "PBEM_SMTP_PASSWORD": PASSWORD}
            for args in (("game", "set", "halls", "--deadline", "5d"), ("run",)):
                assert pbem(url, T0, *args, cwd=folder, env=env).wait(timeout=120) == 0
            before = len(smtp.messages)
            runs = [pbem(url, DUE, "run", "--json", cwd=folder, env=env) for _ in range(3)]
            outputs = [run.communicate(timeout=300) for run in runs]
            assert [run.returncode for run in runs] == [0, 0, 0], outputs
            done = [d["what"] for out, _ in outputs for d in json.loads(out)["done"]]
            engine = create_engine(url)
            with Session(engine) as session:
                queued = {row.message_id for row in session.exec(select(MailOutgoing)).all()}
            engine.dispose()
            received = [message_from_bytes(data)["Message-ID"] for _, _, data in smtp.messages]
        finally:
            smtp.stop()
        assert done.count("processed") == 1 and done.count("sent") == len(smtp.messages) - before == 4
        assert len(received) == len(set(received)) and set(received) == queued, (trial, received)
