"""Alembic environment: migrates the connection pbem hands over, or `sqlalchemy.url` from alembic.ini."""
from alembic import context
from sqlalchemy import create_engine
from sqlalchemy.engine import Connection
from sqlmodel import SQLModel

from pbem.store.db import load_table_modules

load_table_modules()
config = context.config


def run(connection: Connection) -> None:
    context.configure(connection=connection, target_metadata=SQLModel.metadata, render_as_batch=True)
    with context.begin_transaction():
        context.run_migrations()


if "connection" in config.attributes:
    run(config.attributes["connection"])
else:
    url = config.get_main_option("sqlalchemy.url")
    if url is None:
        raise SystemExit("alembic.ini: no sqlalchemy.url to migrate")
    with create_engine(url).begin() as connection:
        run(connection)
