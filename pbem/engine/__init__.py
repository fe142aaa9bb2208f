"""engine layer (see DESIGN.md 'Layers'): BotWars and the Geek-o Challenge, pure and deterministic.

Entry points: `resolve_turn` (one turn), `new_board` (a room with its element states),
`get_ruleset` (a preset with overrides), `hand_size` (RULES B4.1). Mechanisms are
plug-ins (`pbem.engine.mechanism`); the stage is the phase table `pbem.engine.phases.PHASES`.
The names below load on first use, so a command that only registers a plug-in loader pays nothing.
"""
from __future__ import annotations

from importlib import import_module
from typing import Any

_EXPORTS = {"new_board": "elements", "BOTWARS": "ruleset", "GEEKO": "ruleset", "Ruleset": "ruleset",
            "get_ruleset": "ruleset", "Snapshot": "turn", "TurnResult": "turn", "hand_size": "turn",
            "receives_cards": "turn", "resolve_turn": "turn"}
__all__ = sorted(_EXPORTS)


def __getattr__(name: str) -> Any:
    if name not in _EXPORTS:
        raise AttributeError(f"module 'pbem.engine' has no attribute {name!r}")
    return getattr(import_module(f".{_EXPORTS[name]}", __name__), name)
