"""A player's current turn sheet, mailed again (`resend`, a replacement) under a Message-ID of its own."""
from __future__ import annotations

from datetime import datetime
from typing import Sequence

from sqlmodel import Session

from ..mail.outbox import queue
from ..render.message import message_id
from ..render.sheet import turn_sheet_message
from ..store import turns
from ..store.games import current_state
from ..store.tables import Game
from .turn_sheets import turn_sheets


def queue_sheet(session: Session, game: Game, player: str, sender: str, now: datetime, token: tuple[str, ...],
                templates: Sequence[str] = ()) -> bool:
    """Queue PLAYER's sheet for the dealt turn (not committed); False when no turn is dealt or they get no cards.
    `token` names why, so each resend is a message of its own."""
    state = current_state(session, game)
    if state.is_over or not turns.dealt(session, game, state.turn):
        return False
    sheet = next((s for s in turn_sheets(session, game, state) if s.player == player), None)
    if sheet is None:
        return False
    message = turn_sheet_message(sheet, sender, templates)
    del message["Message-ID"]
    message["Message-ID"] = message_id("sheet", game.name, str(state.turn), player, *token)
    return queue(session, message, "sheet", now) is not None
