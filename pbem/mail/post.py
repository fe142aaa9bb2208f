"""What a game mails out: each player's report of the last processed turn and turn sheet of the dealt turn; each
observer's report (every board; never a sheet).

The messages are the renderer's (the same bytes `pbem report` writes as .eml
files); their Message-IDs come from their content, so asking again queues
nothing new, while a turn reprocessed with other orders makes new reports.
"""
from __future__ import annotations

from datetime import datetime
from email.message import EmailMessage
from typing import Sequence

from sqlmodel import Session

from ..render.history import outcome_report
from ..render.sheet import turn_sheet_message
from ..render.turn import eml_files, observer_message, recipients
from ..store.controls import holders, observers
from ..store.games import current_state, get_game, players_of, processed_turns
from ..store.played import played_turn
from ..store.turns import dealt, turn_sheets
from .outbox import queue


def queue_game_mail(session: Session, name: str, sender: str, at: datetime, templates: Sequence[str] = ()) -> int:
    """Queue the game's reports and turn sheets (not committed); how many were new."""
    game = get_game(session, name)
    messages: list[tuple[str, EmailMessage | bytes]] = []
    turns = processed_turns(session, game)
    if turns:
        report = outcome_report(game.name, *played_turn(session, game, turns[-1].number))
        readers = recipients(players_of(session, game), holders(session, game))
        messages += [("report", data) for data in eml_files(report, readers, sender, templates).values()]
        messages += [("report", observer_message(report, address, sender, templates))
                     for address in observers(session, game)]
    state = current_state(session, game)
    if not state.is_over and dealt(session, game, state.turn):
        messages += [("sheet", turn_sheet_message(sheet, sender, templates))
                     for sheet in turn_sheets(session, game, state)]
    return sum(queue(session, message, purpose, at) is not None for purpose, message in messages)
