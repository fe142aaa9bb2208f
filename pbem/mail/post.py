"""What a game mails out: each player's report of the last processed turn and turn sheet of the dealt turn; each
observer's report (every board; never a sheet).

The messages are the renderer's (the same bytes `pbem report` writes as .eml
files); their Message-IDs come from their content, so asking again queues
nothing new, while a turn reprocessed with other orders makes new reports.
"""
from __future__ import annotations

from email.message import EmailMessage
from typing import Sequence

from ..render.sheet import turn_sheet_message
from ..render.turn import Recipient, TurnReport, eml_files, observer_message
from ..store.turns import TurnSheet


def game_mail(report: TurnReport | None, players: Sequence[Recipient], observers: Sequence[str],
              sheets: Sequence[TurnSheet], sender: str, templates: Sequence[str] = ()
              ) -> list[tuple[str, EmailMessage | bytes]]:
    """Each message with its purpose: the last processed turn's `report` to every player and observer, and the
    dealt turn's `sheets` (the GM gathers both: `pbem.gm.ending.queue_game_mail`)."""
    messages: list[tuple[str, EmailMessage | bytes]] = []
    if report is not None:
        messages += [("report", data) for data in eml_files(report, list(players), sender, templates).values()]
        messages += [("report", observer_message(report, address, sender, templates)) for address in observers]
    return messages + [("sheet", turn_sheet_message(sheet, sender, templates)) for sheet in sheets]
