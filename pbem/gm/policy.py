"""A game's control policies (`pbem game policy`): press (off, signed, anonymous) and absences (extend, pilot).

The words are checked where they enter (`formats.controls.policy_word`); a setting is a row of the game's
history, so export/import keeps it and the latest one counts.
"""
from __future__ import annotations

from datetime import datetime

from sqlmodel import Session

from ..formats.controls import DEFAULT_POLICY, Absence, Control, Press, policy_word
from ..store import controls
from ..store.games import Refused, get_game, lock_game
from ..store.matches import is_match
from ..store.tables import Game


def policies(session: Session, game: Game) -> dict[str, str]:
    """Every policy with its value (the default where none was set)."""
    return {name: str(value) for name, value in {**DEFAULT_POLICY, **controls.policy(session, game)}.items()}


def press(session: Session, game: Game) -> Press:
    return Press(policies(session, game)["press"])


def absence(session: Session, game: Game) -> Absence:
    return Absence(policies(session, game)["absence"])


def set_policies(session: Session, name: str, now: datetime, **given: str | None) -> dict[str, str]:
    """Set the policies given (the others stay); each word checked. The policies after."""
    chosen = {key: str(policy_word(key, value)) for key, value in given.items() if value is not None}
    lock_game(session, name)
    game = get_game(session, name)
    if "absence" in chosen and is_match(game):
        raise Refused([f"--absence: {name} is a death match, which takes no absence: its deadlines pass for both "
                       "players whatever happens (RULES D5)"])
    if chosen:
        controls.record(session, game, Control.POLICY, now, **chosen)
    session.commit()
    return policies(session, game)
