"""The robot pilot's orders for a player (`game autoplay`, and an absent player under the `pilot` policy)."""
from __future__ import annotations

from typing import Any


def bot_order_file(state: Any, player: str) -> str:
    """The pilot's orders for `player` this turn, written as the order file a player would send."""
    from ..engine.planner import plan
    from ..formats.orders import order_text

    rules = state.setup.rules()
    chosen = plan(state.board_of(player), state.players[player].robots, state.receiving(player),
                  state.hands_of(player), rules, seed=state.setup.seed, turn=state.turn,
                  shared_hand=player if rules.shared_hand else None)
    programs = {name: chosen.programs.get(name, []) for name in state.receiving(player)}
    return order_text(state.setup.name, state.turn, player, programs, chosen.reboot)
