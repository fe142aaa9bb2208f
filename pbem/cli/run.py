"""The GM's autopilot: `pbem game set` (a game's schedule), `pbem run` (one pass over every scheduled game,
safe from cron), `pbem status` (what is due, who is missing).

`pbem run` reads the clock once (`--now` / PBEM_NOW to rehearse) and, per game: deals a turn not yet dealt and
starts its clock, sends each reminder that is due once, processes a turn that is due (at its deadline, or as soon
as every expected player has orders with `--process all-in`), deals the next and queues the reports and sheets.
Mail is fetched first and the outbox sent last when the mail config names servers. Everything it does is
recorded in the same transaction as the mail it queues, so a second run right after does nothing.

One run at a time per database (the run lock, pbem.store.runlock; `pbem mail send` takes it too). While the
inbox cannot be read, due turns and match deadlines wait for the orders in it (`--no-fetch` goes on without
them). Reports owed by an earlier run or `turn process` (a crash, a full disk) are written again first.
"""
from __future__ import annotations

from dataclasses import asdict, dataclass
from datetime import datetime, timedelta
from pathlib import Path
from typing import TYPE_CHECKING, Any, Optional

import typer

from ..formats.schedule import due_text, hold_expires, moment_text
from ..store.due import quiet_ticks
from .common import EXIT_OK, EXIT_REFUSED, app, clock, db_url, print_json, read_or_refuse, refuse, say
from .game import game_app
from .gm import RUN_WAIT, holding_run_lock, open_store
from .schedule_options import changed_schedule, option, schedule_text
from .turn import turn_app

if TYPE_CHECKING:
    from sqlmodel import Session

    from ..mail.config import MailConfig

# The store, the engine, mail and rendering are imported where they are used: a cron tick with nothing due
# (`pbem.store.due`) needs none of them.

CONFIG = typer.Option(None, "--config", envvar="PBEM_MAIL_CONFIG",
                      help="Mail settings (YAML), as for pbem mail; without IMAP/SMTP servers run only queues mail.")


@dataclass
class Done:
    """One thing `pbem run` did (or found needing the GM)."""

    game: str
    turn: int
    what: str  # dealt | reminded | piloted | processed | told | fetched | opened | deadline (a match's) | sent
    #            | problem | held | waiting (due, the inbox unread) | reported (owed reports written again)
    detail: str = ""


@game_app.command("set-player")
def set_player_command(
    ctx: typer.Context,
    game: str = typer.Argument(..., help="The game's name."),
    player: str = typer.Argument(..., help="The player's name."),
    zone: Optional[str] = typer.Option(None, "--timezone", help="The player's time zone (IANA name, e.g. "
                                       "Asia/Tokyo): deadlines are shown in it beside the game's. Leave it out to "
                                       "show the game's zone only."),
) -> None:
    """Change a player's settings during a game: their time zone."""
    from ..gm.players import set_player_zone
    from ..store.games import Refused

    with open_store(ctx) as store, store.session() as session:
        try:
            set_player_zone(session, game, player, zone)
        except Refused as err:
            refuse(err.reasons)
    shown = f"{zone} and the game's zone" if zone else "the game's zone only"
    typer.echo(f"{player} in {game}: deadlines shown in {shown}")


@game_app.command("set")
def set_command(
    ctx: typer.Context,
    game: str = typer.Argument(..., help="The game's name."),
    deadline: Optional[str] = option("deadline", None),
    zone: Optional[str] = option("timezone", None),
    remind: Optional[str] = option("remind", None),
    process: Optional[str] = option("process", None),
    review: Optional[bool] = option("review", None, "--review/--no-review"),
    hold_hours: Optional[int] = option("hold", None),
    missing_orders: Optional[str] = typer.Option(None, "--missing-orders", help="What a player's robots do when "
                                                 "their orders are missing (RULES B4.6), e.g. fill or idle; only "
                                                 "before turn 1 is processed."),
    as_json: bool = typer.Option(False, "--json", help="Print the schedule as JSON."),
) -> None:
    """Set a game's schedule for `pbem run`: only the options given change, and the whole schedule is printed.

    A new schedule starts from 5d, UTC, a reminder 24 h before, processed at the deadline, no review. A turn
    already dealt keeps the deadline it was given."""
    from ..store.games import Refused, current_state, get_game, set_missing_orders
    from ..store.schedule import schedule_for, set_schedule
    with open_store(ctx) as store, store.session() as session:
        found = get_game(session, game)
        schedule = changed_schedule(schedule_for(session, found), deadline, zone, remind, process, review,
                                    hold_hours)
        set_schedule(session, game, schedule)
        if missing_orders is not None:
            try:
                set_missing_orders(session, game, missing_orders)
            except Refused as err:
                refuse(err.reasons)
        session.commit()
        policy = str(current_state(session, found).setup.rules().missing_orders)
    if as_json:
        print_json({"game": game, **schedule.to_data(), "missing_orders": policy})
    else:
        typer.echo(f"{schedule_text(game, schedule)}; missing orders: {policy} (RULES B4.6)")


@app.command("run")
def run(
    ctx: typer.Context,
    maildir: Optional[Path] = typer.Option(None, "--maildir", help="Read orders from a Maildir first."),
    mbox: Optional[Path] = typer.Option(None, "--mbox", help="Read orders from an mbox file first."),
    config_file: Optional[Path] = CONFIG,
    out: Path = typer.Option(Path("reports"), "--out", help="Where processed turns' reports are written."),
    no_fetch: bool = typer.Option(False, "--no-fetch", help="Read no mail: process due turns and deadlines even "
                                  "though the inbox cannot be read (the orders in it are not counted)."),
    wait: float = typer.Option(RUN_WAIT, "--wait", min=0.0, metavar="SECONDS",
                               help="How long to wait for another run (or mail send) on this database to end."),
    as_json: bool = typer.Option(False, "--json", help="Print what was done as JSON."),
) -> None:
    """One unattended pass over every scheduled game: fetch, remind, process what is due, deal, send. Safe to run
    from cron every few minutes (one run at a time per database); exit 1 when something needs the GM."""
    from ..mail.config import load_config
    now = clock(ctx)
    config = read_or_refuse(load_config, config_file)
    if maildir is None and mbox is None and config.imap is None \
            and quiet_ticks(db_url(ctx), now, outbox=config.smtp is not None) is not None:
        _report(now, [], as_json)  # nothing due: the stored rows say so (pbem.store.due)
    from sqlalchemy.exc import IntegrityError

    from ..mail.outbox import SmtpTransport, deliver
    from ..store.games import Refused
    from ..store.schedule import scheduled_games

    done: list[Done] = []
    with open_store(ctx) as store, holding_run_lock(ctx, wait), store.session() as session:
        fetched = [] if no_fetch else _fetch(session, config, now, maildir, mbox)
        inbox_read = not any(d.what == "problem" for d in fetched)
        done += fetched + _write_owed_reports(session)
        for game in [g.name for g in scheduled_games(session)]:
            try:
                done += _run_game(session, game, now, config, out, inbox_read)
            except Refused as err:
                session.rollback()
                done += [Done(game, 0, "problem", reason) for reason in err.reasons]
            except IntegrityError:  # another run did this step at the same moment: it is done
                session.rollback()
            except OSError as err:  # a template or picture that cannot be read: this game waits, the others go on
                session.rollback()
                done.append(Done(game, 0, "problem", f"{err.filename or ''} {err.strerror or err}".strip()))
        if inbox_read:
            done += _tick_matches(session, now, config)
        if config.smtp is not None:
            with SmtpTransport(config.smtp, config.sender) as transport:
                sent = deliver(session, transport, now)
            done += [Done("", 0, "sent" if d.state == "sent" else "problem", f"{d.recipient}: {d.subject}"
                          + (f" ({d.error})" if d.error else "")) for d in sent]
    _report(now, done, as_json)


def _report(now: datetime, done: list[Done], as_json: bool) -> None:
    """What the run did, and its exit: 1 when something needs the GM."""
    if as_json:
        print_json({"now": now.isoformat(), "done": [asdict(d) for d in done]})
    else:
        for d in done:
            say(f"{d.what.upper():<10} {d.game} {f'turn {d.turn}' if d.turn else ''} {d.detail}".rstrip())
        typer.echo(f"{now:%Y-%m-%d %H:%M} UTC: {len(done)} thing(s) done", err=True)
    raise typer.Exit(EXIT_REFUSED if any(d.what == "problem" for d in done) else EXIT_OK)


def _faults(session: Session) -> tuple[dict | None, list[dict]]:
    """What the last runs could not do: read the inbox (its last attempt), write reports (those still owed)."""
    from ..store.mail import inbox_state
    from ..store.reports import owed

    row = inbox_state(session)
    inbox = None if row is None else {"origin": row.origin, "error": row.error,
                                      "failed_since": row.failed_since.isoformat() if row.failed_since else None,
                                      "checked_at": row.checked_at.isoformat()}
    return inbox, [{"game": r.game, "turn": r.turn, "folder": r.folder, "since": r.since.isoformat(),
                    "error": r.error} for r in owed(session)]


def _match_rows(session: Session, now: datetime) -> list[dict]:
    """Every death match: its running deadline, whom it waits for, and what `pbem run` does next."""
    from ..dm.base import get_game as rules_of
    from ..dm.clock import when
    from ..store import dm as dm_store

    rows = []
    for match in dm_store.all_matches(session):
        config, state, _ = dm_store.position(session, match)
        rules = rules_of(config.game)
        deadline = None if rules.is_over(state) else rules.deadline(state)
        if rules.is_over(state):
            nxt = "nothing: the match is over"
        elif deadline is None:
            gm = next((p for p in config.players if rules.waiting(state, p)), None)  # e.g. the GM's dice
            nxt = f"nothing until the GM acts: {gm} waits (pbem dm list)" if gm else "nothing until a player acts"
        elif now > deadline.at:
            nxt = f"apply the passed deadline: {deadline.effect}"
        else:
            nxt = f"at {when(deadline.at)}: {deadline.effect}"
        rows.append({"match": match.name, "game": config.game, "over": rules.is_over(state),
                     "due": deadline.at.isoformat() if deadline else None,
                     "due_text": when(deadline.at) if deadline else None,
                     "waiting": deadline.waiting if deadline else None, "next": nxt})
    return rows


def _tick_matches(session: Session, now: datetime, config: MailConfig) -> list[Done]:
    """Death matches: the opening mails now due, then the deadlines that passed with nobody acting take effect and
    both players are mailed the position."""
    from sqlalchemy.exc import IntegrityError

    from ..gm.matches import run_matches

    try:
        opened, moved = run_matches(session, now, config.sender)
        session.commit()
    except IntegrityError:  # another run recorded the same deadline at the same moment
        session.rollback()
        return []
    return ([Done(match, 0, "opened", address) for match, address in opened]
            + [Done(d["match"], 0, "deadline", "; ".join(d["passed"])) for d in moved])


def _fetch(session: Session, config: MailConfig, now: datetime, maildir: Path | None, mbox: Path | None) -> list[Done]:
    """New mail first. An inbox that cannot be read is remembered for `pbem status` and is a problem for the GM
    (the caller then lets nothing due pass); the run goes on to send."""
    import imaplib

    from ..gm.intake import fetch as fetch_messages
    from ..gm.mailcommands import reader
    from ..mail.fetch import messages_from
    from ..mail.letters import clean
    from ..store.mail import note_inbox
    from .reports import campaign_templates

    origin = str(maildir or mbox or (f"imap://{config.imap.host}/{config.imap.folder}" if config.imap else ""))
    try:
        messages = messages_from(session, config.max_bytes, maildir, mbox, config.imap)
        commands = reader(config.sender, campaign_templates())
        handled = [h for h in fetch_messages(session, messages, config, now, commands)
                   if h.outcome not in ("duplicate", "own")]
    except (OSError, imaplib.IMAP4.error) as err:
        session.rollback()
        note_inbox(session, origin, clean(str(err) or type(err).__name__, 300), now)
        session.commit()
        return [Done("", 0, "problem", f"cannot read the inbox {origin}: {err}; due turns and match deadlines wait "
                                       "for the orders in it (pbem run --no-fetch processes them without)")]
    if origin:
        note_inbox(session, origin, None, now)
        session.commit()
    return [Done(h.game or "", 0, "fetched", f"{h.outcome} {h.sender or '(no sender)'} {h.player or ''}".rstrip())
            for h in handled]


def _write_owed_reports(session: Session) -> list[Done]:
    """Report folders owed by an earlier run or `turn process` (a crash, a full disk, a folder deleted while it
    was written), written again; one that fails again stays owed and is a problem, the rest of the run goes on."""
    from sqlmodel import select

    from ..formats.game import turn_folder_name
    from ..render.turn import DEFAULT_SENDER
    from ..store.games import turn_processed
    from ..store.reports import failed, owed, settle
    from ..store.tables import Game
    from .reports import campaign_templates, not_written, write_stored_report

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
                                campaign_templates())
        except OSError as err:
            failed(session, row, not_written(row.game, row.turn, out, err))
            session.commit()
            done.append(Done(row.game, row.turn, "problem", row.error or ""))
            continue
        settle(session, row.game, row.turn, row.folder)
        session.commit()
        done.append(Done(row.game, row.turn, "reported", f"reports written again in {out / row.game}"))
    return done


def _run_game(session: Session, name: str, now: datetime, config: MailConfig, out: Path,
              inbox_read: bool = True) -> list[Done]:
    """What is due for one game at `now`, done; each step commits with the mail it queues, under the game's lock
    (a second run at the same moment waits, then finds the step done). A due turn waits while the inbox could
    not be read (`inbox_read` false): orders may be sitting in it."""
    from ..gm import cycle
    from ..gm.absence import pilot_absent
    from ..gm.clock import start as start_turn_clock
    from ..mail.notices import missing_fate, reminder
    from ..mail.outbox import queue
    from ..store import turns
    from ..store.controls import paused
    from ..store.games import current_state, get_game, lock_game, players_of
    from ..store.schedule import hold, mark_reminded, required_schedule
    lock_game(session, name)
    game = get_game(session, name)
    state = current_state(session, game)
    from ..gm.ending import queue_game_news, queue_the_end  # reports, sheets and the end told

    if state.is_over:  # ended by `turn process`, say: its result is told once all the same
        told = queue_the_end(session, name, config.sender, now)
        session.commit()
        return [Done(name, state.turn - 1, "told", who) for who in told]
    if paused(session, game) is not None:  # a paused game's clock stands still
        return []
    from ..render.history import recipients
    from ..store.reports import owe, settle
    from .reports import campaign_templates, not_written, write_reports
    from .texts import turn_summary

    schedule = required_schedule(session, game)
    if not turns.dealt(session, game, state.turn):
        cycle.deal_hands(session, name)
        deadline = start_turn_clock(session, game, state.turn, now, config.sender)
        queue_game_news(session, name, config.sender, now, campaign_templates())
        session.commit()
        return [Done(name, state.turn, "dealt", due_text(deadline.due_at, schedule.timezone))]
    deadline = start_turn_clock(session, game, state.turn, now, config.sender)
    waiting = turns.status(session, name).waiting_for
    done: list[Done] = []
    pending = [h for h in schedule.remind if h not in deadline.reminded and now >= deadline.due_at - timedelta(hours=h)]
    if pending and now < deadline.due_at and waiting:
        hours = min(pending)  # a run that missed an earlier reminder sends only the most urgent one
        roster = {p.name: p for p in players_of(session, game)}
        for player in waiting:
            own = due_text(deadline.due_at, schedule.timezone, roster[player].timezone)
            queue(session, reminder(config.sender, name, state.turn, player, roster[player].email, own, hours,
                                    fate=missing_fate(state, player), templates=campaign_templates()), "reminder", now)
        for h in pending:
            mark_reminded(session, game, state.turn, h)
        done.append(Done(name, state.turn, "reminded", f"{', '.join(waiting)} ({hours} h before)"))
    is_due = now >= deadline.due_at or (schedule.process == "all-in" and not waiting)
    if is_due and not inbox_read:
        session.commit()
        return done + [Done(name, state.turn, "waiting", "due, but the inbox could not be read: the turn waits for "
                                                          "the orders in it")]
    if is_due:
        piloted = pilot_absent(session, game, deadline) if now >= deadline.due_at else []
        done += [Done(name, state.turn, "piloted", f"{player} is away: the robot pilot sent orders")
                 for player in piloted]
        if schedule.review and not deadline.approved:
            held = _review(session, game, state.turn, deadline, now, config, out)
            if held is not None:
                return done + held
        # processed, the next turn dealt and the mail queued in one transaction, under the game's lock
        result = cycle.play(session, name, turn=state.turn, at=now)
        if deadline.held_hash and result.after_hash != deadline.held_hash:  # orders came in during the hold
            session.rollback()
            hold(session, game, state.turn, None, None)
            session.commit()
            return done + [Done(name, state.turn, "problem", "orders changed since the preview the GM saw: "
                                                             "the next run previews the turn again")]
        missing = [p for p, version in result.orders.items() if version is None and p in waiting]
        done.append(Done(name, result.turn, "processed", f"missing: {', '.join(missing)}" if missing else ""))
        if not result.over:
            cycle.deal_hands(session, name)
            nxt = start_turn_clock(session, game, result.turn + 1, now, config.sender)
            done.append(Done(name, result.turn + 1, "dealt", due_text(nxt.due_at, schedule.timezone)))
        told = queue_game_news(session, name, config.sender, now, campaign_templates())[1]
        done += [Done(name, result.turn, "told", who) for who in told]
        owe(session, name, result.turn, str(out), now)
        session.commit()
        try:
            write_reports(out, name, result.turn, result.before, result.outcome, recipients(session, game),
                          result.orders, campaign_templates(), turn_summary(result))
        except OSError as err:
            return done + [Done(name, result.turn, "problem", not_written(name, result.turn, out, err))]
        settle(session, name, result.turn, str(out))
    session.commit()
    return done


def _review(session: Session, game, turn: int, deadline, now: datetime, config: MailConfig,
            out: Path) -> list[Done] | None:
    """The review hold: the first time a turn is due, preview it to the GM and hold it; later, keep holding
    until it is approved or the hold expires. None: go on and process it."""
    from ..gm import cycle
    from ..mail.notices import held_for_review
    from ..mail.outbox import queue
    from ..render.history import outcome_report, recipients
    from ..store.games import lock_game
    from ..store.schedule import hold, required_schedule
    from .reports import campaign_templates, write_report
    from .texts import turn_summary

    schedule = required_schedule(session, game)
    if deadline.held_at is not None:
        expires = hold_expires(schedule, deadline.held_at)
        return None if expires is not None and now >= expires else []
    session.commit()  # a preview rolls its session back: keep what this run did so far
    preview = cycle.process(session, game.name, preview=True, turn=turn, at=now)
    folder = out / "previews"
    report = outcome_report(game.name, preview.before, preview.outcome, list(preview.before.players),
                            preview.orders)
    write_report(folder, report, recipients(session, game), campaign_templates())
    lock_game(session, game.name)
    queue(session, held_for_review(config.sender, game.name, turn, report, turn_summary(preview),
                                   _hold_text(game.name, schedule, now), campaign_templates()), "review", now)
    hold(session, game, turn, now, preview.after_hash)
    session.commit()
    return [Done(game.name, turn, "held", f"preview in {folder / game.name}; pbem turn approve {game.name}")]


def _hold_text(game: str, schedule, held_at: datetime) -> str:
    """How long a turn held since `held_at` waits for the GM, in words."""
    expires = hold_expires(schedule, held_at)
    if expires is None:
        return f"It is held until you approve it (pbem turn approve {game}): the hold has no time limit."
    return (f"It is held until you approve it, or until {moment_text(expires, schedule.timezone)}: then it is "
            "processed as it stands.")


@turn_app.command("approve")
def approve_command(ctx: typer.Context, game: str = typer.Argument(..., help="The game's name."),
                    config_file: Optional[Path] = CONFIG,
                    out: Path = typer.Option(Path("reports"), "--out", help="Where the turn's reports are written."),
                    as_json: bool = typer.Option(False, "--json", help="Print what was done as JSON.")) -> None:
    """Store a turn held for review (the result previewed to the GM, checked by its state hash), deal the next
    turn and queue the reports, as `pbem run` would have."""
    from ..mail.config import load_config
    from ..store.games import current_state, get_game
    from ..store.schedule import approve

    now = clock(ctx)
    config = read_or_refuse(load_config, config_file)
    with open_store(ctx) as store, store.session() as session:
        found = get_game(session, game)
        approve(session, found, current_state(session, found).turn)
        session.commit()
        done = _run_game(session, game, now, config, out)
    if as_json:
        print_json([asdict(d) for d in done])
    else:
        for d in done:
            say(f"{d.what.upper():<10} {d.game} turn {d.turn} {d.detail}".rstrip())
    raise typer.Exit(EXIT_REFUSED if any(d.what == "problem" for d in done) else EXIT_OK)


@app.command("status")
def status(ctx: typer.Context, as_json: bool = typer.Option(False, "--json", help="Print as JSON.")) -> None:
    """Every scheduled game: its turn, when it is due, who has not sent orders, and what `pbem run` does next."""
    from ..store import turns
    from ..store.controls import paused
    from ..store.games import current_state
    from ..store.schedule import deadline_of, required_schedule, scheduled_games
    now = clock(ctx)
    rows: list[dict[str, Any]] = []
    with open_store(ctx, read_only=True) as store, store.session() as session:
        for game in scheduled_games(session):
            schedule = required_schedule(session, game)
            state = current_state(session, game)
            turn = turns.status(session, game.name)
            deadline = deadline_of(session, game, state.turn) if turn.dealt else None
            expires = hold_expires(schedule, deadline.held_at) if deadline and deadline.held_at else None
            pause = paused(session, game)
            if state.is_over:
                nxt = "nothing: the game is over"
            elif pause is not None:
                nxt = f"nothing: paused since {pause.at:%Y-%m-%d %H:%M} UTC (pbem game resume {game.name})"
            elif not turn.dealt or deadline is None:
                nxt = "deal the turn and start its clock"
            elif deadline.held_at is not None and not deadline.approved:
                nxt = (f"held for review since {deadline.held_at:%Y-%m-%d %H:%M} UTC until pbem turn approve "
                       f"{game.name}" + (f" or {expires:%Y-%m-%d %H:%M} UTC, then process the turn" if expires
                                         else " (no time limit)"))
            elif now >= deadline.due_at or (schedule.process == "all-in" and not turn.waiting_for):
                nxt = "process the turn"
            else:
                nxt = f"process at {deadline.due_at:%Y-%m-%d %H:%M} UTC"
            rows.append({"game": game.name, "turn": state.turn, "over": state.is_over,
                         "due": deadline.due_at.isoformat() if deadline else None,
                         "due_text": due_text(deadline.due_at, schedule.timezone) if deadline else None,
                         "waiting_for": turn.waiting_for, "next": nxt, "schedule": schedule.to_data(),
                         "held_at": deadline.held_at.isoformat() if deadline and deadline.held_at else None,
                         "hold_expires": expires.isoformat() if expires else None,
                         "paused": pause.at.isoformat() if pause else None})
        matches = _match_rows(session, now)
        inbox, reports = _faults(session)
    if as_json:
        print_json({"now": now.isoformat(), "games": rows, "matches": matches, "inbox": inbox,
                    "reports_owed": reports})
        return
    if inbox and inbox["failed_since"]:
        typer.echo(f"inbox {inbox['origin']}: cannot be read since {inbox['failed_since'][:16]} UTC ({inbox['error']});"
                   " due turns and match deadlines wait for it (pbem run --no-fetch goes on without it)")
    for owed in reports:
        typer.echo(owed["error"] or f"{owed['game']} turn {owed['turn']}: reports owed in {owed['folder']}; "
                                    "the next pbem run writes them")
    for row in rows:
        when = "paused" if row["paused"] else row["due_text"] or "no deadline yet"
        say(f"{row['game']}: turn {row['turn']}, {when}; "
            f"waiting for {', '.join(row['waiting_for']) or 'nobody'}; next: {row['next']}")
    for row in matches:
        say(f"{row['match']} ({row['game']}): {row['due_text'] or 'no deadline running'}; "
            f"waiting for {row['waiting'] or 'either player'}; next: {row['next']}")
    if not rows:
        typer.echo("No scheduled games: pbem game set GAME --deadline 5d", err=True)
