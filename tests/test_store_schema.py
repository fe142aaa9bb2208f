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
