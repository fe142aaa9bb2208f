"""The mail a control owes people: a short notice to each, threaded with everything else about the game.

Its Message-ID comes from the control's row in the history and the address, so it is queued once.
"""
from __future__ import annotations

from datetime import datetime
from typing import Iterable

from sqlmodel import Session

from ..mail.notices import game_thread, notice
from ..mail.outbox import queue
from ..store.base import players_of
from ..store.controls import Entry, observers
from ..store.tables import Game

Person = tuple[str, str]  # (how we greet them, their address)


def players(session: Session, game: Game) -> list[Person]:
    """The players who have an address (a death match's seat has none until its player plays by mail)."""
    return [(p.name, p.email) for p in players_of(session, game) if p.email]


def everyone(session: Session, game: Game) -> list[Person]:
    """The players and the observers."""
    return players(session, game) + [(address, address) for address in observers(session, game)]


def tell(session: Session, game: Game, entry: Entry, sender: str, at: datetime, people: Iterable[Person],
         subject: str, lines: list[str]) -> int:
    """Queue the notice to each person (not committed); how many were queued."""
    count = 0
    for name, address in people:
        message = notice(sender, address, f"{game.name}: {subject}", [f"Hello {name},", "", *lines, "",
                                                                       "(From the game master's pbem.)"],
                         ("control", game.name, str(entry.id), subject), game_thread(game.name))
        count += queue(session, message, "control", at) is not None
    return count
