"""The robot pilot's orders for a player (`game autoplay`, and an absent player under the `pilot` policy)."""
from __future__ import annotations

from datetime import datetime
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from sqlmodel import Session

    from .cycle import ProcessResult


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


def autoplay_turn(session: Session, game: str, bots: list[str] | None,
                  at: datetime) -> tuple[ProcessResult, list[str]]:
    """`pbem game autoplay`'s turn, what a GM does by hand: deal, the bots' order files through the same check as
    a player's mail, process (stamped `at`), each step committed; the result and the players the bots played."""
    from ..store.games import Refused, current_state, get_game
    from . import cycle

    cycle.deal(session, game)
    state = current_state(session, get_game(session, game))
    playing = [p for p in state.players if (bots is None or p in bots) and state.expects_orders(p)]
    files = [(f"autoplay/{player}.yaml", bot_order_file(state, player).encode()) for player in playing]
    refused = [p for r in cycle.submit(session, game, files, store=True, at=at) for p in r.problems] if files else []
    if refused:  # the pilot checks its programs as the cycle does: this is a bug, never a player's fault
        raise Refused([f"turn {state.turn}: the bot's orders were refused", *refused])
    return cycle.process(session, game, at=at), playing
