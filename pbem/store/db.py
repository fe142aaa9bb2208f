"""Opening the database: any SQLAlchemy URL, SQLite by default, migrated to the newest schema on open."""
from __future__ import annotations

import importlib
import pkgutil
from pathlib import Path

from alembic import command
from alembic.config import Config
from alembic.runtime.migration import MigrationContext
from alembic.script import ScriptDirectory
from sqlalchemy import event
from sqlalchemy.engine import Engine
from sqlmodel import create_engine

MIGRATIONS = Path(__file__).resolve().parent / "migrations"


def load_table_modules() -> None:
    """Import every module of pbem.store so that every table is in SQLModel.metadata."""
    package = importlib.import_module(__package__)
    for module in pkgutil.iter_modules(package.__path__):
        if not module.name.startswith("_") and module.name != "migrations":
            importlib.import_module(f"{__package__}.{module.name}")


def alembic_config() -> Config:
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


def upgrade(engine: Engine) -> None:
    head = ScriptDirectory.from_config(alembic_config()).get_current_head()
    with engine.connect() as connection:
        if MigrationContext.configure(connection).get_current_revision() == head:
            return
    config = alembic_config()
    with engine.begin() as connection:
        config.attributes["connection"] = connection
        command.upgrade(config, "head")


def _sqlite_pragmas(connection, _record) -> None:
    cursor = connection.cursor()
    cursor.execute("PRAGMA foreign_keys=ON")
    cursor.close()
