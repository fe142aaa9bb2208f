"""What a player may ask by mail, authenticated like orders (their address and their secret):

    game: spring
    player: alice
    secret: "…"
    command: resend          # my current turn sheet again; or `status` (who is in, the deadline), or `help`

    address: alice@new.example        # instead of command: play from this address from now on

    press:                            # instead of command: a message relayed by the GM's address
      to: bob                         # a player, a list of players, or `all`
      text: |
        Truce on the east conveyor?

`gm.intake` hands such a message (one with a `command:`, `address:` or `press:` line) to `judge`; the reply is
the acknowledgement intake sends, and what the command changes is stored with the message's record, in one
transaction under the game's lock.
"""
from __future__ import annotations

from enum import StrEnum
from functools import partial
from typing import Any, Callable, Sequence

from sqlmodel import Session

from ..formats.names import address_problem
from ..formats.yamlfile import FormatError, LinedDict, Problem, load_yaml
from ..mail.letters import Letter, LetterKind
from ..store import turns
from ..store.base import players_of
from ..store.controls import paused
from ..store.games import Refused, lock_game
from ..store.mail import Outcome
from ..store.matches import find_match
from ..store.schedule import deadline_of
from ..store.tables import Game, Player
from .clock import due
from .intake import Handled, authenticate, game_named, resend_position
from .policy import press as press_policy
from .press import recipients, relay
from .roster import change_address
from .sheets import queue_sheet

FIELDS = ("game", "player", "secret", "command", "address", "press", "name", "notes")
ACTIONS = ("command", "address", "press")


class Command(StrEnum):
    RESEND = "resend"
    STATUS = "status"
    HELP = "help"


HELP = ["What you can mail the game master's address, always with game, player and secret,",
        "from your own address:",
        "  your orders          the order file from your turn sheet",
        "  command: resend      your current turn sheet again",
        "  command: status      who has sent orders, and when they are due",
        "  command: help        this text",
        "  address: NEW         play from the address NEW from now on (both are told)",
        "  press: {to: NAME or all, text: ...}",
        "                       a message to other players (NAME: one of them), relayed",
        "                       by the game master when the game allows press"]

MATCH_HELP = ["What you can mail the game master's address about your match, always with",
              "your player and secret, from your own address:",
              "  match: NAME          with `action: {...}`: your move (the reply lines of the",
              "                       match's last mail to you have it ready)",
              "  command: resend      the position mail again, with the lines to send",
              "  command: status      the position and when its deadline passes",
              "  command: help        this text",
              "  address: NEW         play from the address NEW from now on (both are told)",
              "  press: {to: NAME or all, text: ...}",
              "                       a message to the other player, relayed",
              "                       by the game master when the match allows press",
              "A command or press starts with `game: NAME`, an action with `match: NAME`."]


def judge(session: Session, letter: Letter, handled: Handled, *, sender: str,
          templates: Sequence[str] = ()) -> Callable[[], Any] | None:
    """Fill in `handled` (the reply's lines); for a command that changes something, return what does it (not
    committed: intake commits it with the message's record). The game's lock is taken before the game is read."""
    handled.kind = LetterKind.COMMAND
    document = load_yaml(letter.orders or "", letter.source)
    if not isinstance(document, LinedDict):
        raise FormatError([Problem(letter.source, None, "", "a command is a mapping: game, player, secret, command")])
    where = letter.source
    problems = [Problem(where, document.line_of(k), str(k), f"unknown field (expected {', '.join(FIELDS[:6])})")
                for k in document if k not in FIELDS]
    given = [k for k in ACTIONS if k in document]
    if len(given) != 1:
        problems.append(Problem(where, document.line, "command", "exactly one of command:, address: or press:"))
    for key in ("game", "player"):
        if not isinstance(document.get(key), str):
            problems.append(Problem(where, document.line_of(key), key, "missing, or not a name"))
    if problems:
        raise FormatError(problems)
    handled.game, handled.player = document["game"], document["player"]
    lock_game(session, document["game"])
    game = game_named(session, document["game"], where, document.line_of("game"))
    player = next((p for p in players_of(session, game) if p.name == document["player"]), None)
    if player is None:
        raise FormatError([Problem(where, document.line_of("player"), "player",
                                   f"no player {document['player']} in {game.name}")])
    handled.reasons = authenticate(letter, player.name, player.email, player.secret, document.get("secret"),
                                   document.line_of("secret"))
    if handled.reasons:
        return None
    action = given[0]
    if action == "address":
        return _address(session, letter, handled, game, document, sender)
    if action == "press":
        return _press(session, letter, handled, game, document, sender)
    try:
        command = Command(str(document["command"]).strip().lower())
    except ValueError:
        raise FormatError([Problem(where, document.line_of("command"), "command",
                                   f"one of {', '.join(c.value for c in Command)}")]) from None
    handled.outcome = Outcome.ACCEPTED
    if (match := find_match(session, game.name)) is not None:
        return _match_command(session, match, command, player, letter, handled, sender)
    if command is Command.HELP:
        handled.understood = HELP + [f"This game's press: {press_policy(session, game)}."]
    elif command is Command.STATUS:
        handled.understood = status_lines(session, game, player.timezone)
    else:
        handled.understood = [f"Your turn sheet for {game.name} comes again in its own mail."]
        return lambda: _resend(session, game, player.name, letter, handled, sender, templates)
    return None


def status_lines(session: Session, game: Game, own: str | None = None) -> list[str]:
    """Who is in and when orders are due, in the player's `own` time zone too (or that the game is paused or
    over)."""
    turn = turns.status(session, game.name)
    if turn.over:
        return [f"{game.name} is over."]
    expected = [p for p in turn.players if p.expected]
    sent = [p.player for p in expected if p.latest is not None]
    deadline = deadline_of(session, game, turn.turn) if turn.dealt else None
    pause = paused(session, game)
    when = ("paused by the game master" if pause is not None else due(session, game, deadline, own) if deadline
            else "not dealt yet" if not turn.dealt else "due when the game master processes it")
    return [f"{game.name}, turn {turn.turn}: {when}.",
            f"Orders in: {', '.join(sent) or 'nobody yet'}.",
            f"Still missing: {', '.join(turn.waiting_for) or 'nobody'}."]


def _match_command(session: Session, match: Game, command: Command, player: Player, letter: Letter,
                   handled: Handled, sender: str) -> Callable[[], Any] | None:
    """A death-match player's `help` (what they may mail, and their game's actions now), `status` (the position
    and its deadline, in their own zone too) or `resend` (the position mail again, to them alone)."""
    from ..dm.base import get_game
    from ..mail.post import reply_lines
    from .matchview import match_view
    from .moves import halted, position, shown

    config, state, _ = position(session, match)
    now, stopped = letter.received_at, halted(session, match)  # why nothing counts now: paused, or ended
    if command is Command.HELP:
        handled.understood = [*MATCH_HELP, f"This match's press: {press_policy(session, match)}.", "",
                              f"{match.name} is a {get_game(config.game).title} match; its actions now:",
                              *([f"Nothing to send now: {stopped}."] if stopped else
                                reply_lines(match_view(config, shown(config, state, now), player.name, drawn=False),
                                            match.name, player.name, player.secret)[1:])]
        return None
    if command is Command.STATUS:  # the reply is a match mail: the position as the run leaves it (`written_again`)
        handled.understood = [f"{match.name}: {stopped}." if stopped else f"The position of {match.name}:"]
        handled.position, handled.secret, handled.zone = (config, state), player.secret, player.timezone
        return None
    handled.understood = [f"The position of {match.name} comes again in its own mail."]
    handled.resent = (state, f"resend {letter.key}")
    return lambda: resend_position(session, match, config, state, now, sender, player.name, f"resend {letter.key}")


def _resend(session: Session, game: Game, player: str, letter: Letter, handled: Handled, sender: str,
            templates: Sequence[str]) -> None:
    if not queue_sheet(session, game, player, sender, letter.received_at, ("resend", letter.key), templates):
        raise Refused([f"no turn sheet of yours in {game.name} now: no turn is dealt, or your robots get no cards"])


def _address(session: Session, letter: Letter, handled: Handled, game: Game, document: LinedDict,
             sender: str) -> Callable[[], Any]:
    new = document["address"]
    if (problem := address_problem(new)) is not None:
        raise FormatError([Problem(letter.source, document.line_of("address"), "address", problem)])
    handled.outcome = Outcome.ACCEPTED
    handled.understood = [f"{handled.player}'s address in {game.name} is now {new.lower()}; "
                          "both addresses get a notice."]

    def change() -> None:
        change_address(session, game.name, str(handled.player), new, letter.received_at, sender,
                       by=f"mail from {letter.sender}")
    return change


def _press(session: Session, letter: Letter, handled: Handled, game: Game, document: LinedDict,
           sender: str) -> Callable[[], Any]:
    press = document["press"]
    line = document.line_of("press")
    if not isinstance(press, dict) or set(press) - {"to", "text"} or not isinstance(press.get("text"), str):
        raise FormatError([Problem(letter.source, line, "press", "a mapping: to (a player, a list of players, or "
                                   "all) and text")])
    to = press.get("to")
    names = [to] if isinstance(to, str) else to if isinstance(to, list) and all(isinstance(n, str) for n in to) \
        else None
    if not names:
        raise FormatError([Problem(letter.source, line, "press.to", "a player, a list of players, or all")])
    author = str(handled.player)
    going = recipients(session, game, author, names)
    handled.outcome = Outcome.ACCEPTED
    handled.understood = [f"Your press in {game.name} goes to {', '.join(going)} "
                          f"({press_policy(session, game)}); it is kept, and shown on the site when the game ends."]

    def send() -> None:
        relay(session, game, author, names, press["text"], letter.received_at, sender)
    return send


def reader(sender: str, templates: Sequence[str] = ()) -> Callable[[Session, Letter, Handled], Any]:
    """What `gm.intake` is given to read player mail commands, answering from `sender`."""
    return partial(judge, sender=sender, templates=templates)
