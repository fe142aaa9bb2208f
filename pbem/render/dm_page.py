"""A death match's page for the site: the position (picture and text board), every action as it arrived, and for
Flower Field the whole post-game list of missed duplicates (the mail shows only the first few); and its Atom feed,
an entry for each move that counted, as a campaign's feed has one for each turn played."""
from __future__ import annotations

import json
from dataclasses import dataclass
from datetime import datetime, timezone
from typing import Any, Iterable, Sequence

from ..dm.base import Config, get_game
from . import html
from .dm import draw, png_bytes, write

PICTURE = "position.png"

@dataclass(frozen=True)
class MatchPage:
    """A match for the site: its page's files and its line on the site's index."""

    name: str
    files: dict[str, bytes | str]
    entry: dict[str, Any]


@dataclass(frozen=True)
class Closing:
    """The game master's end of a match (`pbem game end`): its winner (None: a draw, abandoned), in words, and
    when."""

    winner: str | None
    text: str  # 'g1 ended on 2026-12-01 20:03 UTC: bob wins (the game master ended it): ann cannot go on'
    at: datetime


def result_text(config: Config, state: Any, closing: Closing | None = None) -> str:
    """The match's result as the site shows it: the winner, the tally and how it ended (the GM's end, when they
    ended it); or that it is in play."""
    rules = get_game(config.game)
    result = rules.result(state)
    tally = result.lives if result.lives is not None else result.scores
    standing = ", ".join(f"{player} {n}" for player, n in (tally or {}).items())
    unit = " lives" if result.lives is not None else ""
    if closing is not None:
        return f"Over: {closing.text}" + (f" ({standing}{unit})" if standing else "") + "."
    if not result.over:
        return f"In play ({standing}{unit})." if standing else "In play."
    ending = rules.render_data(state).get("ending")
    won = f"Won by {result.winner}" if result.winner else "A draw"
    return f"{won}" + (f" ({standing}{unit})" if standing else "") + (f": {ending}" if ending else "") + "."


def site_match(match: str, config: Config, state: Any, submitted: Sequence[dict[str, Any]],
               templates: Iterable[str] = (), closing: Closing | None = None) -> MatchPage:
    """The match's page from its stored submissions (`gm.moves.submissions`, as they arrived) and its index entry;
    `closing`: the GM's end, when they ended it."""
    actions = [{"seq": row["seq"], "player": row["player"], "reason": row["reason"],
                "at": None if row["at"] is None else row["at"].astimezone(timezone.utc).strftime("%Y-%m-%d %H:%M:%S UTC"),
                "payload": json.dumps(row["payload"], ensure_ascii=False, sort_keys=True)} for row in submitted]
    result = result_text(config, state, closing)
    entry = {"name": match, "game": config.game, "players": list(config.players), "result": result}
    files = match_page(match, config, state, actions, templates, result)
    winner = closing.winner if closing is not None else get_game(config.game).result(state).winner
    files["feed.xml"] = match_feed(match, winner, submitted, templates, closing)
    return MatchPage(match, files, entry)


def match_feed(match: str, winner: str | None, submitted: Sequence[dict[str, Any]],
               templates: Iterable[str] = (), closing: Closing | None = None) -> str:
    """The feed of the match's page: one entry for each move that counted, dated by its stamp (a move without one, from
    a transcript: the campaign feed's EPOCH), and the GM's end last when they ended it."""
    from .site import EPOCH, feed_page

    moves = [{"number": row["seq"], "href": "index.html", "summary": f"{row['player']} sent "
              f"{json.dumps(row['payload'], ensure_ascii=False, sort_keys=True)}.",
              "at": EPOCH if row["at"] is None else _atom(row["at"])}
             for row in submitted if row["reason"] is None]
    if closing is not None:
        moves.append({"number": "end", "title": "ended by the game master", "href": "index.html",
                      "summary": f"{closing.text}.", "at": _atom(closing.at)})
    return feed_page(match, "move", "", moves, [winner] if winner else [], tuple(templates))


def _atom(at: datetime) -> str:
    return at.astimezone(timezone.utc).strftime("%Y-%m-%dT%H:%M:%SZ")


def match_page(match: str, config: Config, state: Any, actions: Sequence[dict[str, Any]],
               templates: Iterable[str] = (), result: str | None = None) -> dict[str, bytes | str]:
    """The files of the match's page: `index.html` and, for a game with a drawer, its picture."""
    rules = get_game(config.game)
    data = rules.render_data(state)
    files: dict[str, bytes | str] = {}
    try:
        image = draw(config.game, data)
        files[PICTURE] = png_bytes(image)
        size = image.size
    except KeyError:
        size = (0, 0)
    files["index.html"] = html.render(
        "match.html", templates, match=match, game=config.game, players=list(config.players),
        result=result if result is not None else result_text(config, state),
        picture=PICTURE if PICTURE in files else None, width=size[0], height=size[1],
        board=write(config.game, data), actions=list(actions), missed=data.get("missed") or [])
    return files
