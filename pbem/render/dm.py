"""Pictures of death-match positions: one drawer per game, registered by game name.

A drawer turns a game's `render_data` (plain data, no rules) into a Pillow image;
a writer turns it into plain text for the mail body and the terminal.
"""
from __future__ import annotations

import io
from typing import Any, Callable, Mapping

import yaml
from PIL import Image

Drawer = Callable[[dict[str, Any]], Image.Image]
Writer = Callable[[dict[str, Any]], str]
DRAWERS: dict[str, Drawer] = {}
WRITERS: dict[str, Writer] = {}


def drawer(game: str) -> Callable[[Drawer], Drawer]:
    """Decorator: `fn` draws positions of `game`."""

    def register(fn: Drawer) -> Drawer:
        DRAWERS[game] = fn
        return fn

    return register


def writer(game: str) -> Callable[[Writer], Writer]:
    """Decorator: `fn` writes positions of `game` as text."""

    def register(fn: Writer) -> Writer:
        WRITERS[game] = fn
        return fn

    return register


def write(game: str, render_data: Mapping[str, Any]) -> str:
    """The position as text; a game without a writer gets its render data as YAML."""
    from . import dm_drawers  # noqa: F401  (importing registers every bundled drawer and writer)

    if game in WRITERS:
        return WRITERS[game](dict(render_data))
    return yaml.safe_dump(dict(render_data), sort_keys=True, allow_unicode=True)


def draw(game: str, render_data: Mapping[str, Any]) -> Image.Image:
    from . import dm_drawers  # noqa: F401  (importing registers every bundled drawer)

    return DRAWERS[game](dict(render_data))


def png_bytes(image: Image.Image, compress_level: int = 9) -> bytes:
    """PNG bytes that depend only on the pixels (no time stamps or metadata).

    Board pictures drawn for every stage trade a little size for speed with a lower level.
    """
    buffer = io.BytesIO()
    image.save(buffer, format="PNG", optimize=False, compress_level=compress_level)
    return buffer.getvalue()
