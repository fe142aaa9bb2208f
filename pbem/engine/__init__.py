"""engine layer (see DESIGN.md 'Layers'): BotWars and the Geek-o Challenge, pure and deterministic.

Entry points: `resolve_turn` (one turn), `new_board` (a room with its element states),
`get_ruleset` (a preset with overrides), `hand_size` (RULES B4.1). Mechanisms are
plug-ins (`pbem.engine.mechanism`); the stage is the phase table `pbem.engine.phases.PHASES`.
"""
from .elements import new_board
from .ruleset import BOTWARS, GEEKO, Ruleset, get_ruleset
from .turn import Snapshot, TurnResult, hand_size, receives_cards, resolve_turn

__all__ = ["BOTWARS", "GEEKO", "Ruleset", "Snapshot", "TurnResult", "get_ruleset", "hand_size", "new_board",
           "receives_cards", "resolve_turn"]
