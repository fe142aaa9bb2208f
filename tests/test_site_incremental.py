"""`pbem site` rewrites only what changed (DESIGN.md "Command line"; issue #15): adding a turn rewrites that turn,
the one before it (its "next" links) and the indexes, and the result is byte-identical to a full rebuild."""
from __future__ import annotations

import filecmp
import os
import shutil

from typer.testing import CliRunner

from pbem.cli import app
from pbem.gm.history import game_history
from pbem.render.site import MANIFEST, RULES_MADE, write_site
from pbem.store.due import session_rows
from pbem.store.games import Store

RUNNER = CliRunner()
GAME = "geeko-demo"


def site_files(folder) -> set[str]:
    return {str(p.relative_to(folder)) for p in folder.rglob("*") if p.is_file() and p.name not in (MANIFEST, RULES_MADE)}


def touched_since_zero(folder) -> set[str]:
    return {name for name in site_files(folder) if os.stat(folder / name).st_mtime_ns != 0}


def test_adding_a_turn_rewrites_that_turn_the_one_before_and_the_indexes(tmp_path, monkeypatch, geeko_campaign):
    monkeypatch.chdir(tmp_path)
    database = tmp_path / "pbem.db"
    shutil.copyfile(geeko_campaign, database)  # six processed turns
    db = ["--db", f"sqlite:///{database}"]
    assert RUNNER.invoke(app, [*db, "turn", "rollback", GAME, "--to", "6"]).exit_code == 0
    site = tmp_path / "site"
    assert RUNNER.invoke(app, [*db, "site", GAME, "--out", str(site)]).exit_code == 0  # turns 1-5, all written
    for name in site_files(site):
        os.utime(site / name, ns=(0, 0))
    assert RUNNER.invoke(app, [*db, "turn", "process", GAME, "--out", "reports"]).exit_code == 0  # turn 6 again
    result = RUNNER.invoke(app, [*db, "site", GAME, "--out", str(site)])
    assert result.exit_code == 0, result.output

    touched = touched_since_zero(site)
    assert {name.split("/")[1] for name in touched if name.count("/") >= 2} == {"turn-005", "turn-006"}
    assert {name for name in touched if name.count("/") < 2} == {
        "index.html", ".pbem-site-index.json", f"{GAME}/index.html", f"{GAME}/feed.xml", f"{GAME}/legend.png"}
    assert any(name.startswith(f"{GAME}/turn-004/") for name in site_files(site))  # kept, not rewritten

    full = tmp_path / "full"
    store = Store(f"sqlite:///{database}")
    with store.session() as session:
        write_site(full, [game_history(session_rows(session), GAME)])
    store.close()
    names = sorted(site_files(full))
    assert site_files(site) == set(names)
    assert filecmp.cmpfiles(site, full, names, shallow=False)[1:] == ([], [])


def test_a_run_with_nothing_new_rewrites_no_turn_and_a_deleted_turn_is_written_again(tmp_path, monkeypatch, geeko_campaign):
    monkeypatch.chdir(tmp_path)
    database = tmp_path / "pbem.db"
    shutil.copyfile(geeko_campaign, database)
    db = ["--db", f"sqlite:///{database}"]
    site = tmp_path / "site"
    assert RUNNER.invoke(app, [*db, "site", GAME, "--out", str(site)]).exit_code == 0
    before = {name: (site / name).read_bytes() for name in site_files(site)}
    (site / GAME / "turn-002" / "index.html").unlink()
    for name in site_files(site):
        os.utime(site / name, ns=(0, 0))
    assert RUNNER.invoke(app, [*db, "site", GAME, "--out", str(site)]).exit_code == 0
    assert {name.split("/")[1] for name in touched_since_zero(site) if name.count("/") >= 2} == {"turn-002"}
    assert {name: (site / name).read_bytes() for name in site_files(site)} == before


def test_a_full_build_holds_at_most_two_turns_and_writes_each_before_drawing_the_one_after_next(tmp_path,
                                                                                                 geeko_campaign):
    """Flat memory (issue #27): a turn links to the first page of the next, so the next one is drawn before a turn
    is written; no more is held. Before, every report was loaded first and kept until the end (~0.55 MB a turn)."""
    import gc
    import weakref
    from dataclasses import replace

    database = tmp_path / "pbem.db"
    shutil.copyfile(geeko_campaign, database)
    store = Store(f"sqlite:///{database}")
    alive: list[weakref.ref] = []
    loads: list[tuple[int, int, set[str]]] = []  # (turn loaded, reports still alive, turn folders written by then)
    site = tmp_path / "site"
    calls = []
    with store.session() as session:
        history = game_history(session_rows(session), GAME)

        def tracked(entry):
            def load():
                report = entry.load()
                gc.collect()
                loads.append((entry.turn, sum(ref() is not None for ref in alive),
                              {p.name for p in (site / GAME).glob("turn-*")} if (site / GAME).exists() else set()))
                alive.append(weakref.ref(report))
                return report
            return replace(entry, load=load)

        history.turns = [tracked(entry) for entry in history.turns]
        write_site(site, [history], progress=lambda: calls.append(1))
    store.close()
    assert sorted(turn for turn, _, _ in loads) == [1, 2, 3, 4, 5, 6]  # each report loaded once
    assert max(held for _, held, _ in loads) <= 1  # besides the one being loaded: the turn being written
    assert loads[-1][2] >= {"turn-001", "turn-004"}  # written as it goes, before the last turn is drawn
    assert len(calls) == 6  # progress after each turn
