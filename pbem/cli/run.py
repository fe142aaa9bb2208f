"""The GM's autopilot: `pbem game set` (a game's schedule), `pbem run` (one pass over every scheduled game,
safe from cron), `pbem status` (what is due, who is missing).

`pbem run` reads the clock once (`--now` / PBEM_NOW to rehearse) and, per game: deals a turn not yet dealt and
starts its clock, sends each reminder that is due once, processes a turn that is due (at its deadline, or as soon
as every expected player has orders with `--process all-in`), deals the next and queues the reports and sheets.
Mail is fetched first and the outbox sent last when the mail config names servers. The workflow is
pbem.gm.schedule's, each step recorded in the same transaction as the mail it queues, so a second run right after
does nothing; this module parses, reads the clock once and prints what was done.

One run at a time per database (the run lock, pbem.store.runlock; `pbem mail send` takes it too); on PostgreSQL
only around the mail, while workers (`--jobs N`, runs on other hosts) claim the due games one by one. While the
inbox cannot be read, due turns and match deadlines wait for the orders in it (`--no-fetch` goes on without
them). Reports owed by an earlier run or `turn process` (a crash, a full disk) are written again first.
"""
from __future__ import annotations

from dataclasses import asdict
from datetime import datetime
from pathlib import Path
from typing import TYPE_CHECKING, Any, Optional

import typer

from ..formats.ending import Ending, ended_text
from ..formats.schedule import due_text, hold_expires
from ..store.due import GameTick, Inbox, RowReader, inbox_of, quiet_status, quiet_ticks
from .common import EXIT_OK, EXIT_REFUSED, app, clock, db_url, print_json, read_or_refuse, refuse, say
from .game import game_app
from .gm import RUN_WAIT, holding_run_lock, open_store
from .schedule_options import changed_schedule, option, schedule_text
from .turn import turn_app

if TYPE_CHECKING:
    from sqlmodel import Session

    from ..gm.schedule import Done


# The store, the engine, mail and rendering are imported where they are used: a cron tick with nothing due
# (`pbem.store.due`) needs none of them.

CONFIG = typer.Option(None, "--config", envvar="PBEM_MAIL_CONFIG",
                      help="Mail settings (YAML), as for pbem mail; without IMAP/SMTP servers run only queues mail.")


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
    from ..formats.schedule import fallen_reminders
    from ..gm.schedule import schedule_game
    from ..store.games import Refused, get_game
    from ..store.schedule import schedule_for
    with open_store(ctx) as store, store.session() as session:
        schedule = changed_schedule(schedule_for(session, get_game(session, game)), deadline, zone, remind, process,
                                    review, hold_hours)
        try:
            policy = schedule_game(session, game, schedule, missing_orders)
        except Refused as err:
            refuse(err.reasons)
    if as_json:
        print_json({"game": game, **schedule.to_data(), "missing_orders": policy,
                    "reminders_fall_away": fallen_reminders(schedule)})
    else:
        typer.echo(schedule_text(game, schedule, f"; missing orders: {policy} (RULES B4.6)"))


@app.command("run")
def run(
    ctx: typer.Context,
    maildir: Optional[Path] = typer.Option(None, "--maildir", help="Read orders from a Maildir first."),
    mbox: Optional[Path] = typer.Option(None, "--mbox", help="Read orders from an mbox file first."),
    config_file: Optional[Path] = CONFIG,
    out: Path = typer.Option(Path("reports"), "--out", help="Where processed turns' reports and the turn sheets "
                             "mailed are written (OUT/GAME/turn-NNN/ and its sheets/)."),
    no_fetch: bool = typer.Option(False, "--no-fetch", help="Read no mail: process due turns and deadlines even "
                                  "though the inbox cannot be read (the orders in it are not counted)."),
    wait: float = typer.Option(RUN_WAIT, "--wait", min=0.0, metavar="SECONDS",
                               help="How long to wait for another run (or mail send) on this database to end."),
    jobs: int = typer.Option(1, "--jobs", min=1, metavar="N", help="Worker processes sharing the due games on "
                             "PostgreSQL (runs on other hosts share them too); SQLite has one writer: one worker."),
    as_json: bool = typer.Option(False, "--json", help="Print what was done as JSON."),
) -> None:
    """One unattended pass over every scheduled game: fetch, remind, process what is due, deal, send. Safe to run
    from cron every few minutes (on SQLite one run at a time; on PostgreSQL several runs and `--jobs N` workers
    share the due games, each done once); exit 1 when something needs the GM."""
    from ..mail.config import load_config
    now = clock(ctx)
    config = read_or_refuse(load_config, config_file)
    if maildir is None and mbox is None and config.imap is None \
            and quiet_ticks(db_url(ctx), now, outbox=config.smtp is not None) is not None:
        _report(now, [], as_json)  # nothing due: the stored rows say so (pbem.store.due)
    from ..gm.reports import campaign_templates
    from ..gm.schedule import before_games, run_once, send_outbox
    from ..store.runlock import claims_games
    from .workers import share_games

    templates, url = campaign_templates(), db_url(ctx)
    if not claims_games(url):  # SQLite: one writer at a time, the whole run under the run lock
        with open_store(ctx) as store, holding_run_lock(ctx, wait), store.session() as session:
            done = run_once(session, now, config, out, templates, fetch=not no_fetch, maildir=maildir, mbox=mbox)
        _report(now, done, as_json)
    with open_store(ctx) as store:  # PostgreSQL: the mail one run at a time, the games claimed one by one
        with holding_run_lock(ctx, wait), store.session() as session:
            done, inbox_read = before_games(session, now, config, templates, fetch=not no_fetch, maildir=maildir,
                                            mbox=mbox)
        done += share_games(url, jobs, now, config, out, templates, inbox_read)
        with holding_run_lock(ctx, wait), store.session() as session:
            done += send_outbox(session, config, now)
    _report(now, done, as_json)


def _report(now: datetime, done: list[Done], as_json: bool) -> None:
    """What the run did, and its exit: 1 when something needs the GM."""
    if as_json:
        print_json({"now": now.isoformat(), "done": [asdict(d) for d in done]})
    else:
        for d in done:
            say(f"{d.what.upper():<10} {d.game} {f'turn {d.turn}' if d.turn else ''} {d.detail}".rstrip())
        typer.echo(f"{now:%Y-%m-%d %H:%M} UTC: {len(done)} thing(s) done", err=True)
    raise typer.Exit(EXIT_REFUSED if any(d.needs_gm for d in done) else EXIT_OK)


def _status_row(tick: GameTick, now: datetime, inbox: Inbox | None) -> dict[str, Any]:
    """A scheduled game in `pbem status`: its turn, deadline, pause, review hold, who is missing, what comes next
    (a due turn waits while the inbox cannot be read, as `pbem run` does: orders may be sitting in it)."""
    schedule, due_at, held_at = tick.schedule, tick.due_at, tick.held_at
    expires = hold_expires(schedule, held_at) if held_at else None
    if tick.ended is not None:
        nxt = f"nothing: {ended_text(tick.game, tick.ended[0], Ending(tick.ended[1]), tick.ended[2])}"
    elif tick.over:
        nxt = "nothing: the game is over"
    elif tick.paused is not None:
        nxt = f"nothing: paused since {tick.paused:%Y-%m-%d %H:%M} UTC (pbem game resume {tick.game})"
    elif not tick.dealt or due_at is None:
        nxt = "deal the turn and start its clock"
    elif held_at is not None and not tick.approved:
        nxt = (f"held for review since {held_at:%Y-%m-%d %H:%M} UTC until pbem turn approve {tick.game}"
               + (f" or {expires:%Y-%m-%d %H:%M} UTC, then process the turn" if expires else " (no time limit)"))
    elif (now >= due_at or (schedule.process == "all-in" and not tick.waiting_for)) and inbox and inbox.failed_since:
        nxt = (f"waiting for the inbox (unread since {inbox.failed_since:%Y-%m-%d %H:%M} UTC), then process the turn; "
               "pbem run --no-fetch goes on without it")
    elif now >= due_at or (schedule.process == "all-in" and not tick.waiting_for):
        nxt = "process the turn"
    else:
        nxt = f"process at {due_at:%Y-%m-%d %H:%M} UTC"
    return {"game": tick.game, "turn": tick.turn, "over": tick.over, "due": due_at.isoformat() if due_at else None,
            "due_text": due_text(due_at, schedule.timezone) if due_at else None, "waiting_for": tick.waiting_for,
            "next": nxt, "schedule": schedule.to_data(), "held_at": held_at.isoformat() if held_at else None,
            "hold_expires": expires.isoformat() if expires else None,
            "paused": tick.paused.isoformat() if tick.paused else None,
            "ended": tick.ended[0].isoformat() if tick.ended else None}


def _inbox_row(inbox: Inbox | None) -> dict[str, Any] | None:
    """The last attempt to read the inbox, in `pbem status --json`."""
    return None if inbox is None else {
        "origin": inbox.origin, "error": inbox.error,
        "failed_since": inbox.failed_since.isoformat() if inbox.failed_since else None,
        "checked_at": inbox.checked_at.isoformat()}


def _reports_owed(session: Session) -> list[dict[str, Any]]:
    """The turns whose reports an earlier run could not write (still owed)."""
    from ..store.reports import owed

    return [{"game": r.game, "turn": r.turn, "folder": r.folder, "since": r.since.isoformat(), "error": r.error}
            for r in owed(session)]


def _match_rows(session: Session, now: datetime) -> list[dict[str, Any]]:
    """Every death match: its running deadline, whom it waits for, and what `pbem run` does next."""
    from ..gm.moves import match_tick, position
    from ..store.matches import all_matches

    return [match_tick(session, match, config, state, now).row(now)
            for match in all_matches(session) for config, state, _ in [position(session, match)]]


@turn_app.command("approve")
def approve_command(ctx: typer.Context, game: str = typer.Argument(..., help="The game's name."),
                    config_file: Optional[Path] = CONFIG,
                    out: Path = typer.Option(Path("reports"), "--out", help="Where the turn's reports are written."),
                    as_json: bool = typer.Option(False, "--json", help="Print what was done as JSON.")) -> None:
    """Store a turn held for review (the result previewed to the GM, checked by its state hash), deal the next
    turn and queue the reports, as `pbem run` would have."""
    from ..gm.reports import campaign_templates
    from ..gm.schedule import approve_turn
    from ..mail.config import load_config

    now = clock(ctx)
    config = read_or_refuse(load_config, config_file)
    with open_store(ctx) as store, store.session() as session:
        done = approve_turn(session, game, now, config, out, campaign_templates())
    if as_json:
        print_json([asdict(d) for d in done])
    else:
        for d in done:
            say(f"{d.what.upper():<10} {d.game} turn {d.turn} {d.detail}".rstrip())
    raise typer.Exit(EXIT_REFUSED if any(d.needs_gm for d in done) else EXIT_OK)


@app.command("status")
def status(ctx: typer.Context, as_json: bool = typer.Option(False, "--json", help="Print as JSON.")) -> None:
    """Every scheduled game: its turn, when it is due, who has not sent orders, and what `pbem run` does next."""
    now = clock(ctx)
    quiet = quiet_status(db_url(ctx), now)
    if quiet is not None:  # nothing due: the stored rows tell it all (pbem.store.due); no reports owed
        ticks, matches, inbox, reports = quiet.games, [m.row(now) for m in quiet.matches], quiet.inbox, []
    else:  # something due (or the rows cannot tell): the engine says who is expected
        from ..store.due import stored_tick
        from ..store.schedule import scheduled_games

        with open_store(ctx, read_only=True) as store, store.session() as session:
            ticks = [stored_tick(session, game.name) for game in scheduled_games(session)]
            matches, reports = _match_rows(session, now), _reports_owed(session)
        with RowReader(db_url(ctx)) as read:
            inbox = inbox_of(read)
    rows = [_status_row(tick, now, inbox) for tick in ticks]
    if as_json:
        print_json({"now": now.isoformat(), "games": rows, "matches": matches, "inbox": _inbox_row(inbox),
                    "reports_owed": reports})
        return
    if inbox and inbox.failed_since:
        typer.echo(f"inbox {inbox.origin}: cannot be read since {inbox.failed_since:%Y-%m-%dT%H:%M} UTC ({inbox.error});"
                   " due turns and match deadlines wait for it (pbem run --no-fetch goes on without it)")
    for owed in reports:
        typer.echo(owed["error"] or f"{owed['game']} turn {owed['turn']}: reports owed in {owed['folder']}; "
                                    "the next pbem run writes them")
    for row in rows:
        when = "paused" if row["paused"] else row["due_text"] or "no deadline yet"
        say(f"{row['game']}: turn {row['turn']}, {when}; "
            f"waiting for {', '.join(row['waiting_for']) or 'nobody'}; next: {row['next']}")
    for row in matches:
        running = "over" if row["over"] else (f"{row['due_text'] or 'no deadline running'}; "
                                              f"waiting for {row['waiting'] or 'either player'}")
        say(f"{row['match']} ({row['game']}): {running}; next: {row['next']}")
    if not rows:
        typer.echo("No scheduled games: pbem game set GAME --deadline 5d", err=True)
