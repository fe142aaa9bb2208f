"""A death match's page for the site: the position (picture and text board), every action as it arrived, and for
Flower Field the whole post-game list of missed duplicates (the mail shows only the first few)."""
from __future__ import annotations

from typing import Any, Iterable, Sequence

from ..dm.base import Config, get_game
from . import html
from .dm import draw, png_bytes, write

PICTURE = "position.png"


def match_page(match: str, config: Config, state: Any, actions: Sequence[dict[str, Any]],
               templates: Iterable[str] = ()) -> dict[str, bytes | str]:
    """The files of the match's page: `index.html` and, for a game with a drawer, its picture."""
    rules = get_game(config.game)
    data = rules.render_data(state)
    result = rules.result(state)
    files: dict[str, bytes | str] = {}
    try:
        image = draw(config.game, data)
        files[PICTURE] = png_bytes(image)
        size = image.size
    except KeyError:
        size = (0, 0)
    outcome = (f"Won by {result.winner}." if result.winner else "Over.") if result.over else "In play."
    files["index.html"] = html.render(
        "match.html", templates, match=match, game=config.game, players=list(config.players), result=outcome,
        picture=PICTURE if PICTURE in files else None, width=size[0], height=size[1],
        board=write(config.game, data), actions=list(actions), missed=data.get("missed") or [])
    return files
