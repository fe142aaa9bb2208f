"""Small least-recently-used caches of work done on a room (the pilot's step tables and distance fields,
issue #16). An entry keeps its room alive, so that the room's id in a key is never reused while it lives."""
from __future__ import annotations

from collections import OrderedDict
from typing import Any

from .room import Room

_CACHES: list["RoomCache"] = []


class RoomCache:
    def __init__(self, size: int = 256):
        self.size = size
        self.entries: "OrderedDict[tuple, tuple[Room, Any]]" = OrderedDict()
        _CACHES.append(self)

    def recall(self, key: tuple) -> Any:
        hit = self.entries.get(key)
        if hit is None:
            return None
        self.entries.move_to_end(key)
        return hit[1]

    def remember(self, key: tuple, room: Room, value: Any) -> Any:
        self.entries[key] = (room, value)
        if len(self.entries) > self.size:
            self.entries.popitem(last=False)
        return value


def forget() -> None:
    """Empty every cache (a benchmark's cold start: rooms never seen)."""
    for cache in _CACHES:
        cache.entries.clear()
