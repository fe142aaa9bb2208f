"""Small least-recently-used caches of work done on a room (the pilot's step tables and distance fields,
issue #16). An entry keeps its room alive, so that the room's id in a key is never reused while it lives."""
from __future__ import annotations

from collections import OrderedDict
from typing import Any, Generic, TypeVar

from .room import Room

V = TypeVar("V")
Key = tuple[object, ...]  # the room's id first, then whatever else the value depends on

_CACHES: list["RoomCache[Any]"] = []  # every cache, for `forget`


class RoomCache(Generic[V]):
    def __init__(self, size: int = 256):
        self.size = size
        self.entries: OrderedDict[Key, tuple[Room, V]] = OrderedDict()
        _CACHES.append(self)

    def recall(self, key: Key) -> V | None:
        hit = self.entries.get(key)
        if hit is None:
            return None
        self.entries.move_to_end(key)
        return hit[1]

    def remember(self, key: Key, room: Room, value: V) -> V:
        self.entries[key] = (room, value)
        if len(self.entries) > self.size:
            self.entries.popitem(last=False)
        return value


def forget() -> None:
    """Empty every cache (a benchmark's cold start: rooms never seen)."""
    for cache in _CACHES:
        cache.entries.clear()
