"""Death-match mail: every message about a match shows the position as a picture (inline) and as a text board,
the running deadline in minutes and seconds, and what the addressee may send next.

A mail shows the match as of the moment it is written: the caller (pbem.gm.moves.letter) applies every deadline
that has passed by then first, so the picture, the text, the Deadline line and the reply lines all come from one
position and one deadline. Every line fits 78 columns (prose wrapped at spaces; the reply lines, copied whole, are short), and a subject
says when the match is over and who won."""
from __future__ import annotations

import html
from datetime import datetime
from email.message import EmailMessage
from typing import Any

from ..dm.base import Config, get_game
from ..dm.clock import remaining, when
from ..render.message import bare_page, message_id, report_message
from ..render.text import fitted
from .letters import clean

PICTURE = "position.png"
SUBJECT = 120  # the longest subject, in characters


def match_mail(*, sender: str, recipient: str, player: str | None, match: str, config: Config, state: Any,
               now: datetime, subject: str, lines: list[str], token: str, secret: str | None = None,
               zone: str | None = None) -> EmailMessage:
    """The mail to `player` (None: an observer) about `match` at `now`, headed by `lines`, its deadline also in the
    reader's own `zone`; its Message-ID comes from `token` and the recipient, so the same news is never queued
    twice. `state` is the position as of `now`."""
    from ..render.dm import deadline_lines, draw, png_bytes, with_caption  # Pillow, only when a mail is written
    rules = get_game(config.game)
    text = "\n".join(fitted(lines + ["", *position_lines(config, state, now, zone)], hang=0)
                     + reply_lines(config, state, match, player, secret)) + "\n"
    try:
        picture_of = with_caption(draw(config.game, rules.render_data(state)), deadline_lines(rules, state))
        images = {PICTURE: png_bytes(picture_of)}
    except KeyError:  # a game without a drawer still gets its text board
        images = {}
    picture = (f'<p><img src="cid:{PICTURE}@pbem" alt="the position" style="max-width: 100%; height: auto"></p>'
               if images else "")  # a phone shows the picture at its width and scrolls the text board in its box
    page = bare_page(f'{picture}<pre style="font-family: monospace; overflow-x: auto">{html.escape(text)}</pre>')
    message = report_message(sender=sender, recipient=recipient, subject=clean(f"[pbem] {over(rules, state, subject)}", SUBJECT),
                             text=text, html=page, images=images)
    del message["Message-ID"]
    message["Message-ID"] = message_id("dm", token, recipient)
    message["References"] = match_thread(match)
    message["Auto-Submitted"] = "auto-generated"
    return message


def over(rules: Any, state: Any, subject: str) -> str:
    """The subject, saying the match is over and who won when it is (a final mail says so before it is opened)."""
    result = rules.result(state)
    if not result.over:
        return subject
    ending = "; the match is over" + (f": {result.winner} wins" if result.winner else ", no winner")
    room = SUBJECT - len("[pbem] ") - len(ending)
    return (subject if len(subject) <= room else subject[:room - 1] + "…") + ending


def match_thread(match: str) -> str:
    """The id every mail about one match refers to, so mail readers show the match as one thread."""
    return message_id("match", match)


def position_lines(config: Config, state: Any, now: datetime, zone: str | None = None) -> list[str]:
    """The text board, then the clock: when the running deadline passes (in the reader's own `zone` too, when it
    is not UTC), how long that is, whom it waits for."""
    from ..formats.schedule import moment_text
    from ..render.dm import write
    rules = get_game(config.game)
    lines = write(config.game, rules.render_data(state)).rstrip("\n").split("\n")
    deadline = rules.deadline(state)
    if deadline is not None:
        waiting = f"waiting for {deadline.waiting}" if deadline.waiting else "open to both players"
        own = f" ({moment_text(deadline.at, zone, seconds=True)} your time)" if zone and zone != "UTC" else ""
        lines += ["", f"Deadline: {when(deadline.at)}{own}, {waiting}.",
                  f"That is {remaining(deadline.at, now)} from {when(now)}, when this mail was written."]
        lines += [f"  {what}: {when(at)} ({remaining(at, now)} from now)" for what, at in deadline.by_kind]
        lines += [f"If it passes: {deadline.effect}."]
    return lines


def reply_lines(config: Config, state: Any, match: str, player: str | None, secret: str | None) -> list[str]:
    """What `player` may send now and the lines to send it (the first offer, ready to send); or why nothing (an
    observer, `player` None, sends nothing)."""
    if player is None:
        return ["", "You observe this match: there is nothing for you to send."]
    rules = get_game(config.game)
    hints = rules.hints(state, player)
    if not hints:
        why = ("the match is over" if rules.is_over(state)
               else rules.waiting(state, player) or "you will hear when it is your turn")
        return ["", *fitted([f"Nothing to send now: {why}."], hang=0)]
    lines = ["", "You may send now:", *fitted([f"  {hint}" for hint in hints]), "",
             "Reply with these lines (one action):", f"  match: {match}", f"  player: {player}"]
    if secret:
        lines.append(f'  secret: "{secret}"')
    return lines + [f"  action: {hints[0].split('  ')[0]}"]
