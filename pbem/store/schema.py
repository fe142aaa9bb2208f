"""The store's tables as SQL, one file per dialect (pbem/store/schema.DIALECT.sql): the statements
`SQLModel.metadata.create_all` emits, written once at the newest migration.

A new database runs them (`db.create_at_head`) instead of defining every table's model first: `pbem dm new` uses a
third of the tables, and defining the others cost it more than everything else it does beyond `import sqlmodel`
(#34). A file is used only at the revision it was written at (its first line): a new migration makes it stale, and
a stale or missing file means the metadata builds the database, as before. `python -m pbem.store.schema` writes the
files; tests/test_store_schema.py checks each is what the models make.
"""
from __future__ import annotations

import re
from functools import lru_cache
from pathlib import Path

FOLDER = Path(__file__).resolve().parent
MIGRATIONS = FOLDER / "migrations"
REVISION = re.compile(r"^(down_revision|revision)\b[^=\n]*=\s*['\"]?([\w-]+)", re.MULTILINE)
DIALECTS = ("sqlite", "postgresql")
SEPARATOR = ";\n\n"
SQLITE_WAIT_MS = 60_000  # a SQLite writer waits this long for another (two cron runs at once) before giving up
# Alembic's own version table, as `alembic stamp` creates it (the same text in every dialect)
ALEMBIC_VERSION = ("CREATE TABLE alembic_version (\n\tversion_num VARCHAR(32) NOT NULL, \n"
                   "\tCONSTRAINT alembic_version_pkc PRIMARY KEY (version_num)\n)")


@lru_cache(maxsize=1)
def head_revision() -> str:
    """The newest migration: the one revision no other names as its `down_revision` (read from the files,
    as Alembic would, without importing it)."""
    revisions: set[str] = set()
    parents: set[str] = set()
    for path in (MIGRATIONS / "versions").glob("*.py"):
        for key, value in REVISION.findall(path.read_text(encoding="utf-8")):
            (revisions if key == "revision" else parents).add(value)
    heads = revisions - parents
    if len(heads) != 1:
        raise RuntimeError(f"the migrations in {MIGRATIONS} have {len(heads)} heads, not one: {sorted(heads)}")
    return heads.pop()


def stamp(revision: str) -> list[str]:
    """The statements that stamp a new database at `revision`, as `alembic stamp` would."""
    return [ALEMBIC_VERSION, f"INSERT INTO alembic_version (version_num) VALUES ('{revision}')"]


def statements(dialect: str, revision: str) -> list[str] | None:
    """The stored statements that create every table in `dialect` at `revision`; None without a file written at
    that revision."""
    path = FOLDER / f"schema.{dialect}.sql"
    if not path.is_file():
        return None
    first, _, body = path.read_text(encoding="utf-8").partition("\n")
    if first != _first_line(revision):
        return None
    return [statement for statement in body.rstrip().removesuffix(";").split(SEPARATOR) if statement.strip()]


def from_models(dialect: str) -> list[str]:
    """What `SQLModel.metadata.create_all` emits for a new database in `dialect`, every table's model loaded: each
    table after those it refers to, then its indexes, in an order that does not depend on which module was imported
    first (ties by name), trailing blanks dropped (an editor would drop them from the file)."""
    from sqlalchemy.engine import make_url
    from sqlalchemy.schema import CreateIndex, CreateTable, sort_tables
    from sqlmodel import SQLModel

    from .db import load_table_modules

    load_table_modules()
    compiler = make_url(f"{dialect}://").get_dialect()()
    made: list[str] = []
    for table in sort_tables(sorted(SQLModel.metadata.tables.values(), key=lambda table: table.name)):
        made += [str(CreateTable(table).compile(dialect=compiler)),
                 *(str(CreateIndex(index).compile(dialect=compiler)) for index in
                   sorted(table.indexes, key=lambda index: str(index.name)))]
    return ["\n".join(line.rstrip() for line in statement.strip().splitlines()) for statement in made]


def file_text(dialect: str, revision: str) -> str:
    return f"{_first_line(revision)}\n{SEPARATOR.join(from_models(dialect))};\n"


def _first_line(revision: str) -> str:
    return f"-- the store's tables at migration {revision}: written by `python -m pbem.store.schema`, do not edit"


def main() -> None:
    """Write every dialect's file at the newest migration (after adding one)."""
    for dialect in DIALECTS:
        (FOLDER / f"schema.{dialect}.sql").write_text(file_text(dialect, head_revision()), encoding="utf-8")


if __name__ == "__main__":
    main()
