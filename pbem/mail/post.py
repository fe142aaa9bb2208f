"""What a game mails out, for every game: a campaign's report of its last processed turn and turn sheet of the
dealt turn to each player, its report to each observer (every board; never a sheet); a death match's position
mail (its picture, its text board, the running deadline and what the reader may send next).

The messages are the renderer's (`render.message.report_message`, the same bytes `pbem report` writes as .eml
files); their Message-IDs come from their content or a token, so asking again queues nothing new. Each game gives
only its own parts, through the registry (`pbem/games.py`): a campaign its stage reports and turn sheets, a match
its picture and text board, which `gm` asks of its rules and draws into a `MatchView`: this module runs no rule.
"""
from __future__ import annotations

from dataclasses import dataclass
from datetime import datetime
from email.message import EmailMessage
from typing import TYPE_CHECKING, Sequence

from ..dm.base import Result
from ..dm.clock import Deadline, remaining, when
from ..render.message import bare_page, message_id, report_message
from ..render.text import fitted
from .letters import clean

if TYPE_CHECKING:  # a campaign's reports and sheets (Jinja2, Pillow) are imported where they are built
    from ..render.sheet import DrawnSheets
    from ..render.turn import Recipient, TurnReport

PICTURE = "position.png"
SUBJECT = 120  # the longest subject of a match mail, in characters


def game_mail(report: TurnReport | None, players: Sequence[Recipient], observers: Sequence[str],
              sheets: DrawnSheets, sender: str, templates: Sequence[str] = ()
              ) -> list[tuple[str, EmailMessage | bytes]]:
    """Each message with its purpose: the last processed turn's `report` to every player and observer, and the
    dealt turn's `sheets` (the GM gathers both: `pbem.gm.ending.queue_game_mail`)."""
    from ..render.sheet import turn_sheet_message
    from ..render.turn import eml_files, observer_message

    messages: list[tuple[str, EmailMessage | bytes]] = []
    if report is not None:
        messages += [("report", data) for data in eml_files(report, list(players), sender, templates).values()]
        messages += [("report", observer_message(report, address, sender, templates)) for address in observers]
    return messages + [("sheet", turn_sheet_message(sheet, sender, templates, sheets)) for sheet in sheets.sheets]


@dataclass(frozen=True)
class MatchView:
    """A match's position as one reader's mail shows it, asked of the game's rules by `pbem.gm.matchview` once
    every deadline passed by the time of writing has been applied: one position, one deadline."""

    board: str  # the text board (the game's writer, `pbem/games.py`)
    picture: bytes | None  # the picture with the deadline under it (None: the game has no drawer)
    deadline: Deadline | None  # the running deadline
    result: Result
    hints: tuple[str, ...] = ()  # what the reader may send now, the first one ready to send (empty: nothing)
    idle: str = ""  # why the reader has nothing to send, when they have not


def match_mail(*, view: MatchView, sender: str, recipient: str, player: str | None, match: str, now: datetime,
               subject: str, lines: list[str], token: str, secret: str | None = None,
               zone: str | None = None) -> EmailMessage:
    """The mail to `player` (None: an observer) about `match` at `now`, headed by `lines`, its deadline also in the
    reader's own `zone`; its Message-ID comes from `token` and the recipient, so the same news is never queued
    twice. Every line fits 78 columns (prose wrapped at spaces; the reply lines, copied whole, are short); the
    subject says when the match is over and who won."""
    import html  # with a match's mail only: a campaign's due tick writes none (its entities table, ~1 ms)

    text = "\n".join(fitted(lines + ["", *position_lines(view, now, zone)], hang=0)
                     + reply_lines(view, match, player, secret)) + "\n"
    images = {PICTURE: view.picture} if view.picture is not None else {}
    picture = (f'<p><img src="cid:{PICTURE}@pbem" alt="the position" style="max-width: 100%; height: auto"></p>'
               if images else "")  # a phone shows the picture at its width and scrolls the text board in its box
    page = bare_page(f'{picture}<pre style="font-family: monospace; overflow-x: auto">{html.escape(text)}</pre>')
    message = report_message(sender=sender, recipient=recipient, subject=clean(f"[pbem] {over(view.result, subject)}",
                                                                               SUBJECT),
                             text=text, html=page, images=images)
    del message["Message-ID"]
    message["Message-ID"] = message_id("dm", token, recipient)
    message["References"] = match_thread(match)
    message["Auto-Submitted"] = "auto-generated"
    return message


def match_thread(match: str) -> str:
    """The id every mail about one match refers to, so mail readers show the match as one thread."""
    return message_id("match", match)


def over(result: Result, subject: str) -> str:
    """The subject, saying the match is over and who won when it is (a final mail says so before it is opened)."""
    if not result.over:
        return subject
    ending = "; the match is over" + (f": {result.winner} wins" if result.winner else ", no winner")
    room = SUBJECT - len("[pbem] ") - len(ending)
    return (subject if len(subject) <= room else subject[:room - 1] + "…") + ending


def position_lines(view: MatchView, now: datetime, zone: str | None = None) -> list[str]:
    """The text board, then the clock: when the running deadline passes (in the reader's own `zone` too, when it
    is not UTC), how long that is, whom it waits for."""
    from ..formats.schedule import moment_text

    lines = view.board.rstrip("\n").split("\n")
    deadline = view.deadline
    if deadline is not None:
        waiting = f"waiting for {deadline.waiting}" if deadline.waiting else "open to both players"
        own = f" ({moment_text(deadline.at, zone, seconds=True)} your time)" if zone and zone != "UTC" else ""
        lines += ["", f"Deadline: {when(deadline.at)}{own}, {waiting}.",
                  f"That is {remaining(deadline.at, now)} from {when(now)}, when this mail was written."]
        lines += [f"  {what}: {when(at)} ({remaining(at, now)} from now)" for what, at in deadline.by_kind]
        lines += [f"If it passes: {deadline.effect}."]
    return lines


def reply_lines(view: MatchView, match: str, player: str | None, secret: str | None) -> list[str]:
    """What `player` may send now and the lines to send it (the first offer, ready to send); or why nothing (an
    observer, `player` None, sends nothing)."""
    if player is None:
        return ["", "You observe this match: there is nothing for you to send."]
    if not view.hints:
        return ["", *fitted([f"Nothing to send now: {view.idle}."], hang=0)]
    lines = ["", "You may send now:", *fitted([f"  {hint}" for hint in view.hints]), "",
             "Reply with these lines (one action):", f"  match: {match}", f"  player: {player}"]
    if secret:
        lines.append(f'  secret: "{secret}"')
    return lines + [f"  action: {view.hints[0].split('  ')[0]}"]
