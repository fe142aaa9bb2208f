"""See before you send (issue #24): orders mailed with `preview: true` are checked as any orders, then played by
the engine on the player's board as it stands (`campaign.rehearse_orders`), and the reply tells the path of the
player's robots, stage by stage. Nothing is stored: it is a rehearsal."""
from __future__ import annotations

from sqlmodel import Session

from ..engine.campaign import check_orders, rehearse_orders
from ..engine.turn import RobotView
from ..engine.vocabulary import Mode
from ..formats.orders import OrderFile
from ..store.games import current_state, get_game


def rehearsal_lines(session: Session, order: OrderFile) -> list[str]:
    """The path of each of the player's robots with the programs of `order` (already checked, so legal)."""
    state = current_state(session, get_game(session, order.game))
    checked = check_orders(state, order.player, order.submission)
    snapshots = rehearse_orders(state, order.player, checked)
    mine = [robot.name for robot in state.robots_of(order.player)]
    lines = ["A REHEARSAL: nothing was stored, and these are not your orders yet.",
             "Your programs on the board as it stands now, every other robot standing still,",
             "every mechanism acting (the turn's end, flags and new cards, is left out):", ""]
    for name in mine:
        views = [next((r for r in snapshot.robots if r.name == name), None) for snapshot in snapshots]
        if views[0] is None:
            continue
        lines.append(f"  {name}: {_where(views[0])}")
        program = [str(card) for card in checked.programs.get(name, [])]
        for stage, after in enumerate(views[1:], start=1):  # the board after stage n is the next one's start
            card = f" ({program[stage - 1]})" if stage <= len(program) else ""
            lines.append(f"    after stage {stage}{card}: {_where(after)}")
    lines += ["", "To give these orders, send the same file without the `preview: true` line."]
    return lines


def _where(view: RobotView | None) -> str:
    if view is None or view.at is None:
        return f"off the board ({view.mode})" if view is not None else "off the board"
    mode = "" if view.mode == Mode.REAL else f", {view.mode}"
    return f"{view.at} facing {view.facing.name}, HP {view.hp}{mode}"
