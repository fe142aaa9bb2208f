"""What a death match's mail shows, asked of its rules: the position's text board and picture (the game's own
parts, from `pbem/games.py`), the running deadline, the result, and what one reader may send now. The mail layer
words it (`pbem.mail.post.match_mail`) without running a rule."""
from __future__ import annotations

from typing import Any

from ..dm.base import Config, get_game
from ..mail.post import MatchView


def match_view(config: Config, state: Any, player: str | None, *, drawn: bool = True) -> MatchView:
    """The view of `state` (every passed deadline already applied) for `player` (None: an observer); without
    `drawn`, no picture (a reply in text alone)."""
    from ..render.dm import deadline_lines, draw, png_bytes, with_caption, write  # Pillow, only when a mail is written

    rules = get_game(config.game)
    data = rules.render_data(state)
    picture: bytes | None = None
    try:
        if drawn:
            picture = png_bytes(with_caption(draw(config.game, data), deadline_lines(rules, state)))
    except KeyError:  # a game without a drawer still gets its text board
        pass
    hints = tuple(rules.hints(state, player)) if player is not None else ()
    idle = "" if player is None or hints else (
        "the match is over" if rules.is_over(state) else rules.waiting(state, player) or "you will hear when it is "
                                                                                        "your turn")
    return MatchView(write(config.game, data), picture, rules.deadline(state), rules.result(state), hints, idle)
