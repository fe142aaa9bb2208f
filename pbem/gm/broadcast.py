"""`pbem mail broadcast`: the GM's message to every player and observer of a game, threaded with its mail."""
from __future__ import annotations

from datetime import datetime

from sqlmodel import Session

from ..formats.controls import Control
from ..store.controls import record
from ..store.games import Refused, get_game, lock_game
from .tell import everyone, tell

MAX_CHARS = 100_000


def broadcast(session: Session, name: str, text: str, now: datetime, sender: str) -> int:
    """Queue TEXT to everyone in the game and keep it in the game's history; how many were queued."""
    text = text.strip()
    if not text:
        raise Refused(["the message is empty"])
    if len(text) > MAX_CHARS:
        raise Refused([f"the message has {len(text):,} characters; the limit is {MAX_CHARS:,}"])
    lock_game(session, name)
    game = get_game(session, name)
    entry = record(session, game, Control.BROADCAST, now, text=text)
    count = tell(session, game, entry, sender, now, everyone(session, game), "from the game master",
                 text.splitlines())
    session.commit()
    return count
