"""A game set up: `pbem game new` (its players, robots and the state before turn 1, and its schedule if given)."""
from __future__ import annotations

from datetime import datetime

from sqlmodel import Session

from ..dm.campaign import get_campaign
from ..engine.campaign import GameState
from ..formats.game import GameDescription
from ..formats.schedule import Schedule
from ..store import games
from ..store.schedule import set_schedule
from ..store.tables import Game


def create_game(session: Session, description: GameDescription, at: datetime) -> tuple[Game, GameState]:
    """The game described, with its players and robots, and the state before turn 1 the engine builds from its
    setup (not committed)."""
    setup = games.checked_setup(session, description)
    state = get_campaign(setup.ruleset).start(setup)
    return games.create_game(session, description, state, at), state


def new_game(session: Session, description: GameDescription, schedule: Schedule | None,
                  at: datetime) -> tuple[Game, GameState]:
    """The game created at `at` (with its schedule for `pbem run`, if given), committed."""
    game, state = create_game(session, description, at)
    if schedule is not None:
        set_schedule(session, description.name, schedule)
    session.commit()
    return game, state
