"""How the GM ends a game before its rules do (`pbem game end`, issue #35), as words: the one place they are
said, read by the mails, `pbem status` (which must load no YAML or engine, so this module imports neither),
`game show` and the site."""
from __future__ import annotations

from datetime import datetime
from enum import StrEnum


class Ending(StrEnum):
    WINNER = "winner"
    DRAW = "draw"
    ABANDONED = "abandoned"


def ended_outcome(how: Ending, winner: str | None, reader: str | None = None) -> str:
    """How the GM ended a game, for `reader` ('you win', 'alice wins', 'a draw: nobody wins', 'abandoned …')."""
    if how is Ending.WINNER:
        return "you win" if reader is not None and reader == winner else f"{winner} wins"
    return "a draw: nobody wins" if how is Ending.DRAW else "abandoned, without a result"


def ended_text(game: str, at: datetime, how: Ending, winner: str | None) -> str:
    """'halls ended on 2026-12-03 20:00 UTC: alice wins (the game master ended it)'."""
    return f"{game} ended on {at:%Y-%m-%d %H:%M} UTC: {ended_outcome(how, winner)} (the game master ended it)"
