"""The scheduling workflow of `pbem run` and `pbem turn approve`, at a time given by the caller.

Every game in one loop, by name. Per scheduled campaign: a turn not yet dealt is dealt and its clock started; each reminder that is due is sent once;
a turn that is due (at its deadline, or as soon as every expected player has orders with `--process all-in`) is
previewed and held for the GM when the game is reviewed, else processed, the next turn dealt and the reports and
sheets queued. Each step commits once with the mail it queues, under the game's lock, so a second run right after
(or at the same moment) finds it done. Per death match: its opening mails when it begins, and the deadlines that
passed with nobody acting applied (once the inbox was read). Before the games: new mail judged (`intake`) and the
report folders owed by an earlier run written again; last, the outbox sent.
"""
from __future__ import annotations

from dataclasses import dataclass
from datetime import datetime, timedelta
from enum import StrEnum
from pathlib import Path
from typing import TYPE_CHECKING, Callable

from sqlalchemy.exc import IntegrityError
from sqlmodel import Session, select

from ..dm.campaign import get_campaign
from ..engine.campaign import GameState
from ..engine.vocabulary import MissingOrders
from ..formats.game import turn_folder_name
from ..formats.schedule import Schedule, due_text, hold_expires, moment_text, reminders_of
from ..mail.config import MailConfig
from ..mail.notices import held_for_review, reminder
from ..mail.outbox import queue
from ..render.model import fate_note
from ..render.turn import DEFAULT_SENDER, recipients
from ..store import turns
from ..store.controls import ended, paused
from ..store.due import game_tick, session_rows
from ..store.games import Refused, current_state, get_game, lock_game, players_of, set_missing_orders, turn_processed
from ..store.mail import OutboxState, note_inbox
from ..store.matches import all_matches
from ..store.reports import failed, owe, owed, settle
from ..store.runlock import Claim, granted
from ..store.schedule import (
    Deadline,
    approve,
    hold,
    mark_reminded,
    required_schedule,
    scheduled_games,
    set_schedule,
)
from ..store.tables import Game
from . import cycle
from .absence import pilot_absent
from .clock import start as start_turn_clock
from .ending import dealt_sheets, queue_game_news, queue_the_end
from .reports import SHEETS, not_written, report_turn, turn_report, write_report, write_sheets, write_stored_report
from .texts import turn_summary

if TYPE_CHECKING:  # Pillow is imported where a sheet's picture is drawn
    from ..render.sheet import DrawnSheets


class RunStep(StrEnum):
    """What a pass of `pbem run` did, printed (and given in `--json`) as these words."""

    DEALT = "dealt"
    REMINDED = "reminded"
    PILOTED = "piloted"
    PROCESSED = "processed"
    TOLD = "told"
    FETCHED = "fetched"
    OPENED = "opened"
    DEADLINE = "deadline"  # a death match's deadline passed
    SENT = "sent"
    PROBLEM = "problem"
    HELD = "held"
    WAITING = "waiting"  # due, but the inbox could not be read
    REPORTED = "reported"  # owed reports written again


@dataclass
class Done:
    """One thing `pbem run` did (or found needing the GM)."""

    game: str
    turn: int
    what: RunStep
    detail: str = ""

    @property
    def needs_gm(self) -> bool:
        return self.what == RunStep.PROBLEM


def run_once(session: Session, now: datetime, config: MailConfig, out: Path, templates: tuple[str, ...], *,
             fetch: bool = True, maildir: Path | None = None, mbox: Path | None = None) -> list[Done]:
    """One pass of `pbem run` at `now` (the caller holds the run lock): new mail unless `fetch` is false, the
    reports owed, every scheduled game, the death matches' deadlines (only once the inbox was read), the outbox."""
    before, inbox_read = before_games(session, now, config, templates, fetch=fetch, maildir=maildir, mbox=mbox)
    return before + run_games(session, now, config, out, templates, inbox_read) + send_outbox(session, config, now)


def before_games(session: Session, now: datetime, config: MailConfig, templates: tuple[str, ...], *,
                 fetch: bool = True, maildir: Path | None = None, mbox: Path | None = None) -> tuple[list[Done], bool]:
    """What a run does before the games, one run at a time (the caller holds the run lock): new mail unless `fetch`
    is false, then the reports owed; and whether the inbox was read (due turns and deadlines wait if not)."""
    fetched = fetch_mail(session, config, now, maildir, mbox, templates) if fetch else []
    return fetched + write_owed_reports(session, templates), not any(d.needs_gm for d in fetched)


def schedule_game(session: Session, game: str, schedule: Schedule, missing_orders: str | None) -> str:
    """`pbem game set`: the game's schedule (and its missing-orders policy, before turn 1 is processed), committed;
    the policy in force."""
    set_schedule(session, game, schedule)
    if missing_orders is not None:
        set_missing_orders(session, game, missing_orders)
    session.commit()
    return str(current_state(session, get_game(session, game)).setup.rules().missing_orders)


def fetch_mail(session: Session, config: MailConfig, now: datetime, maildir: Path | None, mbox: Path | None,
               templates: tuple[str, ...]) -> list[Done]:
    """New mail first, each message judged and answered in its own transaction (`intake`). An inbox that cannot be
    read is remembered for `pbem status` (committed) and is a problem for the GM (the caller then lets nothing due
    pass)."""
    origin = str(maildir or mbox or (f"imap://{config.imap.host}/{config.imap.folder}" if config.imap else ""))
    if not origin:  # no inbox to read: the tick of a host that takes orders otherwise loads none of mail's readers
        return []
    import imaplib

    from ..mail.fetch import messages_from
    from ..mail.letters import clean
    from .intake import fetch as fetch_messages
    from .mailcommands import reader

    try:
        messages = messages_from(session, config.max_bytes, maildir, mbox, config.imap)
        commands = reader(config.sender, templates)
        handled = [h for h in fetch_messages(session, messages, config, now, commands)
                   if h.outcome not in ("duplicate", "own")]
    except (OSError, imaplib.IMAP4.error) as err:
        session.rollback()
        note_inbox(session, origin, clean(str(err) or type(err).__name__, 300), now)
        session.commit()
        return [Done("", 0, RunStep.PROBLEM, f"cannot read the inbox {origin}: {err}; due turns and match deadlines "
                                             "wait for the orders in it (pbem run --no-fetch processes them without)")]
    note_inbox(session, origin, None, now)
    session.commit()
    return [Done(h.game or "", 0, RunStep.FETCHED, f"{h.outcome} {h.sender or '(no sender)'} {h.player or ''}".rstrip())
            for h in handled]


def write_owed_reports(session: Session, templates: tuple[str, ...]) -> list[Done]:
    """Report folders owed by an earlier run or `turn process` (a crash, a full disk, a folder deleted while it
    was written), written again, each settled in a commit of its own; one that fails again stays owed and is a
    problem, the rest of the run goes on."""
    done = []
    for row in owed(session):
        game = session.exec(select(Game).where(Game.name == row.game)).first()
        if game is None or not turn_processed(session, game, row.turn):  # rolled back or deleted since
            settle(session, row.game, row.turn)
            session.commit()
            continue
        out = Path(row.folder)
        try:
            write_stored_report(session, game, row.turn, out / row.game / turn_folder_name(row.turn), DEFAULT_SENDER,
                                templates)
        except OSError as err:
            failed(session, row, not_written(row.game, row.turn, out, err))
            session.commit()
            done.append(Done(row.game, row.turn, RunStep.PROBLEM, row.error or ""))
            continue
        settle(session, row.game, row.turn, row.folder)
        session.commit()
        done.append(Done(row.game, row.turn, RunStep.REPORTED, f"reports written again in {out / row.game}"))
    return done


def run_games(session: Session, now: datetime, config: MailConfig, out: Path, templates: tuple[str, ...],
              inbox_read: bool, claim: Claim = granted) -> list[Done]:
    """What is due for every game, in one loop by name: each scheduled campaign's step (`run_game`), each death
    match's opening mail and passed deadlines (`tick_match`, only once the inbox was read: an action in it may
    come before the deadline); a game that fails waits, the others go on. A game another worker has `claim`ed is
    skipped: that worker does its step."""
    done: list[Done] = []
    steps: list[tuple[str, Callable[..., list[Done]]]] = [(g.name, run_game) for g in scheduled_games(session)]
    steps += [(m.name, tick_match) for m in all_matches(session)] if inbox_read else []
    session.commit()  # the list read, no snapshot held while the games are claimed one by one
    for game, step in sorted(steps, key=lambda item: item[0]):
        with claim(game) as mine:
            if mine and not (step is run_game and _nothing_due(session, game, now)):
                done += _step(session, game, step, now, config, out, templates, inbox_read)
    return done


def _nothing_due(session: Session, game: str, now: datetime) -> bool:
    """Whether a campaign's stored rows say nothing is due at `now` (`store.due`: a false alarm at worst, never a
    miss), so that its state is not loaded: most games of a full pass, and those a worker that fell behind
    another meets after the other has done them (#36)."""
    tick = game_tick(session_rows(session), game)
    session.commit()  # nothing held between the games
    return tick is not None and not tick.due(now)


def _step(session: Session, game: str, step: Callable[..., list[Done]], now: datetime, config: MailConfig, out: Path,
          templates: tuple[str, ...], inbox_read: bool) -> list[Done]:
    """One game's step of the run; a problem it meets is the GM's, and rolled back."""
    try:
        return step(session, game, now, config, out, templates, inbox_read)
    except Refused as err:
        session.rollback()
        return [Done(game, 0, RunStep.PROBLEM, reason) for reason in err.reasons]
    except IntegrityError:  # another run did this step at the same moment: it is done
        session.rollback()
        return []
    except OSError as err:  # a template or picture that cannot be read: this game waits, the others go on
        session.rollback()
        return [Done(game, 0, RunStep.PROBLEM, f"{err.filename or ''} {err.strerror or err}".strip())]


def run_game(session: Session, name: str, now: datetime, config: MailConfig, out: Path, templates: tuple[str, ...],
             inbox_read: bool = True) -> list[Done]:
    """What is due for one game at `now`, done: one step, committed with the mail it queues, under the game's lock
    (a second run at the same moment waits, then finds the step done). A due turn waits while the inbox could
    not be read (`inbox_read` false): orders may be sitting in it."""
    lock_game(session, name)
    game = get_game(session, name)
    if ended(session, game) is not None:  # the GM ended it (pbem game end): everyone was told then
        return []
    state = current_state(session, game)
    if state.is_over:  # ended by `turn process`, say: its result is told once all the same
        told = queue_the_end(session, name, config.sender, now)
        session.commit()
        return [Done(name, state.turn - 1, RunStep.TOLD, who) for who in told]
    if paused(session, game) is not None:  # a paused game's clock stands still
        return []
    schedule = required_schedule(session, game)
    if not turns.dealt(session, game, state.turn):
        cycle.deal_hands(session, name)
        deadline = start_turn_clock(session, game, state.turn, now, config.sender)
        sheets = dealt_sheets(session, game, drawn=True)  # once, for the mails and the folder
        queue_game_news(session, name, config.sender, now, templates, sheets=sheets)
        session.commit()
        return [Done(name, state.turn, RunStep.DEALT, due_text(deadline.due_at, schedule.timezone)),
                *keep_sheets(session, game, out, templates, sheets)]
    deadline = start_turn_clock(session, game, state.turn, now, config.sender)
    waiting = turns.status(session, name).waiting_for
    done = _remind(session, game, state, schedule, deadline, waiting, now, config, templates)
    is_due = now >= deadline.due_at or (schedule.process == "all-in" and not waiting)
    if is_due and not inbox_read:
        session.commit()
        return done + [Done(name, state.turn, RunStep.WAITING, "due, but the inbox could not be read: the turn waits "
                                                               "for the orders in it")]
    if not is_due:
        session.commit()
        return done
    piloted = pilot_absent(session, game, deadline) if now >= deadline.due_at else []
    if piloted:  # a step of its own: the pilot's orders stay, whatever becomes of the turn
        session.commit()
    done += [Done(name, state.turn, RunStep.PILOTED, f"{player} is away: the robot pilot sent orders")
             for player in piloted]
    if schedule.review and not deadline.approved:
        held = _review(session, game, state.turn, deadline, now, config, out, templates)
        if held is not None:
            return done + held
    return done + _process(session, game, state.turn, deadline, waiting, now, config, out, templates)


def _remind(session: Session, game: Game, state: GameState, schedule: Schedule, deadline: Deadline,
            waiting: list[str], now: datetime, config: MailConfig, templates: tuple[str, ...]) -> list[Done]:
    """The reminders now due, queued to the players still waited for (not committed); a run that missed an earlier
    reminder sends only the most urgent one, and one due within an hour of the turn sheet is never sent."""
    turn = state.turn
    pending = [h for h in reminders_of(schedule, deadline.dealt_at, deadline.due_at)
               if h not in deadline.reminded and now >= deadline.due_at - timedelta(hours=h)]
    if not (pending and now < deadline.due_at and waiting):
        return []
    hours = min(pending)
    roster = {p.name: p for p in players_of(session, game)}
    for player in waiting:
        own = due_text(deadline.due_at, schedule.timezone, roster[player].timezone)
        queue(session, reminder(config.sender, game.name, turn, player, roster[player].email, own, hours,
                                fate=missing_fate(state, player), templates=templates), "reminder", now)
    for h in pending:
        mark_reminded(session, game, turn, h)
    return [Done(game.name, turn, RunStep.REMINDED, f"{', '.join(waiting)} ({hours} h before)")]


def missing_fate(state: GameState, player: str) -> list[str]:
    """A reminder's `fate`: what the engine would play for the player's robots under the game's B4.6 policy,
    asked here so that mail only words it."""
    policy = state.setup.rules().missing_orders
    programs = {} if policy == MissingOrders.BOT else get_campaign(state.setup.ruleset).missing_programs(state, player)
    return fate_note(programs, policy)


def _process(session: Session, game: Game, turn: int, deadline: Deadline, waiting: list[str], now: datetime,
             config: MailConfig, out: Path, templates: tuple[str, ...]) -> list[Done]:
    """The due `turn` processed, the next dealt and the mail queued, in one transaction under the game's lock, with
    its reports owed; then the reports written and settled (a commit of their own). Each stored state is decoded
    once a transaction, however many steps read it (`store.games.decoded_state`, #36)."""
    name, schedule = game.name, required_schedule(session, game)
    result = cycle.play(session, name, turn=turn, at=now)
    if deadline.held_hash and result.after_hash != deadline.held_hash:  # orders came in during the hold
        session.rollback()
        hold(session, game, turn, None, None)
        session.commit()
        return [Done(name, turn, RunStep.PROBLEM, "orders changed since the preview the GM saw: the next run "
                                                  "previews the turn again")]
    missing = [p for p, version in result.orders.items() if version is None and p in waiting]
    done = [Done(name, result.turn, RunStep.PROCESSED, f"missing: {', '.join(missing)}" if missing else "")]
    if not result.over:
        cycle.deal_hands(session, name)
        nxt = start_turn_clock(session, game, result.turn + 1, now, config.sender)
        done.append(Done(name, result.turn + 1, RunStep.DEALT, due_text(nxt.due_at, schedule.timezone)))
    report = turn_report(name, result)  # once, for the mails and the report folder, as the sheets are
    sheets = dealt_sheets(session, game, drawn=True)
    told = queue_game_news(session, name, config.sender, now, templates, report, sheets)[1]
    done += [Done(name, result.turn, RunStep.TOLD, who) for who in told]
    owe(session, name, result.turn, str(out), now)
    session.commit()
    problem = report_turn(session, name, result, out, templates, turn_summary(result),
                          recipients(players_of(session, game)), report)
    return done + ([Done(name, result.turn, RunStep.PROBLEM, problem)] if problem else []) + \
        ([] if result.over else keep_sheets(session, game, out, templates, sheets))


def keep_sheets(session: Session, game: Game, out: Path, templates: tuple[str, ...],
                sheets: DrawnSheets) -> list[Done]:
    """The turn `sheets` just mailed, kept in OUT/GAME/turn-NNN/sheets/ as `pbem demo` keeps them (`pbem turn deal
    GAME --out …` writes them again from the store); a folder that cannot be written is a problem for the GM."""
    try:
        write_sheets(sheets, out, SHEETS, templates)
    except OSError as err:  # there was a sheet to write
        return [Done(game.name, sheets.sheets[0].turn, RunStep.PROBLEM,
                     f"the turn sheets could not be written to {err.filename or out}: {err.strerror or err}; they "
                     f"were mailed all the same (pbem turn deal {game.name} writes them)")]
    return []


def _review(session: Session, game: Game, turn: int, deadline: Deadline, now: datetime, config: MailConfig,
            out: Path, templates: tuple[str, ...]) -> list[Done] | None:
    """The review hold: the first time a turn is due, preview it to the GM and hold it; later, keep holding
    until it is approved or the hold expires. None: go on and process it."""
    schedule = required_schedule(session, game)
    if deadline.held_at is not None:
        expires = hold_expires(schedule, deadline.held_at)
        return None if expires is not None and now >= expires else []
    session.commit()  # a preview rolls its session back: keep what this run did so far
    preview = cycle.process(session, game.name, preview=True, turn=turn, at=now)
    folder = out / "previews"
    report = turn_report(game.name, preview)
    write_report(folder, report, recipients(players_of(session, game)), templates)
    lock_game(session, game.name)
    queue(session, held_for_review(config.sender, game.name, turn, report, turn_summary(preview),
                                   _hold_text(game.name, schedule, now), templates), "review", now)
    hold(session, game, turn, now, preview.after_hash)
    session.commit()
    return [Done(game.name, turn, RunStep.HELD, f"preview in {folder / game.name}; pbem turn approve {game.name}")]


def _hold_text(game: str, schedule: Schedule, held_at: datetime) -> str:
    """How long a turn held since `held_at` waits for the GM, in words."""
    expires = hold_expires(schedule, held_at)
    if expires is None:
        return f"It is held until you approve it (pbem turn approve {game}): the hold has no time limit."
    return (f"It is held until you approve it, or until {moment_text(expires, schedule.timezone)}: then it is "
            "processed as it stands.")


def approve_turn(session: Session, name: str, now: datetime, config: MailConfig, out: Path,
                 templates: tuple[str, ...]) -> list[Done]:
    """`pbem turn approve`: the turn held for review approved (committed), then processed as `pbem run` would."""
    game = get_game(session, name)
    approve(session, game, current_state(session, game).turn)
    session.commit()
    return run_game(session, name, now, config, out, templates)


def tick_match(session: Session, name: str, now: datetime, config: MailConfig, *_: object) -> list[Done]:
    """A death match's part of the run: its opening mails now due, then the deadlines that passed with nobody
    acting take effect and both players are mailed the position; committed."""
    from .matches import run_match  # the death matches' workflow, loaded by a run that has one

    opened, moved = run_match(session, name, now, config.sender)
    session.commit()
    return ([Done(match, 0, RunStep.OPENED, address) for match, address in opened]
            + [Done(d["match"], 0, RunStep.DEADLINE, "; ".join(d["passed"])) for d in moved])


def send_outbox(session: Session, config: MailConfig, now: datetime) -> list[Done]:
    """Every pending message sent through the configured SMTP server (each claimed and recorded in a commit of
    its own); nothing without one."""
    if config.smtp is None:
        return []
    from .outgoing import send_pending

    sent = send_pending(session, config.smtp, config.sender, now)
    return [Done("", 0, RunStep.SENT if d.state == OutboxState.SENT else RunStep.PROBLEM, f"{d.recipient}: {d.subject}"
                 + (f" ({d.error})" if d.error else "")) for d in sent]
