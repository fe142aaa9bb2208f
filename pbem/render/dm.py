"""Pictures of death-match positions: each game's drawer and writer, as `pbem.games` lists them.

A drawer turns a game's `render_data` (plain data, no rules) into a Pillow image;
a writer turns it into plain text for the mail body and the terminal. Each takes its game's view
(`dm/views.py`), the TypedDict the game's `render_data` returns, so mypy checks every field read against it;
tests/test_games_registry.py checks that the registry pairs each game with drawers of its own view.
"""
from __future__ import annotations

import io
from typing import TYPE_CHECKING, Any, Callable, Mapping

from .. import games

if TYPE_CHECKING:
    from PIL import Image  # loaded where a picture is made (a site lists matches without drawing)

Drawer = Callable[[dict[str, Any]], "Image.Image"]
Writer = Callable[[dict[str, Any]], str]


def write(game: str, render_data: Mapping[str, Any]) -> str:
    """The position as text; a game without a writer gets its render data as YAML."""
    path = games.entry(game, games.Kind.MATCH).text
    if path is None:
        import yaml  # for the games without a writer only (#34)

        return yaml.safe_dump(dict(render_data), sort_keys=True, allow_unicode=True)
    fn: Writer = games.part(path)
    return fn(dict(render_data))


def draw(game: str, render_data: Mapping[str, Any]) -> Image.Image:
    """The position's picture; KeyError for a game without a drawer."""
    path = games.entry(game, games.Kind.MATCH).picture
    if path is None:
        raise KeyError(f"no drawer for {game}")
    fn: Drawer = games.part(path)
    return fn(dict(render_data))


def deadline_lines(rules: Any, state: Any) -> list[str]:
    """The running deadline as the picture shows it, asked of the game (empty when none runs)."""
    from ..dm.clock import when

    deadline = rules.deadline(state)
    if deadline is None:
        return []
    waiting = f"waiting for {deadline.waiting}" if deadline.waiting else "open to both players"
    return [f"Deadline: {when(deadline.at)}, {waiting}.", f"If it passes: {deadline.effect}."]


def with_caption(image: Image.Image, lines: list[str]) -> Image.Image:
    """The picture with `lines` under it (the running deadline: one truth in text and picture alike)."""
    if not lines:
        return image
    from PIL import Image, ImageDraw

    from . import style

    font = style.font(14)
    wrapped = [piece for line in lines for piece in style.fit_lines(line, font, image.width - 20)]
    framed = Image.new("RGB", (image.width, image.height + 10 + 20 * len(wrapped)), (255, 255, 255))
    framed.paste(image, (0, 0))
    draw = ImageDraw.Draw(framed)
    for number, line in enumerate(wrapped):
        draw.text((10, image.height + 5 + 20 * number), line, fill=(0, 0, 0), font=font)
    return framed


# A match's picture (`dm new`/`act`/`show`, every match mail, the match's page): level 9 took 12-19 ms of CPU a
# picture, 4 % of a `dm new`, for files 7-9 % smaller than level 6's (#34)
MATCH_PNG_LEVEL = 6


def png_bytes(image: Image.Image, compress_level: int = MATCH_PNG_LEVEL) -> bytes:
    """PNG bytes that depend only on the pixels (no time stamps or metadata).

    Board pictures drawn for every stage trade a little size for speed with a lower level.
    """
    buffer = io.BytesIO()
    buffer.name = "picture.png"  # the format told by the name: Pillow loads its PNG plugin alone, not five (#34)
    image.save(buffer, optimize=False, compress_level=compress_level)
    return buffer.getvalue()
