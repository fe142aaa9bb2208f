"""Names and mail addresses, checked where they enter (game new, game import, mail dm-player).

A name becomes a folder, a file, a mail header and a database key, so it is
letters, digits, '-', '_' and '.', at most NAME_LIMIT characters, and nothing
else — not even a final newline (which `$` in a pattern would let through). An
address is one plain `local@domain`, as a player's mail program writes it in
`From:`; anything else would fail only later, when mail is sent.
"""
from __future__ import annotations

import re

DEFAULT_SENDER = "Game Master <gm@pbem.invalid>"  # the From of the GM's mail when the GM gives none
NAME_LIMIT = 40
NAME_RULE = f"letters, digits, '-', '_' or '.', at most {NAME_LIMIT} characters, starting with a letter or digit"
_NAME = re.compile(r"[A-Za-z0-9][A-Za-z0-9_.-]*")
_ADDRESS = re.compile(r"[^@\s<>()\[\],;:\"\\]{1,64}@[A-Za-z0-9-]+(\.[A-Za-z0-9-]+)+")


def valid_name(text: object) -> bool:
    """A game, player or robot name: see NAME_RULE."""
    return isinstance(text, str) and len(text) <= NAME_LIMIT and _NAME.fullmatch(text) is not None


def valid_address(text: object) -> bool:
    """A bare mail address (`alice@example.org`), at most 254 characters, with a dotted domain."""
    return isinstance(text, str) and len(text) <= 254 and _ADDRESS.fullmatch(text) is not None


def address_problem(text: object) -> str | None:
    """Why `text` is not a usable player address, or None."""
    if valid_address(text):
        return None
    return f"{text!r} is not a plain mail address (like alice@example.org)"
