"""Names and mail addresses, checked where they enter (game new, game import, mail dm-player).

A name becomes a folder, a file, a mail header and a database key, so it is
letters, digits, '-', '_' and '.', at most NAME_LIMIT characters, and nothing
else — not even a final newline (which `$` in a pattern would let through). An
address is one plain `local@domain`, as a player's mail program writes it in
`From:`; anything else would fail only later, when mail is sent. A domain in
other scripts (`exämple.org`) is accepted when IDNA 2008 (the `idna` package,
UTS #46 mapping) turns it into an ASCII domain: the address is kept as written
and its domain goes over SMTP as that ASCII form (`xn--exmple-cua.org`), which
needs nothing of the server. Python's own `idna` codec is IDNA 2003, which maps
`ß` to `ss` and so names another domain (faß.de is not fass.de).
"""
from __future__ import annotations

import re

DEFAULT_SENDER = "Game Master <gm@pbem.invalid>"  # the From of the GM's mail when the GM gives none
NAME_LIMIT = 40
NAME_RULE = f"letters, digits, '-', '_' or '.', at most {NAME_LIMIT} characters, starting with a letter or digit"
_NAME = re.compile(r"[A-Za-z0-9][A-Za-z0-9_.-]*")
_LOCAL = re.compile(r"[^@\s<>()\[\],;:\"\\]{1,64}")
_DOMAIN = re.compile(r"[A-Za-z0-9-]+(\.[A-Za-z0-9-]+)+")


def valid_name(text: object) -> bool:
    """A game, player or robot name: see NAME_RULE."""
    return isinstance(text, str) and len(text) <= NAME_LIMIT and _NAME.fullmatch(text) is not None


def valid_address(text: object) -> bool:
    """A bare mail address (`alice@example.org`), at most 254 characters, with a dotted domain (in ASCII, or one
    IDNA turns into ASCII)."""
    if not isinstance(text, str) or len(text) > 254:
        return False
    local, at, domain = text.rpartition("@")
    return bool(at) and _LOCAL.fullmatch(local) is not None and ascii_domain(domain) is not None


def address_problem(text: object) -> str | None:
    """Why `text` is not a usable player address, or None."""
    if valid_address(text):
        return None
    return (f"{text!r} is not a plain mail address (like alice@example.org or jürgen@exämple.org: one address, no "
            "name or brackets, a dotted domain that IDNA can write in ASCII)")


def transport_address(address: str) -> str:
    """The address as SMTP carries it: its domain in ASCII (IDNA), its local part as written."""
    local, _, domain = address.rpartition("@")
    return f"{local}@{ascii_domain(domain) or domain}"


def written_address(address: str) -> str:
    """The address with an IDNA domain (`xn--…`) written in its own script again, as a player writes it."""
    local, _, domain = address.rpartition("@")
    if "xn--" not in domain.lower():
        return address
    import idna

    try:
        return f"{local}@{idna.decode(domain)}"
    except idna.IDNAError:
        return address


def ascii_domain(domain: str) -> str | None:
    """The domain in ASCII (an IDNA 2008 A-label for a label in another script), or None when it is none."""
    if not domain.isascii():
        import idna  # only for an internationalised domain

        try:
            domain = idna.encode(domain, uts46=True).decode("ascii")
        except (idna.IDNAError, UnicodeError):
            return None
    return domain if _DOMAIN.fullmatch(domain) else None
