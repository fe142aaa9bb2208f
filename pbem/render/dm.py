"""Pictures of death-match positions: one drawer per game, registered by game name.

A drawer turns a game's `render_data` (plain data, no rules) into a Pillow image.
"""
from __future__ import annotations

import io
from typing import Any, Callable

from PIL import Image

Drawer = Callable[[dict[str, Any]], Image.Image]
DRAWERS: dict[str, Drawer] = {}


def drawer(game: str) -> Callable[[Drawer], Drawer]:
    """Decorator: `fn` draws positions of `game`."""

    def register(fn: Drawer) -> Drawer:
        DRAWERS[game] = fn
        return fn

    return register


def draw(game: str, render_data: dict[str, Any]) -> Image.Image:
    from . import dm_drawers  # noqa: F401  (importing registers every bundled drawer)

    return DRAWERS[game](render_data)


def png_bytes(image: Image.Image, compress_level: int = 9) -> bytes:
    """PNG bytes that depend only on the pixels (no time stamps or metadata).

    Board pictures drawn for every stage trade a little size for speed with a lower level.
    """
    buffer = io.BytesIO()
    image.save(buffer, format="PNG", optimize=False, compress_level=compress_level)
    return buffer.getvalue()
