"""Where a reply's own text ends: the separators real mail clients write above the message they quote or forward.

Outlook quotes without `>`: it writes `-----Original Message-----` (or a line of underscores) and a header block,
`From:` then `Sent:` (or `Date:`), `To:`, `Subject:`, in the writer's language. Gmail, Apple Mail and Thunderbird
write "On … wrote:" (perhaps wrapped over two lines), localised, and forwarding clients a marker line. Below such a
line under the player's orders is the other message, never their orders (README: replies are read as the player
sees them).
"""
from __future__ import annotations

import re

# a marker line on its own: Outlook's, Thunderbird's and Gmail's original/forwarded-message lines, in English,
# German, French, Spanish and Hungarian; Apple Mail's "Begin forwarded message:"; Outlook Web's underscores
_MARKER = re.compile(
    r"^\s*(?:-{2,}\s*(?:original message|forwarded message|ursprüngliche nachricht|weitergeleitete nachricht"
    r"|message d'origine|message transféré|mensaje original|mensaje reenviado|eredeti üzenet|továbbított üzenet)"
    r"\s*-{2,}|begin forwarded message:|début du message réexpédié\s*:|inicio del mensaje reenviado:"
    r"|anfang der weitergeleiteten nachricht:|_{20,})\s*$", re.IGNORECASE)
# Outlook's header block: its first line (From) and the next (Sent, or Date in newer versions), per language
_FROM = re.compile(r"^\s*\*?(?:from|von|de|feladó)\s*:\*?\s+\S", re.IGNORECASE)
_SENT = re.compile(r"^\s*\*?(?:sent|date|gesendet|datum|envoyé|date|enviado|fecha|elküldve|dátum)\s*:\*?\s+\S",
                   re.IGNORECASE)
# "On … wrote:" and its translations, on one line or wrapped over two
_WROTE_END = re.compile(r"(?:\bwrote|\bschrieb\b.*|\ba écrit|\bescribió|\bezt írta)\s*:\s*$", re.IGNORECASE)
_WROTE_START = re.compile(r"^\s*(?:on|am|le|el)\s+\S", re.IGNORECASE)


def reply_ends(lines: list[str]) -> int:
    """The index of the first line of what a reply quotes or forwards (len(lines) when it quotes nothing)."""
    for index, line in enumerate(lines):
        following = lines[index + 1] if index + 1 < len(lines) else ""
        if _MARKER.match(line) or (_FROM.match(line) and _SENT.match(following)):
            return index
        if _WROTE_START.match(line) and (_WROTE_END.search(line) or (
                _WROTE_END.search(following) and not _WROTE_START.match(following))):
            return index
        if _WROTE_END.search(line) and re.search(r"\d", line):  # "1 Dec 2026, at 20:00, GM <…> wrote:"
            return index
    return len(lines)
