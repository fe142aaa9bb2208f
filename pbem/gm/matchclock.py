"""A death match's clock under the GM's controls (issue #33): `pbem game pause` stops it — no deadline passes and
no action counts while it is paused — and `pbem game resume` gives back the time that was left, as the GM's
recorded extension of the running deadline by the time the match stood still (RULES D5: the rules' own
`extend`, so every game's clock does it its way). Both players who play by mail are told, with the position."""
from __future__ import annotations

from datetime import datetime, timedelta

from sqlmodel import Session

from ..dm.base import Action, get_game
from ..dm.clock import GM, when
from ..formats.controls import Control, span_text
from ..store.base import Refused, lock_game
from ..store.controls import paused, record
from ..store.matches import config_of
from ..store.tables import Game
from . import moves
from .cycle import closed


def pause(session: Session, match: Game, now: datetime, sender: str) -> timedelta | None:
    """The match's clock stops at `now` (a deadline passed before is applied first); the time left on the running
    deadline (None: none ran); committed."""
    lock_game(session, match.name)
    closed(session, match)
    found = paused(session, match)
    if found is not None:
        raise Refused([f"{match.name} is already paused (since {found.at:%Y-%m-%d %H:%M} UTC)"])
    passed, state = moves.tick(session, match, now)
    config = config_of(match)
    rules = get_game(config.game)
    if rules.is_over(state):
        raise Refused([f"{match.name} is over"])
    running = rules.deadline(state)
    left = max(running.at - now, timedelta(0)) if running is not None else None
    record(session, match, Control.PAUSE, now, turn=0, remaining=None if left is None else int(left.total_seconds()))
    moves.write_deadline(session, match, config, state, now)
    kept = "" if left is None else f"; {span_text(left)} was left on the clock, and it restarts with that time"
    moves.queue_news(session, match, config, state, now, sender,
                     f"the game master paused the match: no deadline passes and no action counts until it resumes{kept}",
                     f"pause {now.isoformat()}")
    session.commit()
    return left


def resume(session: Session, match: Game, now: datetime, sender: str) -> datetime | None:
    """The match's clock restarts at `now` with the time that was left; the running deadline (None: none runs);
    committed."""
    lock_game(session, match.name)
    closed(session, match)
    found = paused(session, match)
    if found is None:
        raise Refused([f"{match.name} is not paused"])
    config, state, _ = moves.position(session, match)
    rules = get_game(config.game)
    stood = int((now - found.at).total_seconds())
    if rules.deadline(state) is not None and stood > 0:  # the extension counts from the moment it stopped
        _, state = moves.extend_at(session, match, state, Action(GM, {"extend": stood}, found.at))
    running = rules.deadline(state)
    record(session, match, Control.RESUME, now, turn=0, due=running.at.isoformat() if running else None)
    moves.write_deadline(session, match, config, state, now)
    news = f"; the deadline is now {when(running.at)}" if running is not None else ""
    moves.queue_news(session, match, config, state, now, sender, f"the game master resumed the match{news}",
                     f"resume {now.isoformat()}")
    session.commit()
    return running.at if running is not None else None


def extend(session: Session, match: Game, now: datetime, sender: str, *, by: timedelta | None = None,
           to: datetime | None = None) -> datetime:
    """`pbem turn extend` on a match: the running deadline moved later through the game's own clock — the very
    step `pbem dm extend` takes (`matches.gm_command`, RULES D5) — and both players told; the new deadline.
    Refused while paused, with no deadline running, or when it has passed (which is then applied, as dm extend
    does)."""
    from .matches import gm_command

    lock_game(session, match.name)
    closed(session, match)
    found = paused(session, match)
    if found is not None:
        raise Refused([f"{match.name} is paused: resume it first (the time left is kept)"])
    config, state, _ = moves.position(session, match)
    rules = get_game(config.game)
    running = rules.deadline(state)
    if running is None:
        raise Refused([f"{match.name} has no deadline running to extend"])
    seconds = int(by.total_seconds()) if by is not None else int(((to or running.at) - running.at).total_seconds())
    if seconds <= 0:
        raise Refused([f"{when(running.at + timedelta(seconds=seconds))} is not after the deadline it would "
                       f"extend, {when(running.at)}"])
    done = gm_command(session, match.name, {"extend": seconds}, now, sender)
    moved = rules.deadline(done.state)
    if done.reason is not None or moved is None:
        raise Refused([done.reason or f"{match.name} has no deadline running after the extension"])
    return moved.at
