"""The clock line under a death-match position (RULES D5): turn limit, bonuses, reserves, GM extensions."""
from __future__ import annotations

from ..dm.views import ClockView


def minutes(seconds: int) -> str:
    return f"{seconds // 60}:{seconds % 60:02d}"


def clock_line(clock: ClockView | None) -> str:
    """One line of text, or "" for an untimed match."""
    if not clock:
        return ""
    bonus = "".join(f" (+{minutes(s)} for a {kind})" for kind, s in sorted(clock["bonus"].items()))
    reserve = ", ".join(f"{p} {minutes(s)}" for p, s in clock["reserve"].items())
    extended = "".join(f"; the GM gave {e['player']} {minutes(e['seconds'])} more" for e in clock["extended"])
    return f"Clock: {minutes(clock['turn'])} a turn{bonus}; reserve {reserve}{extended}."
