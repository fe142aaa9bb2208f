"""A turn's clock: started when the cards go out (moved once by an absence, see `absence`), extended by the GM
before it runs out (RULES B4.7), stopped by a pause and restarted by a resume with the time that was left."""
from __future__ import annotations

from datetime import datetime, timedelta

from sqlmodel import Session

from ..formats.controls import Control, span_text
from ..formats.schedule import due_text
from ..store import turns
from ..store.controls import paused, record
from ..store.games import Refused, current_state, get_game, lock_game
from ..store.schedule import Deadline, deadline_of, move_deadline, schedule_for, start_clock
from ..store.tables import Game
from .tell import everyone, players, tell


def start(session: Session, game: Game, turn: int, now: datetime, sender: str) -> Deadline:
    """The turn's deadline from the schedule, recorded once, and moved once if a player is away then."""
    from .absence import follow  # absences move a clock; the clock does not know about absences

    return follow(session, game, start_clock(session, game, turn, now), now, sender)


def due(session: Session, game: Game, deadline: Deadline, own: str | None = None) -> str:
    """'due Friday 28 November, 20:00 UTC' in the game's time zone (and in the player's `own`, when given)."""
    schedule = schedule_for(session, game)
    return due_text(deadline.due_at, schedule.timezone if schedule else "UTC", own)


def running(session: Session, game: Game) -> Deadline:
    """The deadline of the turn being played, refused when there is none."""
    state = current_state(session, game)
    if state.is_over:
        raise Refused([f"{game.name} is over"])
    deadline = deadline_of(session, game, state.turn) if turns.dealt(session, game, state.turn) else None
    if deadline is None:
        raise Refused([f"turn {state.turn} of {game.name} has no deadline running: give the game a schedule "
                       f"(pbem game set {game.name} --deadline 5d) and let pbem run deal it"])
    return deadline


def extend(session: Session, name: str, now: datetime, sender: str, *, by: timedelta | None = None,
           to: datetime | None = None) -> Deadline | datetime:
    """`pbem turn extend`: the running turn's deadline moved later, before it passes; every player is told. A
    death match's running deadline moves through its own clock (`gm.matchclock`, which answers the moment)."""
    from ..store.matches import find_match

    match = find_match(session, name)
    if match is not None:
        from . import matchclock

        return matchclock.extend(session, match, now, sender, by=by, to=to)
    lock_game(session, name)
    game = get_game(session, name)
    if paused(session, game) is not None:
        raise Refused([f"{name} is paused: resume it first (the time left is kept)"])
    deadline = running(session, game)
    new = to if to is not None else deadline.due_at + (by or timedelta(0))
    moved = move_to(session, game, deadline, new, now, sender, "the game master extended it")
    session.commit()
    return moved


def move_to(session: Session, game: Game, deadline: Deadline, new: datetime, now: datetime, sender: str,
            why: str, absence: str | None = None) -> Deadline:
    """Move a deadline that has not passed to a later time, record it and tell the players (not committed)."""
    if now >= deadline.due_at:
        raise Refused([f"turn {deadline.turn}'s deadline passed at {deadline.due_at:%Y-%m-%d %H:%M} UTC: a "
                       "deadline is extended before it passes (RULES B4.7); the next pbem run processes the turn"])
    if new <= deadline.due_at:
        raise Refused([f"{new:%Y-%m-%d %H:%M} UTC is not after the deadline it would extend, "
                       f"{deadline.due_at:%Y-%m-%d %H:%M} UTC"])
    was = due(session, game, deadline)
    moved = move_deadline(session, game, deadline.turn, new, now)
    entry = record(session, game, Control.EXTEND, now, turn=deadline.turn, was=deadline.due_at.isoformat(),
                   due=new.isoformat(), why=why, absence=absence)
    tell(session, game, entry, sender, now, players(session, game), f"turn {deadline.turn} extended",
         [f"Turn {deadline.turn} of {game.name} is extended ({why}): orders are now {due(session, game, moved)}.",
          f"(They were {was}.) Orders you sent already still count; you may replace them until then."])
    return moved


def pause(session: Session, name: str, now: datetime, sender: str) -> timedelta | None:
    """`pbem game pause`: the clock stops; nothing is reminded or processed until `resume`. The time left on the
    running turn (None: no clock was running). A death match's clock stops the same way (`gm.matchclock`)."""
    from ..store.matches import find_match

    match = find_match(session, name)
    if match is not None:
        from . import matchclock

        return matchclock.pause(session, match, now, sender)
    lock_game(session, name)
    game = get_game(session, name)
    found = paused(session, game)
    if found is not None:
        raise Refused([f"{name} is already paused (since {found.at:%Y-%m-%d %H:%M} UTC)"])
    state = current_state(session, game)
    if state.is_over:
        raise Refused([f"{name} is over"])
    deadline = deadline_of(session, game, state.turn) if turns.dealt(session, game, state.turn) else None
    left = max(deadline.due_at - now, timedelta(0)) if deadline else None
    entry = record(session, game, Control.PAUSE, now, turn=state.turn,
                   remaining=None if left is None else int(left.total_seconds()))
    kept = [] if left is None else [f"Turn {state.turn} had {span_text(left)} left: the clock restarts with that "
                                    "time when the game resumes."]
    tell(session, game, entry, sender, now, everyone(session, game), "paused",
         [f"The game master paused {name}: no orders are due and no turn is processed until it resumes.", *kept])
    session.commit()
    return left


def resume(session: Session, name: str, now: datetime, sender: str) -> Deadline | datetime | None:
    """`pbem game resume`: the clock restarts with the time that was left when it stopped (a death match's:
    `gm.matchclock`, which answers the deadline's moment)."""
    from ..store.matches import find_match

    match = find_match(session, name)
    if match is not None:
        from . import matchclock

        return matchclock.resume(session, match, now, sender)
    lock_game(session, name)
    game = get_game(session, name)
    found = paused(session, game)
    if found is None:
        raise Refused([f"{name} is not paused"])
    deadline = None
    if found.remaining is not None:
        deadline = move_deadline(session, game, found.turn, now + found.remaining, now)
    entry = record(session, game, Control.RESUME, now, turn=found.turn,
                   due=deadline.due_at.isoformat() if deadline else None)
    news = [f"Turn {found.turn} orders are {due(session, game, deadline)}."] if deadline else []
    tell(session, game, entry, sender, now, everyone(session, game), "resumed",
         [f"The game master resumed {name}.", *news])
    session.commit()
    return deadline
