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
from ..render.turn import TurnReport, eml_files, observer_message, recipients
from ..store.controls import observers
from ..store.games import current_state, get_game, players_of, processed_turns
from ..store.played import played_turn
from ..store.turns import dealt, turn_sheets
from .outbox import queue


def queue_game_mail(session: Session, name: str, sender: str, at: datetime, templates: Sequence[str] = (),
                    report: TurnReport | None = None) -> int:
    """Queue the game's reports and turn sheets (not committed); how many were new. `report`: the last processed
    turn's, when the caller has built it already (it is built once per turn, for the mails and the folder)."""
    game = get_game(session, name)
    messages: list[tuple[str, EmailMessage | bytes]] = []
    turns = processed_turns(session, game)
    if turns:
        if report is None or report.turn != turns[-1].number:
            report = outcome_report(game.name, *played_turn(session, game, turns[-1].number))
        messages += [("report", data) for data in eml_files(report, recipients(players_of(session, game)), sender,
                                                              templates).values()]
        messages += [("report", observer_message(report, address, sender, templates))
                     for address in observers(session, game)]
    state = current_state(session, game)
    if not state.is_over and dealt(session, game, state.turn):
        messages += [("sheet", turn_sheet_message(sheet, sender, templates))
                     for sheet in turn_sheets(session, game, state)]
    return sum(queue(session, message, purpose, at) is not None for purpose, message in messages)
