"""`pbem site` reads a played campaign with plain SQL (pbem.store.played, issue #36): the same turns, states, events,
snapshots and GM's controls as the store's ORM reads, on SQLite and PostgreSQL, and a site built from a SQLite
file, with nothing new or one more turn, imports no SQLAlchemy."""
from __future__ import annotations

import filecmp
import json
import shutil
from datetime import timedelta

import pytest
from cli_process import imported_by, run_pbem
from cycle_fixtures import AT
from sqlmodel import Session, create_engine

from pbem.formats.controls import Control
from pbem.gm.archive import import_game
from pbem.gm.history import game_history
from pbem.resources import resource_dir
from pbem.store import controls as orm_controls
from pbem.store import games as orm
from pbem.store.due import RowReader
from pbem.store.games import Store
from pbem.store.played import all_campaigns, controls, game_row, player_names, stored_state, stored_turn, turn_rows

GAME = "geeko-demo"


@pytest.mark.parametrize("backend", ["sqlite", "postgresql"])
def test_the_played_campaign_read_with_plain_sql_is_what_the_orm_reads(backend, request, tmp_path):
    url = request.getfixturevalue("pg_server").new_database() if backend == "postgresql" \
        else f"sqlite:///{tmp_path / 'pbem.db'}"
    store = Store(url)
    try:
        import_game(store, resource_dir("turns") / "geeko", at=AT)  # six turns, a room changing on the way
        with store.session() as session:
            game = orm.get_game(session, GAME)
            orm_controls.record(session, game, Control.PRESS, AT, "alice", to=["bob"], text="hello", policy="signed")
            orm_controls.record(session, game, Control.END, AT + timedelta(hours=1), "bob", how="winner",
                                reason="tired")
            session.commit()
    finally:
        store.close()
    with Session(create_engine(url)) as session, RowReader(url) as rows:
        game = orm.get_game(session, GAME)
        row = game_row(rows, GAME)
        assert (row.id, row.name, row.ruleset, row.setup) == (game.id, game.name, game.ruleset, game.setup)
        assert all_campaigns(rows, [GAME]) and not all_campaigns(rows, [GAME, "no-such-game"])
        done = orm.processed_turns(session, game)
        assert [(t.number, t.before_hash, t.after_hash, t.events_hash, t.orders, t.processed_at.replace(tzinfo=None))
                for t in turn_rows(rows, row)] == \
            [(t.number, t.before_hash, t.after_hash, t.events_hash, t.orders, t.processed_at.replace(tzinfo=None))
             for t in done]
        assert len(done) == 6
        assert player_names(rows, row) == [p.name for p in orm.players_of(session, game)]
        for turn in done:
            played = stored_turn(rows, row, turn.number)
            assert played.before == orm.stored_state(session, game, turn.number, "before")
            assert played.outcome.state == stored_state(rows, row, turn.number, "after") == \
                orm.stored_state(session, game, turn.number, "after")
            assert played.outcome.events == orm.turn_events(session, game, turn.number)
            assert played.outcome.stages == orm.stage_snapshots(session, game, turn.number)
            assert played.outcome.finals == orm.final_boards(session, game, turn.number)
        assert any(stored_turn(rows, row, t.number).outcome.finals for t in done)  # a room's end was read too
        assert [(e.at, e.kind, e.player, e.data) for e in controls(rows, row, Control.PRESS, Control.END)] == \
            [(e.at, e.kind, e.player, e.data) for e in orm_controls.history(session, game, Control.PRESS, Control.END)]
        summary = game_history(rows, GAME).told()
        assert summary.named == ["bob"] and summary.ending[0].endswith(": tired")
        assert summary.press == [{"at": f"{AT:%Y-%m-%d %H:%M} UTC", "by": "alice", "to": "bob", "text": "hello"}]


def test_a_site_from_a_sqlite_file_imports_no_sqlalchemy_and_is_the_stores(tmp_path, geeko_campaign):
    """#36: `pbem site` of campaigns alone reads them with sqlite3; the same files as when a match is asked for too
    (which opens the store), and a site asked of a name that is no campaign still gets the store's answer."""
    database = tmp_path / "pbem.db"
    shutil.copyfile(geeko_campaign, database)
    db = ["--db", f"sqlite:///{database}"]
    modules = imported_by(*db, "site", GAME, "--out", str(tmp_path / "site"), cwd=tmp_path)
    assert (tmp_path / "site" / "geeko-demo" / "turn-006" / "index.html").is_file()
    assert not {"sqlalchemy", "sqlmodel"} & modules
    assert not {"sqlalchemy", "sqlmodel"} & imported_by(*db, "site", GAME, "--out", str(tmp_path / "site"),
                                                         cwd=tmp_path)  # nothing new
    through_store = run_pbem(*db, "site", GAME, "--match", "all", "--out", str(tmp_path / "store"), cwd=tmp_path)
    assert through_store.returncode == 0, through_store.stderr
    site, store = (tmp_path / "site", tmp_path / "store")
    names = sorted(str(p.relative_to(site)) for p in site.rglob("*") if p.is_file())
    assert names == sorted(str(p.relative_to(store)) for p in store.rglob("*") if p.is_file())
    assert filecmp.cmpfiles(site, store, names, shallow=False)[1:] == ([], [])
    unknown = run_pbem(*db, "site", "no-such-game", "--out", str(tmp_path / "other"), cwd=tmp_path)
    assert unknown.returncode == 1 and "no game named no-such-game" in unknown.stderr


def test_a_site_of_a_campaign_on_postgresql_reads_its_rows_too(request, tmp_path):
    """The same plain reads through libpq: the site of a campaign on PostgreSQL, written and then kept."""
    url = request.getfixturevalue("pg_server").new_database()
    store = Store(url)
    try:
        import_game(store, resource_dir("turns") / "geeko", at=AT)
    finally:
        store.close()
    first = run_pbem("--db", url, "site", GAME, "--out", str(tmp_path / "site"), "--json", cwd=tmp_path)
    assert first.returncode == 0, first.stderr
    assert (tmp_path / "site" / GAME / "turn-006" / "index.html").is_file()
    again = run_pbem("--db", url, "site", GAME, "--out", str(tmp_path / "site"), "--json", cwd=tmp_path)
    assert again.returncode == 0 and not any("/turn-" in name for name in json.loads(again.stdout)["files"])
    assert not {"sqlalchemy", "sqlmodel"} & imported_by("--db", url, "site", GAME, "--out", str(tmp_path / "site"),
                                                         cwd=tmp_path)
