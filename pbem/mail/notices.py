"""Notices the autopilot mails: a reminder to each player whose orders for a turn are still missing, the review
mail to the GM, and the end of a game told (a player's last turn, the result).

Like every message pbem sends they go through the outbox; the Message-ID comes from (game, turn, player,
hours before the deadline), so a reminder is queued once however often `pbem run` passes, and every
message about one turn carries the same References, so mail readers thread them.
"""
from __future__ import annotations

from email.message import EmailMessage
from email.policy import SMTP
from typing import Sequence

from ..render import html
from ..render.message import bare_page, message_id, report_message
from ..render.text import fitted
from ..render.turn import TurnReport, whole_turn_message


def turn_thread(game: str, turn: int) -> str:
    return message_id("turn", game, str(turn))


def game_thread(game: str) -> str:
    """What every control's mail about a game refers to, so mail readers thread them."""
    return message_id("game", game)


def notice(sender: str, address: str, subject: str, lines: list[str], token: tuple[str, ...],
           references: str) -> EmailMessage:
    """A short automatic mail, text and HTML, whose Message-ID comes from `token` and the address (the same
    notice is queued once)."""
    from html import escape  # with a notice only: a due tick writes none (its entities table, ~1 ms)

    message = EmailMessage(policy=SMTP)
    message["From"] = sender
    message["To"] = address
    message["Subject"] = subject
    message["Message-ID"] = message_id(*token, address)
    message["References"] = references
    message["Auto-Submitted"] = "auto-generated"
    message.set_content("\n".join(fitted(lines, hang=0)) + "\n")
    message.add_alternative(bare_page("".join(f"<p>{escape(line)}</p>" for line in lines if line)),
                            subtype="html")
    return message


def reminder(sender: str, game: str, turn: int, player: str, address: str, due: str, hours: int, *,
             fate: Sequence[str] = (), templates: Sequence[str] = ()) -> EmailMessage:
    """'Your orders for GAME turn N are missing; due Friday 28 November, 20:00 UTC', styled like the other mails,
    with `fate`: what will happen to the player's robots if nothing comes (`pbem.gm.schedule.missing_fate`). Its
    Message-ID names the deadline too: after an extension the reminders come again, for the new time."""
    lines = [f"we have no orders from you yet for {game}, turn {turn}: they are {due}.",
             "Send the order file from your turn sheet, with its secret line, as the mail body or an attachment "
             "(or build it by clicking in the turn sheet's attachment, opened in a browser)."]
    fate = list(fate) or ["If no orders come by then, the game's rules for missing orders decide what your robots "
                          "do."]
    paragraphs = [[f"Hello {player},"], *([*fitted([line], hang=0)] for line in lines),
                  [*fitted(fate[:1], hang=0), *fate[1:]], ["(An automatic reminder from the game master's pbem.)"]]
    text = "\n\n".join("\n".join(paragraph) for paragraph in paragraphs) + "\n"
    page = html.render("reminder.html", templates, game=game, turn=turn, player=player, lines=lines, fate=fate)
    flat = due.replace(" (", "; ").removesuffix(")")  # "due … CET; … JST your time": no parenthesis in one
    message = report_message(sender=sender, recipient=address, subject=f"{game}: turn {turn} orders still missing "
                             f"({flat})", text=text, html=page, images={})
    del message["Message-ID"]
    message["Message-ID"] = message_id("reminder", game, str(turn), player, str(hours), due)
    message["References"] = turn_thread(game, turn)
    del message["Auto-Submitted"]
    message["Auto-Submitted"] = "auto-generated"
    return message


def held_for_review(sender: str, game: str, turn: int, report: TurnReport, summary: str, hold: str,
                    templates: Sequence[str] = ()) -> EmailMessage:
    """To the GM: a due turn resolved as a preview — how long it is held (`hold`), the summary, and the preview's
    report itself (every board, the pictures inline); stored and sent only after `pbem turn approve`."""
    heading = [f"Turn {turn} of {game} is due and was resolved as a preview: nothing is stored or sent yet.",
              hold, f"Store it and send the reports with: pbem turn approve {game}", "", *summary.splitlines()]
    message = whole_turn_message(report, sender, sender, f"{game}: turn {turn} is ready for review", heading,
                                 templates)
    message["References"] = turn_thread(game, turn)
    message["Auto-Submitted"] = "auto-generated"
    return message


def no_more_turns(sender: str, game: str, player: str, address: str, note: list[str]) -> EmailMessage:
    """To a player who has no more turns while the game goes on (`render.ending.done_note` says why)."""
    lines = [f"Hello {player},", "", *note, "", "(From the game master's pbem.)"]
    return notice(sender, address, f"{game}: you have no more turns", lines, ("out", game, player), game_thread(game))


def game_over(sender: str, game: str, name: str, address: str, ending: list[str]) -> EmailMessage:
    """To everyone the result concerns: the result and the final standings (`render.ending.ending_lines`)."""
    lines = [f"Hello {name},", "", *ending, "", "Thank you for playing. (From the game master's pbem.)"]
    return notice(sender, address, f"{game}: the game is over", lines, ("end", game), game_thread(game))
