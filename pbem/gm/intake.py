"""Accepting mail: each message archived, judged once, answered once — in one transaction.

For every message not seen before (by its key): keep it in the archive, then refuse it (too big, not text,
unknown sender, no orders, sender or secret not the player's, late (RULES B4.7), or anything `pbem turn submit` /
`pbem dm act` would refuse) or accept it through exactly those paths (`gm.cycle.take_orders`,
`gm.moves.submit`), and queue an acknowledgement. Orders are judged under the game's lock, taken before
the turn is read: the record of the message, its order version and its acknowledgement commit together or not
at all, so a message acknowledged as accepted is one the turn uses, and one that loses the race to `turn
process` is refused as late for that turn. A player's mail command (`gm.mailcommands`: resend, status, help,
address, press) is judged the same way, its effect stored in the message's transaction. pbem's own mail back in
the inbox is recorded as `own`, never answered. An interrupted run handles the message again from the start.
"""
from __future__ import annotations

import hmac
import json
import re
from dataclasses import dataclass, field
from datetime import datetime
from typing import Any, Callable, Iterable

import yaml
from sqlalchemy import func
from sqlalchemy.exc import IntegrityError
from sqlmodel import Session, col, select

from ..dm.base import Action
from ..dm.base import get_game as get_dm_game
from ..dm.clock import utc, when
from ..formats.ending import ended_text
from ..formats.orders import OrderFile, parse_orders
from ..formats.schedule import due_text
from ..formats.transcript import plain
from ..formats.yamlfile import FormatError, LinedDict, Problem, load_yaml
from ..mail.ack import acknowledgement, explained
from ..mail.config import MailConfig
from ..mail.identity import letter_keys
from ..mail.inbox import Incoming, archive
from ..mail.letters import Letter, LetterKind, clean, read_letter, stub
from ..mail.outbox import queue
from ..render.message import message_id
from ..store import matches as match_store
from ..store.controls import ended
from ..store.games import Refused, current_state, lock_game, players_of
from ..store.mail import MailOutgoing, MailReceived, Outcome, inbox_state
from ..store.schedule import deadline_of, schedule_for
from ..store.tables import Game, Player
from . import moves
from .cycle import take_orders
from .order_help import order_help
from .preview import rehearsal_lines

_COMMAND = re.compile(r"^(command|address|press)\s*:", re.MULTILINE)
# The reader of player mail commands (`resend`, `status`, `address:`, `press:` …), given by the caller
# (`gm.mailcommands.reader`): it fills in the Handled and may return what stores the command's effect, which is
# done in the message's transaction (never committing) like accepted orders.
Commands = Callable[[Session, "Letter", "Handled"], "Callable[[], Any] | None"]
DM_FIELDS = ("match", "player", "secret", "action", "name", "notes")
_ONE_LINE = 10**9  # an action shown in a reason on one line: YAML breaks a long flow mapping at 80 columns


@dataclass
class Handled:
    """What became of one incoming message."""

    origin: str
    key: str
    sender: str | None
    outcome: Outcome
    kind: LetterKind = LetterKind.NONE
    game: str | None = None
    player: str | None = None
    reasons: list[str] = field(default_factory=list)
    understood: list[str] = field(default_factory=list)  # the orders as taken, when accepted
    archived: str | None = None
    notified: list[tuple[str, str]] = field(default_factory=list)  # (player, address) of a death match's others told
    recorded: bool = False  # refused, but the action itself was recorded (a death match's late or illegal move)
    position: tuple[Any, Any] | None = None  # a death match's (config, state) after the action, shown in the mail
    secret: str | None = None  # the death-match player's secret, for the reply template
    zone: str | None = None  # the death-match player's own time zone, for the Deadline line
    news: list[str] = field(default_factory=list)  # what a death-match action did, in the match's words
    read_at: datetime | None = None  # when this run read it (the CLI's clock)
    written: dict[str, list[Any]] = field(default_factory=dict)  # the programs as sent, kept by a refusal's hint
    reply: MatchReply | None = None  # a death match's acknowledgement as queued, to write again from the run's end
    resent: tuple[Any, str] | None = None  # a match's `command: resend`: the state its mail showed and its token

    def document(self) -> dict[str, Any]:
        """What `mail fetch --json` prints: everything but the position and the secret."""
        return {"origin": self.origin, "key": self.key, "sender": self.sender, "outcome": self.outcome,
                "kind": self.kind, "game": self.game, "player": self.player, "reasons": self.reasons,
                "understood": self.understood, "archived": self.archived,
                "notified": [address for _, address in self.notified], "recorded": self.recorded}

    @property
    def nothing_stored(self) -> str:
        return "Your action was recorded as refused; it changes nothing." if self.recorded else "Nothing was stored."


@dataclass(frozen=True)
class MatchReply:
    """What a death match's acknowledgement says of its own message (the verdict and its lines): the position it
    shows is the run's to choose (`written_again`)."""

    letter: Letter
    verdict: str
    lines: list[str]


def is_known(session: Session, *keys: str) -> bool:
    return session.exec(select(MailReceived.id).where(col(MailReceived.key).in_(keys))).first() is not None


def fetch(session: Session, messages: Iterable[Incoming], config: MailConfig, read_at: datetime,
          commands: Commands | None = None) -> list[Handled]:
    """Handle each message in turn; a handled one is marked read in its inbox. `read_at` is the CLI's clock;
    `commands` reads the players' mail commands (without it they are read as orders, and refused)."""
    results = []
    for incoming in messages:
        results.append(handle(session, incoming, config, read_at, commands))
        incoming.done()
    written_again(session, results, config, read_at)
    return results


def written_again(session: Session, results: list[Handled], config: MailConfig, read_at: datetime) -> None:
    """Every match mail of this run (acknowledgements, a `status` reply, the notices to the others, a `resend`'s
    position) whose position a later message of the same run changed, built again from the position after all of
    them, and committed: a player whose opponent's answer came in the same fetch reads where the match stands, not
    a deadline already gone. Each keeps its Message-ID and replaces its own queued copy while that is still pending,
    so nothing is queued twice; a run killed before this step still sends every mail, each showing the position
    after its message."""
    final: dict[str, tuple[Game, Any, Any]] = {}

    def last(name: str) -> tuple[Game, Any, Any]:
        if name not in final:
            match = match_store.find_match(session, name)
            assert match is not None  # the mail was judged against it
            lock_game(session, match.name)
            final[name] = (match, *moves.position(session, match)[:2])
        return final[name]

    for handled in results:
        if handled.game is None or handled.player is None:
            continue
        if handled.reply is not None and handled.position is not None:
            match, match_config, state = last(handled.game)
            if state != handled.position[1]:
                handled.position = (match_config, state)
                _queue_match_mail(session, handled.reply, handled, config, read_at, replace=True)
        if handled.resent is not None:
            match, match_config, state = last(handled.game)
            if state != handled.resent[0]:
                resend_position(session, match, match_config, state, read_at, config.sender, handled.player,
                                handled.resent[1], replace=True)
    session.commit()


def resend_position(session: Session, match: Game, match_config: Any, state: Any, now: datetime, sender: str,
                    player: str, token: str, replace: bool = False) -> list[str]:
    """A match player's `command: resend`: the position mail again, to them alone (not committed; `replace`: in
    place of its pending copy)."""
    return moves.queue_news(session, match, match_config, state, now, sender, "your position again", token,
                            only=[player], watched=False, replace=replace)


def handle(session: Session, incoming: Incoming, config: MailConfig, read_at: datetime,
           commands: Commands | None = None) -> Handled:
    """One message, whatever it holds, in one transaction: a message the parser chokes on is archived and recorded
    as refused with the reason, like any other, so it never stops the messages behind it nor comes back on the
    next fetch."""
    if incoming.seen is not None:
        return Handled(incoming.origin, incoming.seen, None, Outcome.DUPLICATE)
    keys = incoming.keys or letter_keys(incoming.data)
    key = keys[0]
    if is_known(session, *keys):
        return Handled(incoming.origin, key, None, Outcome.DUPLICATE)
    kept = incoming.data if incoming.whole else stub(incoming.data, incoming.size)
    handled = Handled(incoming.origin, key, None, Outcome.REFUSED, archived=archive(config.archive, kept),
                      read_at=read_at)
    letter = None
    try:
        letter = read_letter(incoming.data, config.max_bytes, read_at, incoming.size)
        letter.key = key
        handled.sender, handled.kind = letter.sender, letter.kind
        _judge(session, letter, handled, commands)
    except Exception as err:
        session.rollback()  # whatever the judging stored goes, with the game's lock
        handled.outcome, handled.understood, handled.recorded, handled.position = Outcome.REFUSED, [], False, None
        handled.resent = None  # nothing of it was kept: no position mail to write again
        handled.reasons = [f"pbem could not read this message ({type(err).__name__}: {clean(str(err), 160)}); "
                           "it is kept in the archive for the game master"]
    try:
        _record(session, incoming, letter, handled, config, read_at)
        session.commit()  # the outcome, the orders (or action) and the acknowledgement, together
    except IntegrityError:  # another `mail fetch` running at the same time recorded it first
        session.rollback()
        return Handled(incoming.origin, key, handled.sender, Outcome.DUPLICATE, archived=handled.archived)
    return handled


def _record(session: Session, incoming: Incoming, letter: Letter | None, handled: Handled, config: MailConfig,
            read_at: datetime) -> None:
    """The message's record, its acknowledgement and any notices (not committed). A sender who is not on file
    is never answered unless the config asks for it: a forged From would turn replies into backscatter."""
    session.add(MailReceived(key=handled.key, message_id=letter.message_id if letter else None,
                             received_at=letter.received_at if letter else read_at, read_at=read_at,
                             origin=incoming.origin, archived=handled.archived or "", sender=handled.sender or "",
                             size=incoming.size, outcome=str(handled.outcome), kind=str(handled.kind),
                             game=handled.game, player=handled.player,
                             detail=json.dumps(handled.reasons or handled.understood, ensure_ascii=False)))
    session.flush()  # a message recorded meanwhile by another run stops here
    if letter is None or letter.sender is None or letter.automatic or handled.outcome is Outcome.OWN:
        return
    if handled.outcome is Outcome.UNKNOWN and not config.answer_unknown:
        return
    kinds = {LetterKind.ORDERS: "orders", LetterKind.DM: "action", LetterKind.COMMAND: "command"}
    verdict = f"{kinds.get(handled.kind, 'message')} {handled.outcome}"
    help = order_help(session, handled.game, handled.player, read_at, handled.written) \
        if handled.kind is LetterKind.ORDERS else None
    if handled.outcome in (Outcome.ACCEPTED, Outcome.PREVIEWED):
        lines = list(handled.understood)
    else:
        lines = [handled.nothing_stored, "Every problem found:", "",
                 *explained(letter.orders, letter.source, handled.reasons, help)]
    if letter.ignored:
        lines += ["", f"Not read (only text is read): {', '.join(letter.ignored)}."]
    if handled.position is not None:
        handled.reply = MatchReply(letter, verdict, lines)
        _queue_match_mail(session, handled.reply, handled, config, read_at)
        return
    queue(session, acknowledgement(letter, config.sender, verdict, lines, help), "ack", read_at)


def _queue_match_mail(session: Session, reply: MatchReply, handled: Handled, config: MailConfig, now: datetime,
                      replace: bool = False) -> None:
    """A death match's acknowledgement and the notices to the other players, each with the position `handled`
    gives (`replace`: in place of their pending copies)."""
    assert handled.position is not None and handled.game is not None and handled.player is not None
    letter, verdict, lines = reply.letter, reply.verdict, reply.lines
    assert letter.sender is not None  # only a known sender's action is judged
    match_config, state = handled.position
    body = [f"Your message {letter.message_id or ''} ({letter.size:,} bytes): {verdict}.".replace("  ", " "),
            f"It counts as sent at {when(letter.received_at)}, when the game master's mail server received it.", "",
            *lines]
    match = match_store.find_match(session, handled.game)
    assert match is not None  # the mail was judged against it
    ack = moves.letter(sender=config.sender, recipient=letter.sender, player=handled.player, match=handled.game,
                     config=match_config, state=state, now=now, end=ended(session, match),
                     subject=f"{handled.game}: action accepted: {handled.news[-1]}" if handled.news and handled.outcome is Outcome.ACCEPTED
                     else f"{verdict}: {letter.subject or handled.game}",
                     lines=body, token=f"ack {letter.key}", secret=handled.secret,
                     zone=handled.zone)
    del ack["Message-ID"]
    ack["Message-ID"] = message_id("ack", letter.key)
    if letter.message_id:
        ack["In-Reply-To"] = letter.message_id
        ack.replace_header("References", f"{ack['References']} {letter.message_id}")
    del ack["Auto-Submitted"]
    ack["Auto-Submitted"] = "auto-replied"
    queue(session, ack, "ack", now, replace=replace)
    if handled.notified:
        news = f"{handled.player} has acted" if handled.outcome is Outcome.ACCEPTED else "a deadline has passed"
        moves.queue_news(session, match, match_config, state, now, config.sender, news, f"notice {letter.key}",
                         only=[other for other, _ in handled.notified], replace=replace)


def _judge(session: Session, letter: Letter, handled: Handled, commands: Commands | None = None) -> None:
    """Fill in `handled`; accepted orders, actions or commands are stored in the session (not committed)."""
    if letter.message_id and session.exec(select(MailOutgoing.id).where(
            MailOutgoing.message_id == letter.message_id)).first() is not None:
        handled.outcome, handled.reasons = Outcome.OWN, ["a message pbem sent (its Message-ID is in the outbox)"]
    elif letter.sender is None:
        handled.outcome, handled.reasons = Outcome.UNKNOWN, ["no single valid From address"]
    elif not _known_sender(session, letter.sender):
        handled.outcome = Outcome.UNKNOWN
        handled.reasons = [f"{letter.sender} is not the address of any player here. If you play, "
                           "send from the address the game master has for you."]
    elif letter.problems:
        handled.reasons = list(letter.problems)
    else:
        try:
            if commands is not None and letter.kind is LetterKind.ORDERS and _COMMAND.search(letter.orders or ""):
                effect = commands(session, letter, handled)
                if effect is not None:
                    effect()
            else:
                (_orders if letter.kind is LetterKind.ORDERS else _dm_action)(session, letter, handled)
        except FormatError as err:
            handled.outcome, handled.understood, handled.reasons = Outcome.REFUSED, [], [str(p) for p in err.problems]
        except Refused as err:
            handled.outcome, handled.understood, handled.reasons = Outcome.REFUSED, [], list(err.reasons)


def _known_sender(session: Session, address: str) -> bool:
    """Whether `address` is a seat's of any game (campaign or death match: one table of players)."""
    return session.exec(select(Player.email).where(func.lower(Player.email) == address)).first() is not None


def game_named(session: Session, name: str, source: str, line: int | None) -> Game:
    """The game a player's mail names; a mistyped name is refused without listing the other games (the sender
    may play none of them)."""
    game = session.exec(select(Game).where(Game.name == name)).first()
    if game is None:
        raise FormatError([Problem(source, line, "game", f"no game named {name} here: copy the `game:` line from "
                                   "your turn sheet")])
    return game


def authenticate(letter: Letter, name: str, email: str, secret: str, given: Any, line: int | None,
                 where: str = "your turn sheet") -> list[str]:
    """Both must hold: the mail comes from the player's address, and carries the player's secret (found `where`)."""
    reasons = []
    if email.lower() != letter.sender:
        reasons.append(f"mail for {name} must come from {name}'s own address, not {letter.sender}")
    if given is None:
        reasons.append(str(Problem(letter.source, None, "secret",
                                   f"missing: copy the `secret:` line from {where}")))
    elif not hmac.compare_digest(str(given).encode("utf-8"), secret.encode("utf-8")):
        reasons.append(str(Problem(letter.source, line, "secret", f"this is not {name}'s secret (see {where})")))
    return reasons


def _orders(session: Session, letter: Letter, handled: Handled) -> None:
    """Judge and store a player's orders under the game's lock, taken before anything of the game is read: a turn
    processed meanwhile is seen, and the orders are refused as late for it."""
    assert letter.orders is not None
    order = parse_orders(letter.orders, letter.source)
    handled.game, handled.player = order.game, order.player
    handled.written = {name: list(tokens) for name, tokens in order.submission.programs.items()}
    lock_game(session, order.game)
    game = game_named(session, order.game, letter.source, order.data.line_of("game"))
    player = next((p for p in players_of(session, game) if p.name == order.player), None)
    if player is None:
        raise FormatError([Problem(letter.source, order.data.line_of("player"), "player",
                                   f"no player {order.player} in {game.name}")])
    handled.reasons = authenticate(letter, player.name, player.email, player.secret, order.secret,
                                   order.data.line_of("secret"))
    handled.reasons = handled.reasons or late(session, game, order, letter.received_at)
    if handled.reasons:
        return
    files = [(letter.source, letter.orders.encode("utf-8"))]
    result = take_orders(session, game.name, files, store=not order.preview, at=letter.received_at)[0]
    if not result.accepted:
        handled.reasons = list(result.problems)
        return
    if order.preview:  # see before you send: a rehearsal by mail, nothing stored
        handled.outcome, handled.understood = Outcome.PREVIEWED, rehearsal_lines(session, order)
        return
    handled.outcome = Outcome.ACCEPTED
    handled.understood = [f"Orders of {result.player} for {game.name}, turn {result.turn}, as understood "
                          "(they replace any you sent before for this turn):", ""]
    handled.understood += [f"  {robot}: {' '.join(cards) or '(no cards)'}" for robot, cards in result.programs.items()]
    if result.reboot:
        handled.understood.append(f"  reboot next turn: {', '.join(result.reboot)}")
    if result.option_hp is not None:
        handled.understood.append(f"  give up an option at HP {result.option_hp}")


def late(session: Session, game: Game, order: OrderFile, received_at: datetime) -> list[str]:
    """RULES B4.7: orders for a turn already processed, or received after the turn's deadline, are late (with the
    game's lock held, so a turn being processed is seen); so is every order once the GM has ended the game. The
    whole message is late, not a line of it: the reason points at no field (a caret under `turn:` would say the
    turn is wrong)."""
    end = ended(session, game)
    if end is not None:
        return [str(Problem(order.source, None, "", "orders are no longer taken: "
                            + ended_text(game.name, end.at, end.how, end.winner)))]
    turn = current_state(session, game).turn
    if 1 <= order.turn < turn:
        return [str(Problem(order.source, None, "",
                            f"late: turn {order.turn} of {game.name} was processed before this message was read, "
                            f"so these orders do not count (RULES B4.7); the turn now is {turn}"))]
    deadline = deadline_of(session, game, turn) if order.turn == turn else None
    if deadline is None or received_at <= deadline.due_at:
        return []
    schedule = schedule_for(session, game)
    zone = schedule.timezone if schedule else "UTC"
    return [str(Problem(order.source, None, "",
                        f"late: your mail server received this message at {received_at:%Y-%m-%d %H:%M} UTC, after "
                        f"the deadline of turn {turn} of {game.name} ({due_text(deadline.due_at, zone)}), so these "
                        "orders do not count (RULES B4.7)"))]


def _told_late(session: Session, received_at: datetime, read_at: datetime | None) -> datetime | None:
    """`read_at` when the inbox could not be read after this message arrived (an outage: the next mover hears of it
    only now, D5 ruling), else None."""
    inbox = inbox_state(session)
    failed = utc(inbox.checked_at) if inbox is not None and inbox.error is not None else None
    return read_at if failed is not None and received_at <= failed else None


def _dm_action(session: Session, letter: Letter, handled: Handled) -> None:
    assert letter.orders is not None
    document = load_yaml(letter.orders, letter.source)
    if not isinstance(document, LinedDict):
        raise FormatError([Problem(letter.source, None, "", "an action is a mapping: match, player, secret, action")])
    problems = [Problem(letter.source, document.line_of(key), str(key), f"unknown field (expected {', '.join(DM_FIELDS[:4])})")
                for key in document if key not in DM_FIELDS]
    for key in ("match", "player"):
        if not isinstance(document.get(key), str):
            problems.append(Problem(letter.source, document.line_of(key), key, "missing, or not a name"))
    payload = document.get("action")
    if not isinstance(payload, dict) or not payload:
        problems.append(Problem(letter.source, document.line_of("action"), "action",
                                "the action as a mapping, like {claim: 8} or {roll: 4, move: B2-A2}"))
    if problems:
        raise FormatError(problems)
    handled.game, handled.player = document["match"], document["player"]
    match = match_store.find_match(session, document["match"])
    seat = match_store.seat(session, match, document["player"]) if match is not None else None
    if match is None or seat is None or not seat.email:
        raise FormatError([Problem(letter.source, document.line_of("player"), "player",
                                   f"{document['player']} does not play {document['match']} by mail")])
    handled.reasons = authenticate(letter, seat.name, seat.email, seat.secret, document.get("secret"),
                                   document.line_of("secret"), "the game master's mail")
    if handled.reasons:
        return
    payload = plain(payload)
    handled.secret, handled.zone = seat.secret, seat.timezone
    if "roll" in payload:  # a player's mail never chooses its own die (DESIGN.md)
        handled.reasons = [str(Problem(letter.source, document.line_of("action"), "action.roll",
                                       "the GM rolls the die in this match; send only the move"))]
        handled.position = moves.position(session, match)[:2]
        return
    lock_game(session, match.name)
    before = len(match_store.moves(session, match))
    config, earlier, _ = moves.position(session, match)
    row, state = moves.submit(session, match, Action(seat.name, payload, letter.received_at), letter.received_at,
                              source="mail", mail=letter.key,
                              told=_told_late(session, letter.received_at, handled.read_at))
    handled.news = get_dm_game(config.game).news(earlier, state)
    handled.position = (config, state) if ended(session, match) is None else None  # an ended match offers no move
    shown = yaml.safe_dump(payload, default_flow_style=True, allow_unicode=True, width=_ONE_LINE).strip()
    others = [other for other in match_store.by_mail(session, match) if other.name != seat.name]
    if row.reason is None or row.version > before + 1:  # accepted, or a deadline passed first: the others are told
        handled.notified = sorted((other.name, other.email) for other in others)
    if row.reason is not None:
        handled.recorded = True
        handled.reasons = [f"action {shown}: {row.reason}"]
        return
    handled.outcome = Outcome.ACCEPTED
    handled.understood = [f"Action {row.version} of {match.name} by {seat.name}: {shown}", *handled.news]
