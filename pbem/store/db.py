"""Opening the database: any SQLAlchemy URL, SQLite by default, migrated to the newest schema on open.

Alembic costs a command more than its own work, so it is imported only when a database is not at the newest
revision: one plain query of `alembic_version` tells. A new, empty database is not migrated step by step either:
its tables are created from the statements stored for the head (`schema.py`), else from the models' metadata, and
stamped at the head (tests/test_store_schema.py proves the schemas are the same), so a first command such as `pbem
dm new` loads no migration script, nor any table model it does not use.
"""
from __future__ import annotations

import importlib
from typing import TYPE_CHECKING

from sqlalchemy import event, inspect
from sqlalchemy.engine import Engine
from sqlalchemy.engine.interfaces import DBAPIConnection
from sqlalchemy.exc import DBAPIError
from sqlmodel import SQLModel, create_engine

from .schema import MIGRATIONS, SQLITE_WAIT_MS, head_revision, stamp, statements

if TYPE_CHECKING:
    from alembic.config import Config


# the modules of pbem.store that define tables (tests/test_store_schema.py checks no other module adds one): the
# others import the engine, which a new database does not need
TABLE_MODULES = ("controls", "mail", "reports", "schedule", "tables", "turn_tables")


def load_table_modules() -> None:
    """Import the modules of pbem.store that define tables, so that every table is in SQLModel.metadata."""
    for name in TABLE_MODULES:
        importlib.import_module(f"{__package__}.{name}")


def alembic_config() -> Config:
    from alembic.config import Config

    config = Config()
    config.set_main_option("script_location", str(MIGRATIONS))
    return config


def open_database(url: str) -> Engine:
    """An engine for `url`, its schema brought up to date (Alembic)."""
    engine = create_engine(url)
    if engine.dialect.name == "sqlite":
        event.listen(engine, "connect", _sqlite_pragmas)
    upgrade(engine)
    return engine


def stored_revision(engine: Engine) -> str | None:
    """The database's schema revision, None for a database without one (new, or made before migrations)."""
    with engine.connect() as connection:
        try:
            return connection.exec_driver_sql("SELECT version_num FROM alembic_version").scalar()
        except DBAPIError:  # no such table
            return None


def upgrade(engine: Engine) -> None:
    revision = stored_revision(engine)
    if revision == head_revision():
        return
    if revision is None and not inspect(engine).get_table_names():
        create_at_head(engine)
        return
    from alembic import command

    config = alembic_config()
    with engine.begin() as connection:
        config.attributes["connection"] = connection
        command.upgrade(config, "head")


def create_at_head(engine: Engine) -> None:
    """Give an empty database every table and stamp it at the newest revision: what every migration in turn would
    build, without loading them. The tables come from the statements stored for the dialect at this revision
    (`schema.py`: no model needs defining), else from the models' metadata. All in one transaction, on SQLite too
    (whose driver would commit each CREATE on its own): a database is created whole or not at all, and synced once.
    On SQLite the write lock is taken first, so a second run opening the same new file waits and then finds it made."""
    head = head_revision()
    stored = statements(engine.dialect.name, head)
    with engine.begin() as connection:
        if engine.dialect.name == "sqlite":
            connection.exec_driver_sql("BEGIN IMMEDIATE")
        if inspect(connection).get_table_names():  # created meanwhile by another run
            return
        if stored is None:
            load_table_modules()
            SQLModel.metadata.create_all(connection)
        for statement in [*(stored or ()), *stamp(head)]:
            connection.exec_driver_sql(statement)


def _sqlite_pragmas(connection: DBAPIConnection, _record: object) -> None:
    cursor = connection.cursor()
    cursor.execute("PRAGMA foreign_keys=ON")
    cursor.execute(f"PRAGMA busy_timeout={SQLITE_WAIT_MS}")  # Python's own default is 5 s: a turn's reports take longer
    cursor.close()
