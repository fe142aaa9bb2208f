"""#29: a turn's report folder is complete or told. Stored with its turn is the debt of its reports; the folder's
`.complete` marker is written last, once every file is in place; a folder deleted while it is written, a kill -9
after the commit, or a full disk is told (game, turn, path, the command that repairs it) and the next `pbem run`
writes the folder again, byte for byte as a clean run writes it, without skipping other games or the sending."""
from __future__ import annotations

import json
import os
import random
import shutil
import signal
import subprocess
import sys
import time
from pathlib import Path

import pytest
from cli_process import run_pbem
from cycle_fixtures import two_halls
from mail_fixtures import new_campaign
from mail_servers import HOST, PASSWORD, USER, SmtpServer, certificate
from sqlmodel import Session, create_engine, select
from typer.testing import CliRunner

from pbem.cli import app
from pbem.store.reports import ReportOwed
from pbem.store.tables import Turn

ROOT = Path(__file__).resolve().parent.parent
RUNNER = CliRunner()
FOLDER = Path("reports") / "halls" / "turn-001"


def files_of(folder: Path) -> dict[str, bytes]:
    return {str(p.relative_to(folder)): p.read_bytes() for p in sorted(folder.rglob("*")) if p.is_file()}


@pytest.fixture(scope="module")
def reference(tmp_path_factory) -> dict[str, bytes]:
    """Turn 1's report folder as an undisturbed `turn process` writes it."""
    folder = tmp_path_factory.mktemp("reference")
    new_campaign(folder)
    assert run_pbem("turn", "process", "halls", cwd=folder).returncode == 0
    written = files_of(folder / FOLDER)
    assert ".complete" in written and "summary.txt" in written and "index.html" in written
    return written


def owed(url: str) -> list[tuple[str, int]]:
    engine = create_engine(url)
    with Session(engine) as session:
        rows = [(row.game, row.turn) for row in session.exec(select(ReportOwed)).all()]
    engine.dispose()
    return rows


@pytest.mark.parametrize("after", [1, 2, 4, 6, 8, 9])
def test_a_folder_deleted_while_turn_process_writes_it_is_told_and_the_next_run_writes_it_again(
        after, tmp_path, monkeypatch, reference):
    """Six trials: the reports folder is deleted after the 1st … 9th (last) file of the turn's report is written."""
    import pbem.render.turn as turn_module

    monkeypatch.chdir(tmp_path)
    url, _ = new_campaign(tmp_path)
    written = []
    replace = turn_module._replace

    def deleting(path: Path, data: bytes) -> None:
        replace(path, data)
        written.append(path)
        if len(written) == after:
            shutil.rmtree(tmp_path / "reports")
    monkeypatch.setattr(turn_module, "_replace", deleting)
    result = RUNNER.invoke(app, ["--db", url, "turn", "process", "halls"])
    monkeypatch.setattr(turn_module, "_replace", replace)
    assert result.exit_code == 1
    assert "halls turn 1 is stored, but its reports could not be written to reports/halls/turn-001" in result.stderr
    assert "removed while the report was being written" in result.stderr or "No such file" in result.stderr
    assert "pbem report halls --turn 1 --out reports" in result.stderr
    assert not (tmp_path / FOLDER / ".complete").exists()  # what is left there does not pass for whole
    assert owed(url) == [("halls", 1)]
    repaired = run_pbem("--db", url, "run", "--json", cwd=tmp_path)
    assert repaired.returncode == 0, repaired.stderr
    assert [(d["what"], d["game"], d["turn"]) for d in json.loads(repaired.stdout)["done"]] == [
        ("reported", "halls", 1)]
    assert files_of(tmp_path / FOLDER) == reference and owed(url) == []


def test_pbem_report_settles_what_turn_process_left_owed(tmp_path, monkeypatch, reference):
    monkeypatch.chdir(tmp_path)
    url, _ = new_campaign(tmp_path)
    (tmp_path / FOLDER).mkdir(parents=True)
    (tmp_path / FOLDER / "index.html").symlink_to("/dev/full")
    failed = run_pbem("--db", url, "turn", "process", "halls", cwd=tmp_path)
    assert failed.returncode == 1 and "No space left on device" in failed.stderr and owed(url) == [("halls", 1)]
    status = run_pbem("--db", url, "status", "--json", cwd=tmp_path)
    assert [(r["game"], r["turn"], r["folder"]) for r in json.loads(status.stdout)["reports_owed"]] == [
        ("halls", 1, "reports")]
    (tmp_path / FOLDER / "index.html").unlink()
    assert run_pbem("--db", url, "report", "halls", "--turn", "1", "--out", "reports", cwd=tmp_path).returncode == 0
    assert files_of(tmp_path / FOLDER) == reference and owed(url) == []


def test_a_full_disk_under_one_game_neither_skips_the_other_nor_the_sending(tmp_path, tmp_path_factory,
                                                                           monkeypatch):
    """`pbem run` with two games due: halls' reports land on a full disk (/dev/full). keep is processed and its
    reports written, every queued mail goes out, halls' failure names game, turn, path and the repair; the next
    run, with space again, writes halls' folder."""
    monkeypatch.chdir(tmp_path)
    url = two_halls(tmp_path)
    cert, key = certificate(tmp_path_factory.mktemp("tls"))
    smtp = SmtpServer(cert, key).start()
    (tmp_path / "mail.yaml").write_text(f"from: gm@example.org\nsmtp: {{host: {HOST}, port: {smtp.port}, "
                                        f"tls: starttls, user: {USER}, cafile: {cert}, timeout: 10}}\n")
    env = {"PBEM_MAIL_CONFIG": str(tmp_path / "mail.yaml"), "PBEM_SMTP_PASSWORD": PASSWORD}
    try:
        for game in ("halls", "keep"):
            assert run_pbem("--db", url, "game", "set", game, "--deadline", "5d", cwd=tmp_path).returncode == 0
        assert run_pbem("--db", url, "--now", "2026-12-01T20:00Z", "run", cwd=tmp_path, env=env).returncode == 0
        (tmp_path / FOLDER).mkdir(parents=True, exist_ok=True)  # its sheets/ are there: the run kept them
        (tmp_path / FOLDER / "index.html").symlink_to("/dev/full")  # every write to it: no space left on device
        sent_before = len(smtp.messages)
        full = run_pbem("--db", url, "--now", "2026-12-06T20:00Z", "run", "--json", cwd=tmp_path, env=env)
        done = json.loads(full.stdout)["done"]
        assert full.returncode == 1
        problems = [d for d in done if d["what"] == "problem"]
        assert len(problems) == 1 and problems[0]["game"] == "halls" and problems[0]["turn"] == 1
        assert "halls turn 1 is stored, but its reports could not be written to reports/halls/turn-001" \
            in problems[0]["detail"] and "No space left on device" in problems[0]["detail"]
        assert "pbem report halls --turn 1 --out reports" in problems[0]["detail"]
        assert [(d["game"], d["turn"]) for d in done if d["what"] == "processed"] == [("halls", 1), ("keep", 1)]
        assert (tmp_path / "reports" / "keep" / "turn-001" / ".complete").exists()
        sent = [d for d in done if d["what"] == "sent"]
        assert len(sent) == 8 == len(smtp.messages) - sent_before  # both games' reports and next sheets
        (tmp_path / FOLDER / "index.html").unlink()
        again = run_pbem("--db", url, "--now", "2026-12-06T20:05Z", "run", "--json", cwd=tmp_path, env=env)
    finally:
        smtp.stop()
    assert again.returncode == 0, again.stderr
    assert [(d["what"], d["game"], d["turn"]) for d in json.loads(again.stdout)["done"]] == [("reported", "halls", 1)]
    assert (tmp_path / FOLDER / ".complete").exists() and owed(url) == []


@pytest.mark.slow
def test_kill_9_during_turn_process_leaves_the_folder_complete_or_repaired_by_the_next_run(tmp_path, reference):
    """24 trials: `turn process` killed with SIGKILL, then `pbem run`. Even trials kill at a moment spread over a
    whole run (start-up and resolving included), odd ones while the report folder is being written (after the
    commit). A stored turn has its folder exactly as a clean run writes it; a turn not stored has none."""
    environment = {**os.environ, "PYTHONPATH": str(ROOT)}
    environment.pop("PBEM_MAIL_CONFIG", None)

    def process(folder: Path, url: str) -> subprocess.Popen:
        return subprocess.Popen([sys.executable, "-m", "pbem", "--db", url, "turn", "process", "halls"],
                                cwd=folder, env=environment, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)

    probe = tmp_path / "probe"
    probe.mkdir()
    started = time.monotonic()
    assert process(probe, new_campaign(probe)[0]).wait(timeout=300) == 0
    span = time.monotonic() - started
    stored = 0
    for trial in range(24):
        folder = tmp_path / f"trial{trial}"
        folder.mkdir()
        url, _ = new_campaign(folder)
        chance = random.Random(trial)
        running = process(folder, url)
        if trial % 2:
            while not (folder / FOLDER).exists() and running.poll() is None:
                time.sleep(0.002)
            time.sleep(chance.uniform(0, 0.2))
        else:
            time.sleep(chance.uniform(0.2, 1.0) * span)
        running.send_signal(signal.SIGKILL)
        running.wait()
        repaired = run_pbem("--db", url, "run", cwd=folder)
        assert repaired.returncode == 0, repaired.stderr
        engine = create_engine(url)
        with Session(engine) as session:
            processed = session.exec(select(Turn)).first() is not None
        engine.dispose()
        if processed:
            stored += 1
            assert files_of(folder / FOLDER) == reference, trial
        else:
            assert not (folder / FOLDER / ".complete").exists()
        assert owed(url) == []
    assert stored >= 12  # every odd trial was killed after the commit
