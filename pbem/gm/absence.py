"""Announced absences (`pbem game away`) and what the game's absence policy does about a turn due meanwhile:
`extend` moves each such deadline once, to the end of the absence; `pilot` lets the robot pilot send the absent
player's orders at the deadline when none came (stored like any player's, so replays play them again).

A death match takes no absence: its deadlines pass for both players whatever happens (RULES D5), and only the
game master moves one, by an extension the rules record (`pbem turn extend`) or by pausing the match."""
from __future__ import annotations

from datetime import datetime

from sqlmodel import Session

from ..formats.controls import Absence as Policy
from ..formats.controls import Control
from ..formats.schedule import due_text
from ..store import turns
from ..store.controls import Absence, absences, history, paused, record
from ..store.games import Refused, current_state, get_game, lock_game
from ..store.matches import is_match
from ..store.schedule import Deadline, deadline_of, schedule_for
from ..store.tables import Game
from .clock import move_to
from .cycle import take_orders
from .pilot import bot_order_file
from .policy import absence as absence_policy
from .roster import seat
from .tell import players, tell


def away(session: Session, name: str, player: str, start: datetime, end: datetime, now: datetime,
         sender: str) -> Policy:
    """Record PLAYER's absence from START to END; every player is told what the game's policy does about it, and
    the running turn follows it at once. The policy that applies."""
    lock_game(session, name)
    game = get_game(session, name)
    seat(session, game, player)
    if is_match(game):
        raise Refused([f"{name} is a death match: its deadlines pass for both players whatever happens (RULES D5), "
                       "so an absence cannot hold its clock. Pause it for the absence (pbem game pause "
                       f"{name}; pbem game resume {name} gives back the time that was left) or extend the running "
                       f"deadline (pbem turn extend {name} --to TIME)."])
    if end <= start:
        raise Refused([f"--to {end:%Y-%m-%d %H:%M} UTC is not after --from {start:%Y-%m-%d %H:%M} UTC"])
    if end <= now:
        raise Refused([f"the absence ended already ({end:%Y-%m-%d %H:%M} UTC)"])
    entry = record(session, game, Control.AWAY, now, player, **{"from": start.isoformat(), "to": end.isoformat()})
    policy = absence_policy(session, game)
    zone = _zone(session, game)
    what = (f"Each turn due while {player} is away is extended once, to the end of the absence."
            if policy is Policy.EXTEND else
            f"In a turn due while {player} is away, the robot pilot plays {player}'s robots if no orders came.")
    tell(session, game, entry, sender, now, players(session, game), f"{player} is away",
         [f"{player} is away from {_when(start, zone)} to {_when(end, zone)}.", what])
    state = current_state(session, game)
    deadline = deadline_of(session, game, state.turn) if not state.is_over else None
    if deadline is not None and now < deadline.due_at:
        follow(session, game, deadline, now, sender)
    session.commit()
    return policy


def follow(session: Session, game: Game, deadline: Deadline, now: datetime, sender: str) -> Deadline:
    """Under the `extend` policy, a deadline that falls in an absence moves to its end: every turn due during
    the absence, each turn once per absence (not committed)."""
    if absence_policy(session, game) is not Policy.EXTEND or paused(session, game) is not None:
        return deadline
    used = {(e.data.get("turn"), e.data.get("absence")) for e in history(session, game, Control.EXTEND)}
    for found in absences(session, game):
        key = _key(found)
        if (deadline.turn, key) not in used and found.start <= deadline.due_at < found.end and now < deadline.due_at:
            deadline = move_to(session, game, deadline, found.end, now, sender,
                               f"{found.player} is away until {_when(found.end, _zone(session, game))}", key)
            used.add((deadline.turn, key))
    return deadline


def pilot_absent(session: Session, game: Game, deadline: Deadline) -> list[str]:
    """Under the `pilot` policy, at the deadline: each player away then who sent no orders gets the pilot's,
    stamped with the deadline (not committed). The players the pilot played."""
    if absence_policy(session, game) is not Policy.PILOT:
        return []
    gone = {a.player for a in absences(session, game) if a.start <= deadline.due_at < a.end}
    playing = [p for p in turns.status(session, game.name).waiting_for if p in gone]
    if not playing:
        return []
    state = current_state(session, game)
    files = [(f"pilot/{player}.yaml", bot_order_file(state, player).encode()) for player in playing]
    refused = [p for r in take_orders(session, game.name, files, store=True, at=deadline.due_at) for p in r.problems]
    if refused:  # the pilot checks its programs as the cycle does: this is a bug, never a player's fault
        raise Refused([f"turn {state.turn}: the pilot's orders were refused", *refused])
    return playing


def _key(found: Absence) -> str:
    """An absence as an extension names it (its player and start: the same after export and import)."""
    return f"{found.player} {found.start.isoformat()}"


def _zone(session: Session, game: Game) -> str:
    schedule = schedule_for(session, game)
    return schedule.timezone if schedule else "UTC"


def _when(moment: datetime, zone: str) -> str:
    return due_text(moment, zone).removeprefix("due ")
