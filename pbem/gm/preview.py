"""See before you send (issue #24): orders mailed with `preview: true` are checked as any orders, then played by
the engine on the player's board as it stands (the campaign's `rehearse_orders`); `mail.preview` words the reply.
Nothing is stored: it is a rehearsal."""
from __future__ import annotations

from sqlmodel import Session

from ..dm.campaign import get_campaign
from ..formats.orders import OrderFile
from ..mail.preview import rehearsal_text
from ..store.games import current_state, get_game


def rehearsal_lines(session: Session, order: OrderFile) -> list[str]:
    """The path of each of the player's robots with the programs of `order` (already checked, so legal)."""
    game = get_game(session, order.game)
    state, rules = current_state(session, game), get_campaign(game.ruleset)
    checked = rules.check_orders(state, order.player, order.submission)
    snapshots = rules.rehearse_orders(state, order.player, checked)
    programs = {name: [str(card) for card in cards] for name, cards in checked.programs.items()}
    return rehearsal_text([robot.name for robot in state.robots_of(order.player)], programs, snapshots)
