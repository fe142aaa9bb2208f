"""Giving the memory a turn's pictures used back to the system, so a long site build stays flat.

Pillow allocates a picture's pixels with the C library's `malloc`, outside Python's heap. glibc keeps what is freed
for later (its heap only shrinks from the top, and a room's large canvas raises the size below which it stops using
separate mappings), so after each new room of a long campaign the process kept ~10-20 MB more that nothing used
(issue #27). `malloc_trim` hands those free pages back; it costs ~0.2 ms. Where the C library has none (macOS,
musl), there is nothing to do.
"""
from __future__ import annotations

import ctypes
from functools import lru_cache
from typing import Callable


@lru_cache(maxsize=1)
def _malloc_trim() -> Callable[[int], int] | None:
    try:
        return ctypes.CDLL(None).malloc_trim  # the C library the process runs on
    except (OSError, AttributeError):
        return None


def give_back() -> None:
    """Return the C heap's free pages to the system (a turn written: its pictures are gone)."""
    trim = _malloc_trim()
    if trim is not None:
        trim(0)
