"""What a death match's mail shows, asked of its rules: the position's text board and picture (the game's own
parts, from `pbem/games.py`), the running deadline, the result, and what one reader may send now. The mail layer
words it (`pbem.mail.post.match_mail`) without running a rule.

A match the game master ended (`pbem game end`) is shown as ended wherever it is shown (`closed`): its result is
the GM's, no deadline runs, and nobody has anything to send; the position is the one it was ended at."""
from __future__ import annotations

from dataclasses import replace
from typing import TYPE_CHECKING, Any

from ..dm.base import Config, Result, get_game
from ..formats.ending import ended_text

if TYPE_CHECKING:
    from ..mail.post import MatchView
    from ..store.controls import Ended


def closed(result: Result, end: Ended | None) -> Result:
    """The match's result: its rules', or, when the game master ended it (`end`), the GM's winner (None: a draw or
    abandoned) over the tally the moves left."""
    return result if end is None else replace(result, over=True, winner=end.winner)


def closing_text(match: str, end: Ended) -> str:
    """'g1 ended on 2026-12-01 20:03 UTC: bob wins (the game master ended it): ann cannot go on'."""
    return ended_text(match, end.at, end.how, end.winner) + (f": {end.reason}" if end.reason else "")


def caption(rules: Any, state: Any, match: str, end: Ended | None) -> list[str]:
    """What the picture says under the position: the running deadline, or (ended by the GM) that it is over."""
    from ..render.dm import deadline_lines

    return deadline_lines(rules, state) if end is None else [f"Over: {closing_text(match, end)}."]


def match_view(config: Config, state: Any, player: str | None, *, drawn: bool = True, match: str = "",
               end: Ended | None = None) -> MatchView:
    """The view of `state` (every passed deadline already applied) for `player` (None: an observer); without
    `drawn`, no picture (a reply in text alone); `end`: the GM's end of `match`, if they ended it."""
    from ..mail.post import MatchView  # the mail modules load when a mail is written: `dm new` writes none (#34)
    from ..render.dm import draw, png_bytes, with_caption, write  # Pillow, only when a mail is written

    rules = get_game(config.game)
    data = rules.render_data(state)
    picture: bytes | None = None
    try:
        if drawn:
            picture = png_bytes(with_caption(draw(config.game, data), caption(rules, state, match, end)))
    except KeyError:  # a game without a drawer still gets its text board
        pass
    if end is not None:
        idle = f"the match is over: {closing_text(match, end)}" if player is not None else ""
        return MatchView(write(config.game, data), picture, None, closed(rules.result(state), end), (), idle)
    hints = tuple(rules.hints(state, player)) if player is not None else ()
    idle = "" if player is None or hints else (
        "the match is over" if rules.is_over(state) else rules.waiting(state, player) or "you will hear when it is "
                                                                                        "your turn")
    return MatchView(write(config.game, data), picture, rules.deadline(state), rules.result(state), hints, idle)
