"""Reliability: a killed `turn process` changes nothing; demo output is byte-identical; export → import → replay."""
from __future__ import annotations

import filecmp
import os
import signal
import sqlite3
import subprocess
import sys
from pathlib import Path

import pytest
from cli_process import run_pbem
from cycle_fixtures import AT

from pbem.gm import cycle
from pbem.gm.archive import export_game, import_game
from pbem.resources import resource_dir
from pbem.store.games import Store

ROOT = Path(__file__).resolve().parent.parent


def pbem(*args, cwd, env=None, **kw) -> subprocess.Popen:
    environment = {**os.environ, "PYTHONPATH": str(ROOT), **(env or {})}
    return subprocess.Popen([sys.executable, "-m", "pbem", *args], cwd=cwd, env=environment,
                            stdout=subprocess.PIPE, stderr=subprocess.PIPE, **kw)


def turns_done(database: Path) -> int:
    with sqlite3.connect(database) as connection:
        assert connection.execute("PRAGMA integrity_check").fetchone() == ("ok",)
        return connection.execute("SELECT count(*) FROM turns").fetchone()[0]


@pytest.mark.slow  # up to 20 real processes, killed mid-transaction
def test_kill_9_in_the_middle_of_turn_process_leaves_the_turn_unprocessed_and_a_rerun_gives_the_same_result(tmp_path):
    database = tmp_path / "pbem.db"
    store = Store(f"sqlite:///{database}")
    import_game(store, resource_dir("turns") / "botwars", turns=1, at=AT)
    with store.session() as session:
        cycle.deal(session, "botwars-demo")
        reference = cycle.process(session, "botwars-demo", preview=True, at=AT).after_hash
    store.close()
    journal = Path(f"{database}-journal")
    for _ in range(20):  # kill as soon as the turn's write transaction has begun
        process = pbem("--db", f"sqlite:///{database}", "turn", "process", "botwars-demo", cwd=tmp_path)
        while process.poll() is None and not journal.exists():
            pass
        if process.poll() is None:
            os.kill(process.pid, signal.SIGKILL)
        process.wait()
        assert process.returncode in (0, -signal.SIGKILL)
        if process.returncode == -signal.SIGKILL and turns_done(database) == 1:
            break  # killed inside the transaction: turn 2 is still unprocessed and the file is consistent
        assert turns_done(database) == 2  # it committed before the kill landed: undo it and try again
        db = f"sqlite:///{database}"
        assert run_pbem("--db", db, "turn", "rollback", "botwars-demo", "--to", "2", cwd=tmp_path).returncode == 0
        assert run_pbem("--db", db, "turn", "deal", "botwars-demo", cwd=tmp_path).returncode == 0
    else:
        raise AssertionError("never caught `turn process` inside its transaction")
    rerun = pbem("--db", f"sqlite:///{database}", "turn", "process", "botwars-demo", "--json", cwd=tmp_path)
    out, err = rerun.communicate(timeout=120)
    assert rerun.returncode == 0, err
    assert f'"after_hash": "{reference}"' in out.decode()
    assert turns_done(database) == 2


@pytest.mark.slow  # two whole demo campaigns, each in its own process (the hash seed is what is tested)
def test_two_demo_runs_in_different_folders_and_hash_seeds_write_byte_identical_files(tmp_path):
    runs = []
    shelf = str(tmp_path / "cache")  # run one keeps its pictures there; run two keeps none
    for run, seed, cache in (("one", "1", shelf), ("two", "4242", "")):  # side by side
        folder = tmp_path / run
        folder.mkdir()
        runs.append((folder, pbem("demo", "--out", "reports", cwd=folder,
                                  env={"PYTHONHASHSEED": seed, "PBEM_CACHE_DIR": cache})))
    outputs = []
    for folder, process in runs:
        _, err = process.communicate(timeout=300)
        assert process.returncode == 0, err
        assert (folder / "pbem-demo.db").exists()
        outputs.append(folder / "reports")
    files = sorted(p.relative_to(outputs[0]) for p in outputs[0].rglob("*") if p.is_file())
    assert len(files) > 20
    assert files == sorted(p.relative_to(outputs[1]) for p in outputs[1].rglob("*") if p.is_file())
    match, mismatch, errors = filecmp.cmpfiles(outputs[0], outputs[1], [str(f) for f in files], shallow=False)
    assert (mismatch, errors) == ([], [])


def test_export_then_import_then_replay_gives_the_same_hashes(tmp_path):
    first = Store(f"sqlite:///{tmp_path / 'first.db'}")
    imported = import_game(first, resource_dir("turns") / "geeko", at=AT)
    export_game(first, "geeko-demo", tmp_path / "exported")
    first.close()
    second = Store(f"sqlite:///{tmp_path / 'second.db'}")
    again = import_game(second, tmp_path / "exported", at=AT)
    with second.session() as session:
        replayed = cycle.replay(session, "geeko-demo")
    second.close()
    hashes = [t.after_hash for t in imported.turns]
    assert len(hashes) >= 4
    assert [t.after_hash for t in again.turns] == hashes
    assert [t.replayed for t in replayed.turns] == hashes and replayed.first_difference is None
    assert (tmp_path / "exported" / "turn-002" / "bob.yaml").read_text().startswith("Hi GM,")  # as it was sent
