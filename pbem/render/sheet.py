"""The turn sheet laid out: HP, fused registers, the dealt hand and the pre-filled order file.

The content comes from the turn cycle (`pbem.store.cycle.TurnSheet`: robots with mode, hp,
fused registers, whether they receive cards and how many registers are free; the hands;
the order file to edit and send back); this module only presents it, as HTML, text and email.
"""
from __future__ import annotations

from email.message import EmailMessage
from typing import Any, Sequence

from . import html
from .message import report_message


def program_note(robot: Any) -> str:
    if not robot.receives_cards:
        return f"no program this turn ({robot.mode})"
    return f"up to {robot.free_registers} card{'s' if robot.free_registers != 1 else ''}"


def fused_lines(robot: Any) -> list[str]:
    return [f"register {n}: {card or '(empty)'}" for n, card in sorted(robot.fused.items(), reverse=True)]


def _context(sheet: Any) -> dict[str, Any]:
    robots = [{"name": r.name, "mode": r.mode, "hp": r.hp, "note": program_note(r), "fused": fused_lines(r)}
              for r in sheet.robots]
    shared = list(sheet.hands) == [sheet.player]
    hands = [("" if shared else key, cards) for key, cards in sheet.hands.items()]
    return {"sheet": sheet, "robots": robots, "hands": hands}


def turn_sheet_html(sheet: Any, templates: Sequence[str] = ()) -> str:
    return html.render("turn_sheet.html", templates, **_context(sheet))


def turn_sheet_text(sheet: Any) -> str:
    context = _context(sheet)
    lines = [f"{sheet.game}, turn {sheet.turn}: turn sheet for {sheet.player}", ""]
    for robot in context["robots"]:
        lines.append(f"{robot['name']}: {robot['mode']}, HP {robot['hp']}, {robot['note']}")
        lines += [f"    fused {line}" for line in robot["fused"]]
    for holder, cards in context["hands"]:
        lines.append(f"Hand{' of ' + holder if holder else ''}: {' '.join(cards) or '(none)'}")
    lines += ["", "Your order file (edit the programs and send it back):", "", sheet.orders]
    return "\n".join(lines)


def turn_sheet_message(sheet: Any, sender: str, templates: Sequence[str] = ()) -> EmailMessage:
    return report_message(sender=sender, recipient=sheet.email,
                          subject=f"{sheet.game}: turn {sheet.turn} cards for {sheet.player}",
                          text=turn_sheet_text(sheet), html=turn_sheet_html(sheet, templates), images={})
