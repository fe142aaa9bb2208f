"""What a reply about a player's orders teaches from (`mail.ack.OrderHelp`): read from the store, the example
programs asked of the engine (mail only words the reply)."""
from __future__ import annotations

from datetime import datetime
from typing import Mapping, Sequence

from sqlmodel import Session

from ..dm.campaign import get_campaign
from ..formats.schedule import due_text
from ..mail.ack import OrderHelp, time_left
from ..store.games import Refused, current_state, get_game, players_of
from ..store.schedule import deadline_of, schedule_for


def order_help(session: Session, game_name: str | None, player: str | None, now: datetime,
               written: Mapping[str, Sequence[object]] | None = None) -> OrderHelp | None:
    """The player's hand, right programs that keep what they have `written` where they can, and the deadline
    for the open turn; None when there is no such game or player, or nothing to order."""
    if not game_name or not player:
        return None
    try:
        game = get_game(session, game_name)
    except Refused:  # a game that does not exist: the reasons say so, nothing to add
        return None
    state = current_state(session, game)
    if state.is_over or player not in state.players or not state.receiving(player):
        return None
    hands = {holder: [str(card) for card in cards] for holder, cards in state.hands_of(player).items()}
    rules = get_campaign(game.ruleset)
    programs = rules.example_orders(state, player, written)
    examples = {robot: [str(card) for card in cards] for robot, cards in programs.items()}
    change = tuple(rules.orders_to_change(state, player, programs, written or {}))
    deadline, schedule = deadline_of(session, game, state.turn), schedule_for(session, game)
    if deadline is None or schedule is None:
        return OrderHelp(game.name, state.turn, hands, examples, change=change)
    zone = next((p.timezone for p in players_of(session, game) if p.name == player), None)
    return OrderHelp(game.name, state.turn, hands, examples, due_text(deadline.due_at, schedule.timezone, zone),
                     time_left(deadline.due_at, now), change)
