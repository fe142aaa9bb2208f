"""`pbem game list` reads its lines with plain SQL when the rows say enough (issue #27): the same lines as the
store's ORM path, and no SQLAlchemy imported."""
from __future__ import annotations

import json
from pathlib import Path

import pytest
from cli_process import imported_by, run_pbem
from cycle_fixtures import AT, halls_description
from mail_fixtures import new_campaign
from sqlmodel import Session, create_engine

from pbem.gm import cycle
from pbem.gm.setup import create_game
from pbem.store.due import RowReader, from_rows
from pbem.store.summary import game_summaries, listed

ROOT = Path(__file__).resolve().parent.parent


@pytest.mark.parametrize("backend", ["sqlite", "postgresql"])
def test_game_list_from_the_rows_is_the_stores_and_a_game_without_a_stored_turn_asks_the_store(
        backend, request, tmp_path):
    url, _ = new_campaign(tmp_path, request.getfixturevalue("pg_server").new_database()
                          if backend == "postgresql" else None)
    engine = create_engine(url)
    with Session(engine) as session:
        create_game(session, halls_description("annex", "9"), AT)
        session.commit()
    with RowReader(url) as rows, Session(engine) as session:  # no turn stored yet (#36): the rows say it too
        assert listed(rows) == game_summaries(session)
        assert [(s.game, s.turn, s.over) for s in listed(rows)] == [("annex", 1, False), ("halls", 1, False)]
    for name in ("halls", "annex"):
        with Session(engine) as session:
            cycle.deal(session, name)
            cycle.process(session, name, turn=1, at=AT)
    with RowReader(url) as rows, Session(engine) as session:
        assert listed(rows) == game_summaries(session)
        assert [(s.game, s.turn, s.over) for s in listed(rows)] == [("annex", 2, False), ("halls", 2, False)]
    with engine.begin() as connection:  # the engine's answer stored with the turn is what both read
        connection.exec_driver_sql("UPDATE turns SET over = TRUE WHERE game_id = (SELECT id FROM games "
                                   "WHERE name = 'annex')")
    with RowReader(url) as rows, Session(engine) as session:
        assert listed(rows) == game_summaries(session) and listed(rows)[0].over
    shown = run_pbem("--db", url, "game", "list", "--json", cwd=tmp_path)
    assert [row["game"] for row in json.loads(shown.stdout)] == ["annex", "halls"]
    if backend == "sqlite":  # (PostgreSQL's rows come through SQLAlchemy, without the tables)
        modules = imported_by("--db", url, "game", "list", cwd=tmp_path, whole_names=True)
        assert "pbem.store.summary" in modules and not {"sqlalchemy", "sqlmodel", "yaml"} & {
            m.split(".")[0] for m in modules}
    with engine.begin() as connection:  # a turn stored before turns.over: the store answers, the same
        connection.exec_driver_sql("UPDATE turns SET over = NULL")
    assert from_rows(url, listed) is None
    assert [row["game"] for row in json.loads(run_pbem("--db", url, "game", "list", "--json").stdout)] == \
        ["annex", "halls"]


@pytest.mark.parametrize("sample", ["botwars", "geeko"])
def test_a_new_game_is_never_over_as_the_rows_path_takes_it(sample):
    """#36: `game list` reads a game with no turn as not over without loading the engine; the engine agrees."""
    from pbem.engine.campaign import new_game
    from pbem.engine.vocabulary import NEW_GAME_IS_OVER
    from pbem.formats.game import read_description
    from pbem.store.games import load_setup, setup_document

    setup = load_setup(setup_document(read_description(ROOT / "turns" / sample)))
    assert new_game(setup).is_over is NEW_GAME_IS_OVER


def test_game_list_of_a_database_that_is_not_there_still_says_so(tmp_path):
    missing = run_pbem("--db", f"sqlite:///{tmp_path / 'none.db'}", "game", "list", cwd=tmp_path)
    assert missing.returncode == 1 and "none.db" in missing.stderr
