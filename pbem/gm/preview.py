"""See before you send (issue #24): orders mailed with `preview: true` are checked as any orders, then played by
the engine on the player's board as it stands (`campaign.rehearse_orders`); `mail.preview` words the reply.
Nothing is stored: it is a rehearsal."""
from __future__ import annotations

from sqlmodel import Session

from ..engine.campaign import check_orders, rehearse_orders
from ..formats.orders import OrderFile
from ..mail.preview import rehearsal_text
from ..store.games import current_state, get_game


def rehearsal_lines(session: Session, order: OrderFile) -> list[str]:
    """The path of each of the player's robots with the programs of `order` (already checked, so legal)."""
    state = current_state(session, get_game(session, order.game))
    checked = check_orders(state, order.player, order.submission)
    snapshots = rehearse_orders(state, order.player, checked)
    programs = {name: [str(card) for card in cards] for name, cards in checked.programs.items()}
    return rehearsal_text([robot.name for robot in state.robots_of(order.player)], programs, snapshots)
