"""Notices the autopilot mails: a reminder to each player whose orders for a turn are still missing.

Like every message pbem sends they go through the outbox; the Message-ID comes from (game, turn, player,
hours before the deadline), so a reminder is queued once however often `pbem run` passes, and every
message about one turn carries the same References, so mail readers thread them.
"""
from __future__ import annotations

from email.message import EmailMessage
from email.policy import SMTP
from html import escape
from typing import Sequence

from ..engine.campaign import GameState, missing_programs
from ..engine.ruleset import MissingOrders
from ..render import html
from ..render.message import message_id, report_message
from ..render.model import fate_note
from ..render.text import fitted


def turn_thread(game: str, turn: int) -> str:
    return message_id("turn", game, str(turn))


def reminder(sender: str, game: str, turn: int, player: str, address: str, due: str, hours: int, *,
             fate: Sequence[str] = (), templates: Sequence[str] = ()) -> EmailMessage:
    """'Your orders for GAME turn N are missing; due Friday 28 November, 20:00 UTC', styled like the other mails,
    with `fate`: what will happen to the player's robots if nothing comes (`missing_fate`)."""
    lines = [f"we have no orders from you yet for {game}, turn {turn}: they are {due}.",
             "Send the order file from your turn sheet, with its secret line, as the mail body or an attachment "
             "(or build it by clicking in the turn sheet's attachment, opened in a browser)."]
    fate = list(fate) or ["If no orders come by then, the game's rules for missing orders (RULES B4.6) decide "
                          "what your robots do."]
    paragraphs = [[f"Hello {player},"], *([*fitted([line], hang=0)] for line in lines),
                  [*fitted(fate[:1], hang=0), *fate[1:]], ["(An automatic reminder from the game master's pbem.)"]]
    text = "\n\n".join("\n".join(paragraph) for paragraph in paragraphs) + "\n"
    page = html.render("reminder.html", templates, game=game, turn=turn, player=player, lines=lines, fate=fate)
    message = report_message(sender=sender, recipient=address, subject=f"{game}: turn {turn} orders still missing "
                             f"({due})", text=text, html=page, images={})
    del message["Message-ID"]
    message["Message-ID"] = message_id("reminder", game, str(turn), player, str(hours))
    message["References"] = turn_thread(game, turn)
    del message["Auto-Submitted"]
    message["Auto-Submitted"] = "auto-generated"
    return message


def missing_fate(state: GameState, player: str) -> list[str]:
    """`reminder`'s `fate`: what the engine would play for the player's robots under the game's B4.6 policy."""
    policy = state.setup.rules().missing_orders
    programs = {} if policy == MissingOrders.BOT else missing_programs(state, player)
    return fate_note(programs, str(policy))


def held_for_review(sender: str, game: str, turn: int, summary: str, folder: str) -> EmailMessage:
    """To the GM: a due turn resolved as a preview, stored and sent only after `pbem turn approve`."""
    message = EmailMessage(policy=SMTP)
    message["From"] = sender
    message["To"] = sender
    message["Subject"] = f"{game}: turn {turn} is ready for review"
    message["Message-ID"] = message_id("review", game, str(turn), summary)
    message["References"] = turn_thread(game, turn)
    message["Auto-Submitted"] = "auto-generated"
    lines = [f"Turn {turn} of {game} is due and was resolved as a preview: nothing is stored or sent yet.",
             f"The preview's reports are in {folder}.",
             f"Store it and send the reports with: pbem turn approve {game}", "", summary]
    message.set_content("\n".join(lines) + "\n")
    message.add_alternative("<html><body>" + "".join(f"<p>{escape(line)}</p>" for line in lines[:3])
                            + f"<pre>{escape(summary)}</pre></body></html>", subtype="html")
    return message
