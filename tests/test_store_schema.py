"""The store's schema: Alembic migrations build exactly the tables under pbem/store, on SQLite and PostgreSQL, and a
new database created from the models' metadata (`open_database`) is the same schema, stamped at the head (#34)."""
from __future__ import annotations

import json
import subprocess
import sys
from datetime import datetime, timezone
from pathlib import Path

import pytest
from alembic.autogenerate import compare_metadata
from alembic.runtime.migration import MigrationContext
from sqlalchemy import create_engine, inspect
from sqlalchemy.engine import Engine
from sqlalchemy.exc import DBAPIError
from sqlmodel import Session, SQLModel, select

from pbem.store import schema as schema_files
from pbem.store.db import load_table_modules, open_database
from pbem.store.tables import Game

TABLES = {"games", "players", "robots", "turns", "order_versions", "dealt_hands", "state_snapshots", "events"}


@pytest.fixture(params=["sqlite", "postgresql"])
def url(request, tmp_path):
    if request.param == "sqlite":
        return f"sqlite:///{tmp_path / 'pbem.db'}"
    return request.getfixturevalue("pg_server").new_database()


def test_opening_a_new_database_creates_every_table_defined_under_pbem_store(url):
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


def schema(engine: Engine) -> dict[str, dict[str, object]]:
    """Every table's columns (name, type, nullability, default), keys, constraints and indexes, as the inspector
    reads them back from the database (column order aside: `ALTER TABLE … ADD` appends where the model lists)."""
    found = inspect(engine)
    return {table: {"columns": {column["name"]: {key: str(value) for key, value in column.items()}
                                for column in found.get_columns(table)},
                    "primary key": found.get_pk_constraint(table),
                    "foreign keys": sorted(map(str, found.get_foreign_keys(table))),
                    "unique": sorted(map(str, found.get_unique_constraints(table))),
                    "indexes": sorted(map(str, found.get_indexes(table)))}
            for table in found.get_table_names()}


def migrate(engine: Engine, revision: str, *, down: bool = False) -> None:
    from alembic import command

    from pbem.store.db import alembic_config

    config = alembic_config()
    with engine.begin() as connection:
        config.attributes["connection"] = connection
        (command.downgrade if down else command.upgrade)(config, revision)


@pytest.fixture
def stepwise_url(url, tmp_path, request):
    """A second empty database of the same kind as `url`."""
    if url.startswith("sqlite"):
        return f"sqlite:///{tmp_path / 'stepwise.db'}"
    return request.getfixturevalue("pg_server").new_database()


def test_a_new_database_created_from_the_metadata_is_the_schema_every_migration_builds_in_turn(url, stepwise_url):
    from pbem.store.db import head_revision, stored_revision

    created = open_database(url)
    stepwise = create_engine(stepwise_url)
    migrate(stepwise, "head")
    assert stored_revision(created) == stored_revision(stepwise) == head_revision()
    assert schema(created) == schema(stepwise)
    assert "alembic_version" in schema(created)
    created.dispose()
    stepwise.dispose()


def test_a_database_created_from_the_metadata_still_takes_alembics_migrations_down_and_up(url):
    from pbem.store.db import head_revision, stored_revision

    engine = open_database(url)
    before = schema(engine)
    migrate(engine, "0001", down=True)
    assert stored_revision(engine) == "0001"
    engine.dispose()
    engine = open_database(url)  # not empty: migrated by Alembic, step by step
    assert stored_revision(engine) == head_revision()
    assert schema(engine) == before
    engine.dispose()


def test_opening_a_new_database_loads_no_alembic_and_no_table_model(tmp_path):
    """Its tables come from the statements stored for the head (#34: `dm new` defines only the models it uses)."""
    probe = ("import json, sys; from pbem.store.db import open_database; "
             f"open_database('sqlite:///{tmp_path / 'new.db'}'); "
             "print(json.dumps(sorted(m for m in sys.modules if m.startswith(('alembic', 'pbem.store.')))))")
    shown = subprocess.run([sys.executable, "-c", probe], capture_output=True, text=True, check=True,
                           cwd=Path(__file__).resolve().parent.parent)
    assert json.loads(shown.stdout) == ["pbem.store.db", "pbem.store.schema"]


@pytest.mark.parametrize("dialect", schema_files.DIALECTS)
def test_the_stored_statements_are_what_the_models_create_at_the_head(dialect):
    """pbem/store/schema.DIALECT.sql is what the models' metadata creates, written at the newest migration."""
    from pbem.store.db import head_revision

    stored = (schema_files.FOLDER / f"schema.{dialect}.sql").read_text(encoding="utf-8")
    assert stored == schema_files.file_text(dialect, head_revision()), "write it again: python -m pbem.store.schema"
    assert schema_files.statements(dialect, head_revision()) == schema_files.from_models(dialect)


def test_a_stored_file_of_another_revision_is_not_used_the_models_create_the_tables(url, tmp_path, monkeypatch):
    """A migration added after the file was written makes it stale: the metadata builds the new database."""
    from pbem.store.db import head_revision

    for dialect in schema_files.DIALECTS:
        (tmp_path / f"schema.{dialect}.sql").write_text("-- written at another revision\nCREATE TABLE stale (id INTEGER)"
                                                        ";\n", encoding="utf-8")
    monkeypatch.setattr(schema_files, "FOLDER", tmp_path)
    assert schema_files.statements("sqlite", head_revision()) is None
    engine = open_database(url)
    load_table_modules()
    with engine.connect() as connection:
        assert compare_metadata(MigrationContext.configure(connection), SQLModel.metadata) == []
        assert "stale" not in inspect(connection).get_table_names()
    engine.dispose()


def test_the_table_modules_hold_every_table_of_the_store():
    """`load_table_modules` imports only TABLE_MODULES: importing every other module of pbem.store adds no table."""
    probe = ("import importlib, json, pkgutil, pbem.store; from sqlmodel import SQLModel; "
             "from pbem.store.db import load_table_modules; load_table_modules(); "
             "listed = sorted(SQLModel.metadata.tables); "
             "[importlib.import_module(f'pbem.store.{m.name}') for m in pkgutil.iter_modules(pbem.store.__path__) "
             "if m.name != 'migrations']; "
             "print(json.dumps([listed, sorted(SQLModel.metadata.tables)]))")
    shown = subprocess.run([sys.executable, "-c", probe], capture_output=True, text=True, check=True,
                           cwd=Path(__file__).resolve().parent.parent)
    listed, every = json.loads(shown.stdout)
    assert TABLES <= set(listed)
    assert listed == every


def test_a_new_database_that_fails_half_way_is_left_empty_to_be_created_again(url, monkeypatch):
    """Created in one transaction (on SQLite too): a failure leaves no half schema that the next open would
    take for an old database and hand to Alembic."""
    from pbem.store import db

    def failing_stamp(revision):  # the stamp fails after every table is created
        return ["SELECT * FROM no_such_table"]

    monkeypatch.setattr(db, "stamp", failing_stamp)
    with pytest.raises(DBAPIError, match="no_such_table"):
        open_database(url)
    monkeypatch.undo()
    engine = create_engine(url)
    assert inspect(engine).get_table_names() == []
    engine.dispose()
    engine = open_database(url)
    assert db.stored_revision(engine) == db.head_revision()
    engine.dispose()


def test_creating_a_database_another_run_has_just_created_leaves_it_as_it_is(url):
    """Two runs may both find a new file empty; the second to take the lock finds the tables and the stamp made."""
    from pbem.store.db import create_at_head, head_revision, stored_revision

    engine = open_database(url)
    with Session(engine) as session:
        session.add(Game(name="kept", ruleset="geeko", seed="1", setup="{}",
                         created_at=datetime(2026, 1, 1, tzinfo=timezone.utc)))
        session.commit()
    create_at_head(engine)
    assert stored_revision(engine) == head_revision()
    with Session(engine) as session:
        assert session.exec(select(Game.name)).all() == ["kept"]
    engine.dispose()
