"""A death match's moves on the one store model: judged by its rules on the one clock (RULES D5), recorded
accepted or refused, its position rebuilt from the accepted ones, the deadlines that passed applied with nobody
acting, and the game's one deadline row kept up to date for the scheduled run's quiet path.

Not committed: the gm step that calls these (a GM command, a letter's action, `pbem run`) commits once.
"""
from __future__ import annotations

from datetime import datetime
from typing import Any

from sqlmodel import Session, select

from ..dm import clock
from ..dm.base import Action, Config, Game, get_game, replay
from ..dm.clock import moment, when
from ..formats.ending import ended_text
from ..store.base import lock_game
from ..store.controls import Ended, ended, observers, paused
from ..store.due import MatchTick
from ..store.matches import (
    action_of,
    all_matches,
    by_mail,
    config_of,
    moves,
    record_move,
    seat_names,
)
from ..store.schedule import set_wake
from ..store.summary import GameSummary
from ..store.tables import Game as GameRow
from ..store.tables import OrderVersion, Player
from .matchtick import tick_of
from .matchview import match_view

Position = tuple[Config, Any, list[Action]]


def position(session: Session, match: GameRow) -> Position:
    """The match's config, its state rebuilt from the accepted moves, and those moves' actions."""
    config = config_of(match)
    names = seat_names(session, match)
    accepted = [action_of(row, names) for row in moves(session, match) if row.accepted]
    return config, replay(config, accepted).state, accepted


def submissions(session: Session, match: GameRow) -> list[dict[str, Any]]:
    """Every submission to the match as it arrived (seq, player, at, payload, accepted, reason), for the pages and
    `pbem dm show --json`."""
    names = seat_names(session, match)
    return [{"seq": row.version, "player": action.player, "at": action.at, "payload": dict(action.payload),
             "accepted": row.accepted, "reason": row.reason}
            for row in moves(session, match) for action in [action_of(row, names)]]


def submit(session: Session, match: GameRow, action: Action, now: datetime, *, source: str,
           mail: str | None = None, told: datetime | None = None) -> tuple[OrderVersion, Any]:
    """Check one action against the position under the game's lock and record it, accepted or refused
    (`row.reason`); returns the row and the position after it. `mail`: the key of the message that carried it;
    `told`: when the next mover is told, if later than the stamp because the inbox could not be read
    (`clock.submit`, D5)."""
    lock_game(session, match.name)
    config, state, _ = position(session, match)
    reason = halted(session, match)
    if reason is not None:  # no action counts while the clock stands still, nor after the GM ended the match
        return record_move(session, match, action, reason, source=source, mail=mail), state
    row, state = _submit(session, match, get_game(config.game), state, action, source, mail, told)
    write_deadline(session, match, config, state, now)
    return row, state


def halted(session: Session, match: GameRow) -> str | None:
    """Why no action counts now: the GM ended the match (`pbem game end`) or paused its clock; None when it
    runs."""
    end = ended(session, match)
    if end is not None:
        return f"the match is over: {ended_text(match.name, end.at, end.how, end.winner)}"
    stopped = paused(session, match)
    if stopped is not None:
        return f"the match is paused (since {when(stopped.at)}): nothing counts until the game master resumes it"
    return None


def over(session: Session, match: GameRow, config: Config, state: Any) -> bool:
    """Whether the match is over: its rules ended it, or the game master did."""
    return get_game(config.game).is_over(state) or ended(session, match) is not None


def extend_at(session: Session, match: GameRow, state: Any, action: Action) -> tuple[OrderVersion, Any]:
    """The GM's extension `action`, at the moment it carries (a resumed clock's, at the pause), recorded."""
    return _submit(session, match, get_game(config_of(match).game), state, action, "command", None)


def _submit(session: Session, match: GameRow, rules: Game[Any, Action], state: Any, action: Action, source: str,
            mail: str | None, told: datetime | None = None) -> tuple[OrderVersion, Any]:
    """Record the submission (after the clock's own action when a deadline passed before it, D5; before the clock's
    `told` when the next mover was told late); the row of the submission itself and the position after it."""
    records, state = clock.submit(rules, state, action, told)
    rows = [record_move(session, match, record.action, record.reason, source="clock" if record.clock else source,
                        mail=None if record.clock else mail) for record in records]
    return next(row for row, record in zip(rows, records) if record.action is action), state


def tick(session: Session, match: GameRow, now: datetime) -> tuple[list[clock.Deadline], Any]:
    """Let the deadlines that passed by `now` take effect with nobody acting (the scheduled run, D5 ruling):
    recorded as the clock's `{timeout: true}`; returns the deadlines that passed and the position."""
    lock_game(session, match.name)
    config, state, _ = position(session, match)
    rules = get_game(config.game)
    if halted(session, match) is not None:
        return [], state
    _, passed = clock.advance(rules, state, now)
    if passed:
        _, state = _submit(session, match, rules, state, Action(clock.GM, {"timeout": True}, now), "clock", None)
    write_deadline(session, match, config, state, now)
    return passed, state


def tick_all(session: Session, now: datetime, sender: str, names: list[str] | None = None) -> list[dict[str, Any]]:
    """Let the deadlines that passed by `now` take effect in every match (or those named), with nobody acting
    (RULES D5 ruling), and mail its players the new position; one document per match that moved on."""
    documents = []
    for match in all_matches(session):
        if names is not None and match.name not in names:
            continue
        passed, state = tick(session, match, now)
        if not passed:
            continue
        told = queue_news(session, match, config_of(match), state, now, sender,
                          "a deadline passed: " + "; ".join(d.effect for d in passed),
                          f"tick {passed[-1].at.isoformat()}")
        documents.append({"match": match.name, "passed": [f"{when(d.at)}: {d.effect}" for d in passed],
                          "mailed": told})
    return documents


def started(config: Config, now: datetime) -> bool:
    """Whether the match has begun by `now`: at its `start` option, else as soon as it exists."""
    start = moment(config.options.get("start"))
    return start is None or start <= now


def match_tick(session: Session, match: GameRow, config: Config, state: Any, now: datetime) -> MatchTick:
    """The match as `pbem run` and `pbem status` see it: when the run next has something to do for it (its
    opening mail owed at the start, or the running deadline), what happens then, and what it does till then."""
    end, stopped = ended(session, match), paused(session, match)
    return tick_of(match.name, config, state, now,
                   ended=None if end is None else ended_text(match.name, end.at, end.how, end.winner),
                   paused=None if stopped is None else stopped.at, owed=any(unopened(session, match)))


def write_deadline(session: Session, match: GameRow, config: Config, state: Any, now: datetime) -> None:
    """The game's one deadline row, as its position now stands (`match_tick`); the quiet path
    (`pbem.store.due`) reads it with plain SQL."""
    tick = match_tick(session, match, config, state, now)
    set_wake(session, match, tick.due_at, tick.about(), now)


def shown(config: Config, state: Any, now: datetime) -> Any:
    """The position a mail written at `now` shows: every deadline passed by then applied first, so its picture,
    text, Deadline line and reply lines come from one position and one deadline."""
    return clock.advance(get_game(config.game), state, now)[0]


def letter(*, config: Config, state: Any, now: datetime, player: str | None, end: Ended | None = None,
           **fields: Any) -> Any:
    """The match mail (`mail.post.match_mail`) of the position as of `now`, as `player` (None: an observer) sees
    it; `end`: the GM's end of the match, when they ended it (the position as it was ended, no deadline)."""
    from ..mail.post import match_mail  # the mail modules load when a mail is written: `dm new` writes none (#34)

    view = match_view(config, state if end is not None else shown(config, state, now), player,
                      match=fields["match"], end=end)
    return match_mail(view=view, now=now, player=player, **fields)


def queue_news(session: Session, match: GameRow, config: Config, state: Any, now: datetime, sender: str,
               headline: str, token: str, only: list[str] | None = None, watched: bool = True,
               replace: bool = False) -> list[str]:
    """Queue `headline` with the position (and each one's reply lines, secret included, the deadline in their own
    time zone too) to every player of the match who plays by mail, or to those named in `only`, and (unless not
    `watched`: a mail for one player alone) to every observer (`pbem game observe`: the position, never a
    secret); their addresses. `replace`: each in place of its copy queued before, while that is still pending."""
    from ..mail.outbox import queue

    seats = [seat for seat in by_mail(session, match) if only is None or seat.name in only]
    readers: list[tuple[str, str | None, str | None, str | None]] = [
        (seat.email, seat.name, seat.secret, seat.timezone) for seat in seats]
    readers += [(address, None, None, None) for address in observers(session, match) if watched]
    end = ended(session, match)
    for address, player, secret, zone in readers:
        queue(session, letter(sender=sender, recipient=address, player=player, match=match.name, config=config,
                              state=state, now=now, end=end, subject=f"{match.name}: {headline}",
                              lines=[f"{match.name}: {headline}"], token=f"news {match.name} {token}",
                              secret=secret, zone=zone), "notice", now, replace=replace)
    return sorted(address for address, *_ in readers)


def opening_token(match: GameRow, seat: Player | None) -> str:
    """What names a match's opening mail to a seat's address, or (`seat` None) to an observer's."""
    return f"news opening {match.name} {seat.name if seat is not None else 'observer'}"


def opened(session: Session, match: GameRow, seat: Player | None, address: str | None = None) -> bool:
    """Whether the player's address (or, `seat` None, the observer's `address`) has had the opening mail (its
    Message-ID is in the outbox)."""
    from ..render.message import message_id
    from ..store.mail import MailOutgoing

    wanted = message_id("dm", opening_token(match, seat), seat.email if seat is not None else address or "")
    return session.exec(select(MailOutgoing.id).where(MailOutgoing.message_id == wanted)).first() is not None


def unopened(session: Session, match: GameRow) -> tuple[list[Player], list[str]]:
    """The seats played by mail and the observers' addresses that have not had the match's opening mail."""
    return ([seat for seat in by_mail(session, match) if not opened(session, match, seat)],
            [address for address in observers(session, match) if not opened(session, match, None, address)])


def summary(session: Session, match: GameRow) -> GameSummary:
    """The match's line of `pbem game list`: its accepted moves as its turn, whether it is over."""
    config, state, accepted = position(session, match)
    return GameSummary(match.name, match.ruleset, len(accepted), over(session, match, config, state),
                       list(config.players))
