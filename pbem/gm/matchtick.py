"""When the scheduled run next has something to do for a death match, as its deadline row keeps it: a pure function
of the match's position and of what its rows tell (ended or paused by the GM, an opening mail owed), so that `pbem
dm new`, which writes a new match without the ORM, and every later move (`moves.write_deadline`) tell it alike."""
from __future__ import annotations

from datetime import datetime
from typing import Any

from ..dm.base import Config, get_game
from ..dm.clock import moment, when
from ..store.due import MatchTick


def tick_of(name: str, config: Config, state: Any, now: datetime, *, ended: str | None = None,
            paused: datetime | None = None, owed: bool = False) -> MatchTick:
    """The match's tick at `now`: `ended` is the GM's end in words (`pbem game end`), `paused` when the GM paused its
    clock, `owed` whether an address has not had its opening mail yet; a new match has none of them."""
    rules = get_game(config.game)
    done, running = rules.is_over(state), rules.deadline(state)
    if ended is not None:
        return MatchTick(name, config.game, None, True, "", None, f"nothing: {ended}")
    if paused is not None:
        return MatchTick(name, config.game, None, done, "", None,
                         f"nothing: paused since {when(paused)} (pbem game resume {name})")
    wake, effect = (running.at, running.effect) if running is not None and not done else (None, "")
    start = moment(config.options.get("start")) or now
    if not done and owed and (wake is None or start < wake):
        wake, effect = start, "the opening mail goes to the players"
    if done:
        idle = "nothing: the match is over"
    else:
        gm = next((p for p in config.players if rules.waiting(state, p)), None)  # e.g. the GM's dice
        idle = f"nothing until the GM acts: {gm} waits (pbem dm list)" if gm else "nothing until a player acts"
    return MatchTick(name, config.game, wake, done, effect, running.waiting if running is not None and not done else None,
                     idle)
