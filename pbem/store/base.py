"""What every part of the store shares, without the engine: opening a store, refusals, the games and their
players as rows. `pbem game list` needs nothing more (pbem.store.summary), so it imports no engine module."""
from __future__ import annotations

from contextlib import contextmanager
from typing import Any, Iterator

from sqlalchemy import update
from sqlalchemy.engine import Engine
from sqlmodel import Session, col, select

from .db import open_database
from .refusal import Refused as Refused  # where every layer has taken it from
from .tables import Game, Player


class Store:
    """The database of one campaign folder (or server)."""

    def __init__(self, url: str):
        self.url = url
        self.engine: Engine = open_database(url)

    @contextmanager
    def session(self) -> Iterator[Session]:
        with Session(self.engine, expire_on_commit=False) as session:
            yield session

    def close(self) -> None:
        self.engine.dispose()


def read_in_transaction(session: Session, name: str) -> dict[Any, Any]:
    """What the session's transaction has read under `name` (caches in `session.info`): a new transaction starts
    empty, since another run may have changed the rows in between; so does the game's lock (`forget_reads`)."""
    transaction = session.get_transaction()
    held = session.info.get(_READ)
    if held is None or held[0] is not transaction:
        held = session.info[_READ] = (transaction, {})
    caches: dict[str, dict[Any, Any]] = held[1]
    return caches.setdefault(name, {})


def forget_reads(session: Session) -> None:
    """Everything `read_in_transaction` holds read again from now on."""
    session.info.pop(_READ, None)


_READ = "pbem.store.read"  # (the transaction, its caches by name) in session.info


def list_games(session: Session) -> list[Game]:
    return list(session.exec(select(Game).order_by(Game.name)).all())


def players_of(session: Session, game: Game) -> list[Player]:
    """The game's players in seat order, read once a transaction (a due game asked six times, #36): rows changed
    through the session are the same objects, and a game's players are added only with the game."""
    players = read_in_transaction(session, PLAYERS).get(game.id)
    if players is None:
        players = session.exec(select(Player).where(Player.game_id == game.id).order_by(col(Player.position))).all()
        read_in_transaction(session, PLAYERS)[game.id] = players  # the transaction the query began
    return list(players)


PLAYERS, GAMES, LOCKED = "pbem.store.players", "pbem.store.games", "pbem.store.locked"  # read_in_transaction's names


def lock_game(session: Session, name: str) -> None:
    """Take the game's write lock until this transaction ends: a no-op UPDATE of its row, as the transaction's
    first statement, is a row lock in PostgreSQL and the database's write lock in SQLite, so two writers of one
    game (an order or an action being stored, a turn being processed, a deadline applied) run one after the other,
    each seeing the other's work. Taken once a transaction: a step that locks again (a due turn played by
    `pbem run`, which locked the game to look at it) holds it already, and nobody changed the rows since."""
    if name in read_in_transaction(session, LOCKED):
        return
    session.execute(update(Game).where(col(Game.name) == name).values(name=Game.name))
    session.expire_all()  # whatever was read before the lock is read again under it
    forget_reads(session)
    read_in_transaction(session, LOCKED)[name] = True
