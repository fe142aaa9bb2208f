"""Death matches on the GM's one clock (RULES D5 rulings): the opening mail, and the GM's roll, extension and
timeout, each given after the mail that reached the server before it has been read.

A GM command acts at the time it is given. Mail received before that time counts before it, so the command
first reads the inbox (the same one `pbem run` reads), then acts on the position that mail left, and its mail
goes out at once when an SMTP server is configured. An extension asked for after a deadline has passed (and
before any run applied it) extends nothing: the passed deadline is applied, the players are told, and the GM
hears what it did.
"""
from __future__ import annotations

import secrets
from dataclasses import dataclass, field
from datetime import datetime
from pathlib import Path
from typing import TYPE_CHECKING, Any, Mapping

from sqlmodel import Session

from ..dm.base import Action, Config, get_game
from ..dm.clock import GM, Deadline, advance, when
from ..store import matches as store
from ..store.base import Refused, lock_game
from ..store.tables import Game, OrderVersion, Player
from . import moves
from .moves import letter, opened, opening_token, queue_news, started

if TYPE_CHECKING:  # the inbox reader, the sender and the outbox are imported where used: `dm new` needs none (#34)
    from ..mail.config import MailConfig
    from .intake import Handled


@dataclass
class Command:
    """What a GM command did: accepted or refused (`reason`), the position after it, whom it told."""

    match: str
    config: Config
    state: Any
    reason: str | None = None
    seq: int | None = None
    mailed: list[str] = field(default_factory=list)


def act(session: Session, match: Game, action: Action, now: datetime) -> tuple[OrderVersion, Any]:
    """`pbem dm act`: one action checked and recorded, accepted or refused (`row.reason`), committed; the row and
    the position after it."""
    row, state = moves.submit(session, match, action, now, source="command")
    session.commit()
    return row, state


def tick(session: Session, now: datetime, sender: str, names: list[str] | None) -> list[dict[str, Any]]:
    """`pbem dm tick`: every deadline passed by `now` applied with nobody acting (RULES D5) and the players mailed,
    committed; what moved on."""
    documents = moves.tick_all(session, now, sender, names)
    session.commit()
    return documents


def enrol(session: Session, name: str, player: str, email: str, secret: str | None, now: datetime,
          sender: str) -> tuple[Player, list[tuple[str, str]]]:
    """`pbem mail dm-player`: a death-match player acts by mail from EMAIL with a secret (given, kept, or a new
    random one); a match that has begun has its opening mail queued to them; committed. The player's seat and
    the opening mails queued."""
    match = store.find_match(session, name)
    if match is None:
        raise Refused([f"no death match named {name}"])
    lock_game(session, name)
    seat = store.seat(session, match, player)
    if seat is None:
        raise Refused([f"{player} does not play {name} ({', '.join(store.config_of(match).players)})"])
    seat.email, seat.secret = email, secret or seat.secret or secrets.token_hex(8)
    session.add(seat)
    session.flush()
    opened_now = welcome(session, match, now, sender)
    session.commit()
    return seat, opened_now


def welcome(session: Session, match: Game, now: datetime, sender: str) -> list[tuple[str, str]]:
    """After a seat or an observer gets a new address: the opening mail, with the position as it stands, to each
    address of a begun match that has not had it, and the deadline row kept (not committed); (match, address) of
    each queued."""
    opened_now = open_matches(session, now, sender, [match.name])
    config, state, _ = moves.position(session, match)
    moves.write_deadline(session, match, config, state, now)
    return opened_now


def read_inbox(session: Session, config: MailConfig, now: datetime, maildir: Path | None = None,
               mbox: Path | None = None) -> tuple[list[Handled], str | None]:
    """Every new message, handled as `pbem run` handles it (each committed with its replies); and the reason the
    inbox could not be read, if it could not (a GM command then does nothing: it would act before that mail)."""
    import imaplib

    from ..mail.fetch import messages_from
    from ..store.mail import Outcome
    from .intake import fetch

    try:
        handled = fetch(session, messages_from(session, config.max_bytes, maildir, mbox, config.imap), config, now)
    except (OSError, imaplib.IMAP4.error) as err:
        session.rollback()
        return [], f"cannot read the inbox: {err}"
    return [h for h in handled if h.outcome is not Outcome.DUPLICATE], None


def gm_command(session: Session, name: str, payload: Mapping[str, Any], now: datetime, sender: str) -> Command:
    """The GM's `{roll: N}`, `{extend: SECONDS}` or `{timeout: true}` at `now`, recorded (accepted or refused),
    the players told; committed. Refused (Refused) when there is no such match."""
    match = store.find_match(session, name)
    if match is None:
        raise Refused([f"no death match named {name!r}"])
    lock_game(session, name)
    config, state, _ = moves.position(session, match)
    rules = get_game(config.game)
    # a paused or ended match lets no deadline pass: the command is recorded refused, saying why
    passed = advance(rules, state, now)[1] if moves.halted(session, match) is None else []
    if "extend" in payload and passed:
        _, state = moves.tick(session, match, now)
        done = Command(name, config, state)
        done.mailed = queue_news(session, match, config, state, now, sender, _passed_headline(passed),
                                 f"tick {passed[-1].at.isoformat()}")
        session.commit()
        done.reason = (f"the deadline {when(passed[0].at)} had passed before this extension ({when(now)}): "
                       + "; ".join(f"at {when(d.at)} {d.effect}" for d in passed)
                       + ". That has been applied and the players told; nothing was extended.")
        return done
    before = state
    row, state = moves.submit(session, match, Action(GM, dict(payload), now), now, source="command")
    done = Command(name, config, state, row.reason, row.version)
    if row.reason is None or passed:
        news = [_passed_headline(passed)] if passed else []
        if row.reason is None:
            news.append(_headline(rules, advance(rules, before, now)[0], state, payload))
        done.mailed = queue_news(session, match, config, state, now, sender, "; then ".join(news), f"{row.version}")
    session.commit()
    return done


def _passed_headline(passed: list[Deadline]) -> str:
    return "a deadline passed: " + "; ".join(d.effect for d in passed)


def _headline(rules: Any, before: Any, after: Any, payload: Mapping[str, Any]) -> str:
    """The news of an accepted GM command: what the roll did, the deadline an extension leaves (one value, as the
    mail's Deadline line), what closing the deadline did."""
    if "roll" in payload:
        return "; ".join([f"the GM rolled {payload['roll']}", *rules.news(before, after)])
    if "extend" in payload:
        running = rules.deadline(after)
        return f"the GM extended the deadline by {payload['extend']} s" + (
            f" to {when(running.at)}" if running is not None else "")
    closed = rules.deadline(before)
    return "the GM closed the deadline" + (f": {closed.effect}" if closed is not None else "")


def send_now(session: Session, config: MailConfig, now: datetime) -> int | None:
    """Send the outbox at once when an SMTP server is configured; how many went (None: no server, all queued)."""
    if config.smtp is None:
        return None
    from .outgoing import send_pending

    return sum(d.state == "sent" for d in send_pending(session, config.smtp, config.sender, now))


def queue_opening(session: Session, match: Game, seat: Player | None, config: Config, state: Any, now: datetime,
                  sender: str, observer: str = "") -> bool:
    """The opening mail to one player at one address: who plays, the rules with this match's options, their
    secret, the position and its deadline, and the reply lines; or (`seat` None) to an `observer`'s address: who
    plays, the rules and the position. Once per address; False when queued before."""
    if opened(session, match, seat, observer):
        return False
    from ..mail.outbox import queue

    rules = get_game(config.game)
    players = f"{match.name}: {rules.title}, {' v '.join(config.players)}."
    if seat is None:
        lines = [f"{players} You observe it: each move's news comes to this address.", "", rules.rules_text(state)]
        subject = f"{match.name}: the {rules.title} match begins"
    else:
        lines = [f"{players} You play {seat.name}.", "", rules.rules_text(state), "",
                 f'Your secret is "{seat.secret}": every mail you send about {match.name} carries it (the reply lines '
                 "below have it). Send one action per mail, to this address; it counts when the game master's "
                 "mail server receives it."]
        subject = f"{match.name}: your {rules.title} match begins"
    queue(session, letter(sender=sender, recipient=seat.email if seat is not None else observer,
                          player=seat.name if seat is not None else None, match=match.name, config=config,
                          state=state, now=now, subject=subject, lines=lines, token=opening_token(match, seat),
                          secret=seat.secret if seat is not None else None,
                          zone=seat.timezone if seat is not None else None),
          "notice", now)
    return True


def _start_clock(session: Session, match: Game, config: Config, state: Any, player: str, now: datetime) -> Any:
    """Without a `start` option the first mover's clock starts with their opening mail (RULES D5): the clock's
    `{told: true}` at `now`, recorded, when no deadline runs yet and the turn is `player`'s; the position after."""
    rules, told = get_game(config.game), Action(GM, {"told": True}, now)
    if "start" in config.options or rules.deadline(state) is not None or rules.check(state, told) is not None:
        return state
    running = rules.deadline(rules.apply(state, told))
    if running is None or running.waiting not in (None, player):
        return state
    return moves.submit(session, match, told, now, source="clock")[1]


def open_matches(session: Session, now: datetime, sender: str, names: list[str] | None = None) -> list[tuple[str, str]]:
    """The opening mail to every player who plays a begun, unfinished match by mail and has not had it at their
    address; (match, address) of each queued (not committed)."""
    queued = []
    for match in store.all_matches(session):
        if names is not None and match.name not in names:
            continue
        seats, watchers = moves.unopened(session, match)
        config = store.config_of(match)
        if not (seats or watchers) or not started(config, now):
            continue
        config, state, _ = moves.position(session, match)
        if moves.over(session, match, config, state):
            continue
        for seat in seats:
            state = _start_clock(session, match, config, state, seat.name, now)
            if queue_opening(session, match, seat, config, state, now, sender):
                queued.append((match.name, seat.email))
        for address in watchers:  # the position, never a secret or reply lines (`pbem game observe`)
            if queue_opening(session, match, None, config, state, now, sender, address):
                queued.append((match.name, address))
        moves.write_deadline(session, match, config, state, now)
    return queued


def run_match(session: Session, name: str, now: datetime,
              sender: str) -> tuple[list[tuple[str, str]], list[dict[str, Any]]]:
    """`pbem run`'s part for one death match: its opening mails now due, then every passed deadline applied and
    mailed (not committed). The match's lock is taken first, before anything is written: `dm act` takes it and
    then writes the same rows (the deadline, the outbox), so writing first and locking after could deadlock."""
    lock_game(session, name)
    return open_matches(session, now, sender, [name]), moves.tick_all(session, now, sender, [name])
