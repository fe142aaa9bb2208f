"""Pictures kept between processes: a room's floor takes ~0.3 s to draw and the legend ~0.25 s, and every
`pbem` command that reports a turn would draw them again.

The command line lends a `Shelf` (a cache folder, `pbem.cli.shelf`); with none, nothing is kept. An entry's key
is what the picture is drawn from plus Pillow's version, and a kept picture is stored losslessly, so it is
byte-identical to a fresh drawing; the lender keeps versions of pbem's drawing code apart.
"""
from __future__ import annotations

import hashlib
import io
from typing import TYPE_CHECKING, Callable, TypeVar

from ..shelving import Lent

if TYPE_CHECKING:
    from PIL import Image

T = TypeVar("T")


_LENT = Lent()
lend, shelved = _LENT.lend, _LENT.shelved


def kept(identity: str, make: Callable[[], T], encode: Callable[[T], bytes], decode: Callable[[bytes], T]) -> T:
    """`make()`, or what the shelf kept for `identity` (a damaged entry is drawn again)."""
    shelf = shelved()
    if shelf is None:
        return make()
    import PIL

    key = hashlib.sha256(f"{PIL.__version__}\n{identity}".encode()).hexdigest()
    data = shelf.get(key)
    if data is not None:
        try:
            return decode(data)
        except Exception:  # any unreadable entry is simply drawn again
            pass
    value = make()
    shelf.put(key, encode(value))
    return value


def rgba_picture(data: bytes) -> Image.Image:
    """A kept RGBA picture from its lossless PNG (a `decode` for `kept`); anything else is a damaged entry. Read by
    Pillow's PNG reader itself: `Image.open` of a buffer first loads five format plug-ins (~3 ms, JPEG's with
    `fractions` and `decimal`)."""
    from PIL import PngImagePlugin

    picture = PngImagePlugin.PngImageFile(io.BytesIO(data))
    picture.load()
    if picture.mode != "RGBA":
        raise ValueError("not a kept RGBA picture")
    return picture
