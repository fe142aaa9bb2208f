"""Seeded randomness (RULES B13): every draw has its own RNG, derived from what it is for."""
from __future__ import annotations

import hashlib
import random


def derive_rng(seed: int | str, turn: int, stage: int, purpose: str, entity: str = "") -> random.Random:
    """An RNG from blake2b(game seed, turn, stage, purpose, entity): same inputs, same draws, anywhere."""
    key = "\x1f".join(str(part) for part in (seed, turn, stage, purpose, entity))
    digest = hashlib.blake2b(key.encode("utf-8"), digest_size=16).digest()
    return random.Random(int.from_bytes(digest, "big"))
