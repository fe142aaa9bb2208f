"""The store's schema: Alembic migrations build exactly the tables under pbem/store, on SQLite and PostgreSQL."""
from __future__ import annotations

from datetime import datetime, timezone

import pytest
from alembic.autogenerate import compare_metadata
from alembic.runtime.migration import MigrationContext
from sqlalchemy import inspect
from sqlmodel import Session, SQLModel, select

from pbem.store.db import load_table_modules, open_database
from pbem.store.tables import Game

TABLES = {"games", "players", "robots", "turns", "order_versions", "dealt_hands", "state_snapshots", "events"}


@pytest.fixture(params=["sqlite", "postgresql"])
def url(request, tmp_path):
    if request.param == "sqlite":
        return f"sqlite:///{tmp_path / 'pbem.db'}"
    return request.getfixturevalue("pg_server").new_database()


def test_migrations_on_open_create_every_table_defined_under_pbem_store(url):
    engine = open_database(url)
    load_table_modules()
    with engine.connect() as connection:
        assert compare_metadata(MigrationContext.configure(connection), SQLModel.metadata) == []
        assert TABLES <= set(inspect(connection).get_table_names())
        assert MigrationContext.configure(connection).get_current_revision() is not None
    engine.dispose()


def test_opening_again_keeps_the_data_and_the_revision(url):
    engine = open_database(url)
    with Session(engine) as session:
        session.add(Game(name="kept", ruleset="geeko", seed="1", setup="{}",
                         created_at=datetime(2026, 1, 1, tzinfo=timezone.utc)))
        session.commit()
    engine.dispose()
    engine = open_database(url)
    with Session(engine) as session:
        assert session.exec(select(Game.name)).all() == ["kept"]
    engine.dispose()


def test_the_head_read_without_alembic_is_alembics_head_and_a_behind_database_is_upgraded(url):
    from alembic import command
    from alembic.script import ScriptDirectory

    from pbem.store.db import alembic_config, head_revision, stored_revision

    assert head_revision() == ScriptDirectory.from_config(alembic_config()).get_current_head()
    engine = open_database(url)
    assert stored_revision(engine) == head_revision()
    config = alembic_config()
    with engine.begin() as connection:  # back to the first schema, as an old campaign's database
        config.attributes["connection"] = connection
        command.downgrade(config, "0001")
    assert stored_revision(engine) == "0001"
    engine.dispose()
    engine = open_database(url)
    assert stored_revision(engine) == head_revision()
    engine.dispose()
