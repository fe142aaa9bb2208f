"""A new death match's rows, written with plain SQL: its game row, a seat for each player, its moves (turn 0) and its
deadline row, exactly the columns the tables' models give them (pbem.store.tables; tests/test_new_match_rows.py reads
them back through the ORM). The one way a match's rows are made: `pbem dm new` (a transcript's moves taken over) and
`pbem game import` (an archive's moves as they were stored, each with the message that carried it, and the seats'
addresses) both write them here.

`pbem dm new` is often the first command on a new database, and its cost was mostly the ORM's import (#34), so its
`MatchWriter` writes as the quiet tick reads (`due.py`): a SQLite file through the standard library's sqlite3, a new or
empty one first given the stored schema (`schema.sqlite.sql`) and stamped at the newest migration in the same
transaction, as `db.create_at_head` does; a file at an older revision is migrated first by `db.open_database`, as
before. Any other database through SQLAlchemy's plain SQL on a database `db.open_database` opened (and so created or
migrated). `game import` writes them in its own session's transaction (`MatchRows.joining`).
"""
from __future__ import annotations

import json
import sqlite3
from dataclasses import dataclass
from datetime import datetime, timezone
from pathlib import Path
from typing import TYPE_CHECKING, Any, Callable, Mapping

from ..dm.base import Config
from ..formats.dmpuzzles import puzzle_documents
from .due import NEVER, sqlite_file
from .refusal import Refused
from .schema import SQLITE_WAIT_MS, head_revision, stamp, statements

if TYPE_CHECKING:
    from sqlalchemy import Connection

MOVE_TURN = 0  # a match has no turns: its moves are one sequence (and its one deadline row is turn 0's)
Rows = Callable[..., list[tuple[Any, ...]]]  # (sql, **parameters) -> rows


def canonical(document: Any) -> str:
    """Sorted JSON; a time stamp (an option like `start`) is written in ISO 8601."""
    return json.dumps(document, sort_keys=True, ensure_ascii=False, separators=(",", ":"),
                      default=lambda value: value.isoformat() if isinstance(value, datetime) else str(value))


def config_document(config: Config) -> dict[str, Any]:
    return {"game": config.game, "players": list(config.players), "variant": config.variant,
            "options": dict(config.options), "seed": config.seed, "puzzles": puzzle_documents(config.game, config.puzzles)}


@dataclass(frozen=True)
class Move:
    """One submission kept: by a seat (a player of the config) or by another actor (the GM, the clock)."""

    player: str
    payload: Any
    at: datetime | None
    reason: str | None  # None: accepted
    source: str  # how it came: transcript, clock, mail, command
    mail: str | None = None  # the key of the message that carried it


@dataclass(frozen=True)
class Seat:
    """A seat's address and secret once its player plays by mail (empty before), and the player's time zone."""

    email: str = ""
    secret: str = ""
    timezone: str | None = None


NEW_SEAT = Seat()  # nobody plays by mail yet


class MatchRows:
    """A match's rows written through `rows` in a transaction its caller owns; `sqlite`: the database is SQLite."""

    rows: Rows
    sqlite: bool

    @classmethod
    def joining(cls, connection: Connection) -> MatchRows:
        """Writing in the transaction of `connection` (an ORM session's: `session.connection()`)."""
        writer = cls()
        writer._join(connection)
        return writer

    def _join(self, connection: Connection) -> None:
        from sqlalchemy import text

        self.rows = lambda sql, **parameters: list(connection.execute(text(sql), parameters).all())
        self.sqlite = connection.dialect.name == "sqlite"

    def add(self, name: str, config: Config, moves: list[Move], created_at: datetime,
            seats: Mapping[str, Seat] | None = None) -> int:
        """The match's game row, a seat for each player (`seats` by name, else nobody plays by mail) and its moves in
        order; its id. Refused when a game of that name exists."""
        if self.rows("SELECT id FROM games WHERE name = :name", name=name):
            raise Refused([f"a game named {name!r} exists already"])
        (game,), = self.rows("INSERT INTO games (name, ruleset, seed, setup, created_at) VALUES (:name, :ruleset, "
                             ":seed, :setup, :created_at) RETURNING id", name=name, ruleset=config.game,
                             seed=str(config.seed), setup=canonical(config_document(config)),
                             created_at=self._moment(created_at))
        ids = {player: self._seat(game, position, player, (seats or {}).get(player, NEW_SEAT))
               for position, player in enumerate(config.players)}
        for version, move in enumerate(moves, start=1):
            payload = canonical(dict(move.payload))
            self.rows("INSERT INTO order_versions (game_id, turn, player_id, version, source, text, submission, "
                      "submitted_at, accepted, reason, mail, actor) VALUES (:game, :turn, :seat, :version, :source, "
                      ":payload, :payload, :at, :accepted, :reason, :mail, :actor) RETURNING id", game=game,
                      turn=MOVE_TURN, seat=ids.get(move.player), version=version, source=move.source,
                      payload=payload, at=None if move.at is None else self._moment(move.at),
                      accepted=move.reason is None, reason=move.reason, mail=move.mail,
                      actor=None if move.player in ids else move.player)
        return int(game)

    def _seat(self, game: int, position: int, player: str, seat: Seat) -> int:
        (seat_id,), = self.rows("INSERT INTO players (game_id, position, name, email, secret, timezone) VALUES (:game, "
                                ":position, :name, :email, :secret, :timezone) RETURNING id", game=game,
                                position=position, name=player, email=seat.email, secret=seat.secret,
                                timezone=seat.timezone)
        return int(seat_id)

    def add_deadline(self, game: int, due_at: datetime | None, about: str, now: datetime) -> None:
        """The match's deadline row: the moment its next deadline passes or its opening mail is owed (None: nothing
        until someone acts) and what `pbem status` tells of it (`about`, JSON)."""
        self.rows("INSERT INTO turn_deadlines (game_id, turn, dealt_at, due_at, reminded, approved, about) VALUES "
                  "(:game, :turn, :now, :due_at, '[]', :approved, :about) RETURNING id", game=game, turn=MOVE_TURN,
                  now=self._moment(now), due_at=self._moment(NEVER if due_at is None else due_at), approved=False,
                  about=about)

    def _moment(self, moment: datetime) -> Any:
        """A time as the tables' DateTime columns keep it: in UTC, and on SQLite as SQLAlchemy writes it."""
        moment = moment.astimezone(timezone.utc)
        return moment.strftime("%Y-%m-%d %H:%M:%S.%f") if self.sqlite else moment


class MatchWriter(MatchRows):
    """`with MatchWriter(url) as writer: writer.add(...); writer.commit()`: one transaction on the database at
    `url`, rolled back unless committed."""

    def __init__(self, url: str):
        self.url = url

    def __enter__(self) -> MatchWriter:
        path = sqlite_file(self.url)
        if path is not None and self._sqlite(path):
            self.sqlite = True
            return self
        from .db import open_database

        self.engine = open_database(self.url)  # created or migrated, as every command's database
        self.connection: Any = self.engine.connect()
        self._join(self.connection)
        return self

    def _sqlite(self, path: Path) -> bool:
        """`_open_sqlite`, a file that cannot be opened or read (no such folder, not a database) refused, naming it."""
        try:
            return self._open_sqlite(path)
        except sqlite3.DatabaseError as err:
            if hasattr(self, "connection"):
                self.connection.close()
            raise Refused([f"{path}: cannot write the match there: {err}"]) from None

    def _open_sqlite(self, path: Path) -> bool:
        """Open the file (made if new) with its write lock taken; False (closed) when its schema is at an older
        revision, for `db.open_database` to migrate. A new or empty file gets the schema at the newest revision."""
        connection = self.connection = sqlite3.connect(path, timeout=SQLITE_WAIT_MS / 1000, isolation_level=None)
        connection.execute("PRAGMA foreign_keys=ON")
        connection.execute("BEGIN IMMEDIATE")  # another run making the same new file waits, then finds it made
        self.rows = lambda sql, **parameters: connection.execute(sql, parameters).fetchall()
        tables = {name for name, in self.rows("SELECT name FROM sqlite_master WHERE type = 'table'")}
        head = head_revision()
        stored = statements("sqlite", head)
        if not tables and stored is not None:
            for statement in [*stored, *stamp(head)]:
                connection.execute(statement)
            return True
        if "alembic_version" in tables and self.rows("SELECT version_num FROM alembic_version") == [(head,)]:
            return True
        connection.rollback()
        connection.close()
        return False

    def __exit__(self, *exc: object) -> None:
        self.connection.close()  # what was not committed is rolled back
        if hasattr(self, "engine"):
            self.engine.dispose()

    def commit(self) -> None:
        self.connection.commit()
