"""The GM's controls of a running game (`pbem.gm`): extend a turn, pause and resume, replace a player, change an
address, announce an absence, set the press and absence policies, add observers, broadcast, read the history.

Each parses its arguments, calls one gm function (which records the control, queues the mail it owes and commits)
and prints what it did; the mail goes out with the next `pbem run` or `pbem mail send`.
"""
from __future__ import annotations

import secrets
import sys
from datetime import datetime
from pathlib import Path
from typing import Any, Optional

import typer

from .common import clock, print_json, read_clock, read_or_refuse
from .game import game_app
from .gm import open_store
from .mail import CONFIG, JSON, _config, mail_app
from .turn import turn_app


def _say(as_json: bool, document: dict[str, Any], text: str) -> None:
    if as_json:
        print_json(document)
    else:
        typer.echo(text)


@turn_app.command("extend")
def extend(ctx: typer.Context, game: str = typer.Argument(..., help="The game's name."),
           by: Optional[str] = typer.Option(None, "--by", help="How much later: 24h, 2d, 1d12h."),
           to: Optional[str] = typer.Option(None, "--to", metavar="TIME", help="The new deadline (ISO 8601)."),
           config_file: Optional[Path] = CONFIG, as_json: bool = JSON) -> None:
    """Move the running turn's deadline later, before it passes; every player is told and reminders follow."""
    from ..formats.controls import duration
    from ..gm.clock import extend as extend_turn

    if (by is None) == (to is None):
        raise typer.BadParameter("give exactly one of --by SPAN or --to TIME", param_hint="--by/--to")
    try:
        span = duration(by) if by is not None else None
    except ValueError as err:
        raise typer.BadParameter(str(err), param_hint="--by") from None
    until = read_clock(to, "--to") if to is not None else None
    sender = _config(config_file).sender
    with open_store(ctx) as store, store.session() as session:
        moved = extend_turn(session, game, clock(ctx), sender, by=span, to=until)
    if isinstance(moved, datetime):  # a death match's running deadline
        _say(as_json, {"game": game, "due": moved.isoformat()},
             f"{game}: the deadline is now {moved:%Y-%m-%d %H:%M:%S} UTC; both players are told")
        return
    _say(as_json, {"game": game, "turn": moved.turn, "due": moved.due_at.isoformat()},
         f"{game}: turn {moved.turn} now due {moved.due_at:%Y-%m-%d %H:%M} UTC; every player is told")


@game_app.command("pause")
def pause(ctx: typer.Context, game: str = typer.Argument(..., help="The game's name."),
          config_file: Optional[Path] = CONFIG, as_json: bool = JSON) -> None:
    """Stop the game's clock: pbem run neither reminds nor processes it until `pbem game resume`."""
    from ..formats.controls import span_text
    from ..gm.clock import pause as pause_game

    sender = _config(config_file).sender
    with open_store(ctx) as store, store.session() as session:
        left = pause_game(session, game, clock(ctx), sender)
    _say(as_json, {"game": game, "paused": True, "remaining": None if left is None else int(left.total_seconds())},
         f"{game}: paused" + (f" with {span_text(left)} left on the running turn" if left is not None else ""))


@game_app.command("resume")
def resume(ctx: typer.Context, game: str = typer.Argument(..., help="The game's name."),
           config_file: Optional[Path] = CONFIG, as_json: bool = JSON) -> None:
    """Restart a paused game's clock with the time the running turn had left."""
    from ..gm.clock import resume as resume_game

    sender = _config(config_file).sender
    with open_store(ctx) as store, store.session() as session:
        deadline = resume_game(session, game, clock(ctx), sender)
    if isinstance(deadline, datetime):  # a death match's running deadline
        _say(as_json, {"game": game, "paused": False, "due": deadline.isoformat()},
             f"{game}: resumed; the deadline is {deadline:%Y-%m-%d %H:%M:%S} UTC")
        return
    _say(as_json, {"game": game, "paused": False, "due": deadline.due_at.isoformat() if deadline else None},
         f"{game}: resumed" + (f"; turn {deadline.turn} due {deadline.due_at:%Y-%m-%d %H:%M} UTC" if deadline else ""))


@game_app.command("replace")
def replace(ctx: typer.Context, game: str = typer.Argument(..., help="The game's name."),
            old: str = typer.Argument(..., help="The player whose seat changes hands."),
            new: str = typer.Argument(..., metavar="NEW:EMAIL", help="Who takes it over, and their address."),
            secret: Optional[str] = typer.Option(None, "--secret", help="The newcomer's secret (default: a new "
                                                 "random one)."),
            config_file: Optional[Path] = CONFIG, as_json: bool = JSON) -> None:
    """Give a player's seat to a newcomer with a new address and secret; what the seat did stays its own (a
    campaign's robots, standing and history; a death match's moves). The newcomer gets their turn sheet (a match:
    its position and the lines to send), the old address a goodbye, the other players and the observers the
    news."""
    from ..gm.reports import campaign_templates
    from ..gm.roster import replace as replace_player

    name, _, email = new.partition(":")
    if not name or not email:
        raise typer.BadParameter(f"{new!r}: write NEW:EMAIL", param_hint="NEW:EMAIL")
    secret = secret or secrets.token_hex(8)
    sender = _config(config_file).sender
    with open_store(ctx) as store, store.session() as session:
        done = replace_player(session, game, old, name, email, secret, clock(ctx), sender, campaign_templates())
    player = done.seat
    nobody = "" if done.was else f"; {old} played by no address, so nothing was queued for them"
    _say(as_json, {"game": game, "seat": old, "player": name, "email": player.email, "secret": player.secret,
                   "was": done.was or None, "told": done.told},
         f"{game}: {name} <{player.email}> takes over {old}'s seat (secret {player.secret}); mail queued to "
         f"{', '.join(done.told) or 'nobody'}{nobody}")


@game_app.command("address")
def address(ctx: typer.Context, game: str = typer.Argument(..., help="The game's name."),
            player: str = typer.Argument(..., help="The player."),
            email: str = typer.Argument(..., help="Their new address."),
            config_file: Optional[Path] = CONFIG, as_json: bool = JSON) -> None:
    """Change a player's address; the old and the new address are both told."""
    from ..gm.roster import set_address

    sender = _config(config_file).sender
    with open_store(ctx) as store, store.session() as session:
        row = set_address(session, game, player, email, clock(ctx), sender)
    _say(as_json, {"game": game, "player": player, "email": row.email},
         f"{game}: {player} now plays from {row.email}; both addresses are told")


@game_app.command("away")
def away(ctx: typer.Context, game: str = typer.Argument(..., help="The game's name."),
         player: str = typer.Argument(..., help="The player who is away."),
         start: str = typer.Option(..., "--from", metavar="TIME", help="When the absence starts (ISO 8601)."),
         end: str = typer.Option(..., "--to", metavar="TIME", help="When it ends (ISO 8601)."),
         config_file: Optional[Path] = CONFIG, as_json: bool = JSON) -> None:
    """Announce a player's absence in a campaign; its absence policy (pbem game policy) decides what happens to a
    turn due meanwhile, and every player is told. A death match is refused: its deadlines pass for both
    players whatever happens (RULES D5); pause it (pbem game pause) or extend its deadline (pbem turn extend)."""
    from ..gm.absence import away as announce

    sender = _config(config_file).sender
    begin, until = read_clock(start, "--from"), read_clock(end, "--to")
    with open_store(ctx) as store, store.session() as session:
        policy = announce(session, game, player, begin, until, clock(ctx), sender)
    _say(as_json, {"game": game, "player": player, "from": begin.isoformat(), "to": until.isoformat(),
                   "policy": str(policy)},
         f"{game}: {player} away {begin:%Y-%m-%d %H:%M} to {until:%Y-%m-%d %H:%M} UTC ({policy}); players told")


@game_app.command("policy")
def policy(ctx: typer.Context, game: str = typer.Argument(..., help="The game's name."),
           press: Optional[str] = typer.Option(None, "--press", help="Messages between players, relayed by the "
                                               "GM's address: off, signed or anonymous (default off)."),
           absence: Optional[str] = typer.Option(None, "--absence", help="A campaign's turn due while a player is "
                                                 "away: extend (its deadline, once) or pilot (the robot pilot plays "
                                                 "them if no orders came). Default extend. A death match takes "
                                                 "none (RULES D5)."),
           as_json: bool = JSON) -> None:
    """Set (or, without options, show) the game's press and absence policies; options not given stay."""
    from ..formats.controls import policy_word
    from ..gm.policy import set_policies

    for name, value in (("press", press), ("absence", absence)):
        if value is not None:
            try:
                policy_word(name, value)
            except ValueError as err:
                raise typer.BadParameter(str(err), param_hint=f"--{name}") from None
    with open_store(ctx) as store, store.session() as session:
        now = set_policies(session, game, clock(ctx), press=press, absence=absence)
    _say(as_json, {"game": game, **now}, f"{game}: press {now['press']}, absence {now['absence']}")


@game_app.command("observe")
def observe(ctx: typer.Context, game: str = typer.Argument(..., help="The game's name."),
            email: str = typer.Argument(..., help="The observer's address."),
            stop: bool = typer.Option(False, "--stop", help="Stop sending them the game."),
            config_file: Optional[Path] = CONFIG, as_json: bool = JSON) -> None:
    """Let an address watch the game: each turn's report (a death match: its position, then each move's news) and
    the end, never sheets or secrets (--stop ends it)."""
    from ..gm.roster import observe as add
    from ..gm.roster import unobserve as remove

    sender = _config(config_file).sender
    with open_store(ctx) as store, store.session() as session:
        (remove if stop else add)(session, game, email, clock(ctx), sender)
    _say(as_json, {"game": game, "observer": email.strip().lower(), "observing": not stop},
         f"{game}: {email} {'no longer observes' if stop else 'observes'} the game")


@game_app.command("end")
def end(ctx: typer.Context, game: str = typer.Argument(..., help="The game's name."),
        winner: Optional[str] = typer.Option(None, "--winner", metavar="PLAYER", help="End it with PLAYER the winner."),
        draw: bool = typer.Option(False, "--draw", help="End it as a draw."),
        abandoned: bool = typer.Option(False, "--abandoned", help="Abandon it: it ends without a result."),
        reason: str = typer.Option("", "--reason", metavar="TEXT", help="Why, told to everyone."),
        config_file: Optional[Path] = CONFIG, as_json: bool = JSON) -> None:
    """End a game before its rules do, with a winner, as a draw or abandoned; every player and observer is told.
    Nothing follows: a campaign deals no sheet, reminder or turn, a death match counts no action and runs no
    deadline."""
    from ..formats.ending import Ending, ended_text
    from ..gm.ending import end_game

    given = [how for how, chosen in ((Ending.WINNER, winner is not None), (Ending.DRAW, draw),
                                      (Ending.ABANDONED, abandoned)) if chosen]
    if len(given) != 1:
        raise typer.BadParameter("give exactly one of --winner PLAYER, --draw or --abandoned",
                                 param_hint="--winner/--draw/--abandoned")
    sender = _config(config_file).sender
    with open_store(ctx) as store, store.session() as session:
        done = end_game(session, game, given[0], clock(ctx), sender, winner=winner, reason=" ".join(reason.split()))
    _say(as_json, {"game": game, "ended": done.at.isoformat(), "how": str(done.how), "winner": done.winner,
                   "reason": done.reason},
         f"{ended_text(game, done.at, done.how, done.winner)}; every player and observer is told")


@game_app.command("history")
def history(ctx: typer.Context, game: str = typer.Argument(..., help="The game's name."), as_json: bool = JSON) -> None:
    """The game's GM controls, oldest first: extensions, pauses, replacements, addresses, absences, press …"""
    from ..store.controls import history as controls_of
    from ..store.games import get_game

    with open_store(ctx, read_only=True) as store, store.session() as session:
        entries = controls_of(session, get_game(session, game))
    rows = [{"at": e.at.isoformat(), "kind": str(e.kind), "player": e.player, **e.data} for e in entries]
    if as_json:
        print_json(rows)
        return
    for row in rows:
        detail = ", ".join(f"{k}={v}" for k, v in row.items() if k not in ("at", "kind", "player", "text"))
        typer.echo(f"{row['at'][:16]} {row['kind']:<9} {row['player'] or ''} {detail}".rstrip())
    if not rows:
        typer.echo(f"{game}: no GM controls yet", err=True)


@mail_app.command("broadcast")
def broadcast(ctx: typer.Context, game: str = typer.Argument(..., help="The game's name."),
              file: str = typer.Argument(..., metavar="FILE|-", help="The message (UTF-8 text); - reads stdin."),
              config_file: Optional[Path] = CONFIG, as_json: bool = JSON) -> None:
    """Queue a message from the GM to every player and observer of a game, threaded with the game's mail."""
    from ..formats.bounded import decode, read_limited, read_stream
    from ..gm.broadcast import broadcast as send_all

    data = read_or_refuse(read_stream, sys.stdin.buffer, "standard input") if file == "-" \
        else read_or_refuse(read_limited, file)
    text = read_or_refuse(decode, data, "standard input" if file == "-" else file)
    sender = _config(config_file).sender
    with open_store(ctx) as store, store.session() as session:
        count = send_all(session, game, text, clock(ctx), sender)
    _say(as_json, {"game": game, "queued": count}, f"{game}: {count} message(s) queued")

