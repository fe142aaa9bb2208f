"""`pbem dm new`: a match created, with the actions of a transcript it takes over judged on the one clock (RULES D5),
and written in one step.

Its rows are written with plain SQL (`store.newmatch`): no ORM is imported, which was most of the command's cost
(#34). A new match has nobody playing by mail, no observer and no GM control yet, so its deadline row is its
position's alone (`matchtick.tick_of`); from its first `dm act` on, the ORM's path (`moves`) keeps it.
"""
from __future__ import annotations

from datetime import datetime
from typing import Any

from ..dm import clock
from ..dm.base import Action, Config, get_game
from ..store.newmatch import MatchWriter, Move
from .matchtick import tick_of


def new_match(url: str, name: str, config: Config, state: Any, actions: list[Action], now: datetime) -> tuple[Any, int]:
    """The match created in the database at `url` from `state`, with the actions it goes on from, each recorded
    accepted or refused (after the clock's own action when a deadline passed before it), committed; its position
    and how many actions were accepted. Refused (`Refused`) when a game of that name exists."""
    rules = get_game(config.game)
    moves: list[Move] = []
    accepted = 0
    for action in actions:
        records, state = clock.submit(rules, state, action)
        moves += [Move(record.action.player, record.action.payload, record.action.at, record.reason,
                       "clock" if record.clock else "transcript") for record in records]
        accepted += next(record for record in records if record.action is action).reason is None
    tick = tick_of(name, config, state, now)
    with MatchWriter(url) as writer:
        writer.add_deadline(writer.add(name, config, moves, now), tick.due_at, tick.about(), now)
        writer.commit()
    return state, accepted
