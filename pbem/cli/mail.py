"""`pbem mail fetch|send|dm-player`: orders in by mail, acknowledgements, reports and turn sheets out.

Each command imports the store and mail modules it uses when it runs, so `pbem mail --help` pays for neither."""
from __future__ import annotations

import re
from pathlib import Path
from typing import TYPE_CHECKING, Any, List, Optional

import typer

from .common import EXIT_OK, EXIT_REFUSED, EXIT_USAGE, clock, print_json, read_or_refuse, refuse, say_lines, sub_app
from .gm import RUN_WAIT, holding_run_lock, open_store

if TYPE_CHECKING:
    from ..mail.config import MailConfig, Server

SECRET = re.compile(r"[A-Za-z0-9_-]{4,64}")
SEND_LIMIT = 25_000_000  # bytes: the most a mail server commonly takes in one message (Gmail's limit)
mail_app = sub_app("mail", "Fetch orders from and send reports to the players.")

CONFIG = typer.Option(None, "--config", envvar="PBEM_MAIL_CONFIG",
                      help="Mail settings (YAML); PBEM_IMAP_*, PBEM_SMTP_* and PBEM_MAIL_FROM override it.")
JSON = typer.Option(False, "--json", help="Print one JSON document.")


def _config(path: Optional[Path]) -> MailConfig:
    from ..mail.config import load_config

    return read_or_refuse(load_config, path)


@mail_app.command("fetch")
def fetch(
    ctx: typer.Context,
    maildir: Optional[Path] = typer.Option(None, "--maildir", help="Read a Maildir folder."),
    mbox: Optional[Path] = typer.Option(None, "--mbox", help="Read an mbox file."),
    imap: bool = typer.Option(False, "--imap", help="Read the IMAP folder of the config (TLS by default)."),
    config_file: Optional[Path] = CONFIG,
    archive: Optional[Path] = typer.Option(None, "--archive", help="The Maildir keeping every message read "
                                           "(default: the config's `archive`, else ./mail-archive)."),
    as_json: bool = JSON,
) -> None:
    """Read new messages: orders and death-match actions are checked and stored as `pbem turn submit` and
    `pbem dm act` would; every message is archived, handled once, and gets an acknowledgement queued for
    `pbem mail send`. Orders received after their turn's deadline, or for a turn already processed, are refused
    as late (RULES B4.7); a message handled before is listed as DUPLICATE. Exit 1 when any message was refused."""
    import imaplib
    from dataclasses import replace

    from ..gm.intake import fetch as fetch_messages
    from ..gm.mailcommands import reader
    from ..gm.reports import campaign_templates
    from ..mail.fetch import messages_from
    from ..mail.inbox import ArchiveError
    from ..store.mail import Outcome

    if [maildir is not None, mbox is not None, imap].count(True) != 1:
        typer.echo("give exactly one of --maildir DIR, --mbox FILE or --imap", err=True)
        raise typer.Exit(EXIT_USAGE)
    config = _config(config_file)
    if archive is not None:
        config = replace(config, archive=archive)
    with open_store(ctx) as store, store.session() as session:
        messages = messages_from(session, config.max_bytes, maildir, mbox, _server(config, "imap") if imap else None)
        try:
            handled = fetch_messages(session, messages, config, clock(ctx),
                                     reader(config.sender, campaign_templates()))
        except ArchiveError as err:
            refuse([str(err)])
        except (OSError, imaplib.IMAP4.error) as err:
            refuse([f"cannot read the inbox: {err}"])
    if as_json:
        print_json([h.document() for h in handled])
    else:
        for h in handled:
            if h.outcome is Outcome.DUPLICATE:
                say_lines(f"{'DUPLICATE':<9} {h.key} (handled before: not stored or answered again)")
                continue
            who = f"{h.player} ({h.game})" if h.player else ""
            say_lines(f"{h.outcome.upper():<9} {h.sender or '(no sender)'} {who}")
            for reason in h.reasons:
                say_lines(reason, "  ")
        seen = sum(h.outcome is Outcome.DUPLICATE for h in handled)
        strangers = sum(h.outcome is Outcome.UNKNOWN for h in handled)
        typer.echo(f"{len(handled) - seen} new message(s) handled, {seen} handled before"
                   + (f"; {strangers} from unknown senders, not answered (pbem mail unknown)" if strangers else ""),
                   err=True)
    raise typer.Exit(EXIT_REFUSED if any(h.outcome is Outcome.REFUSED for h in handled) else EXIT_OK)


@mail_app.command("unknown")
def unknown(ctx: typer.Context, as_json: bool = JSON) -> None:
    """Messages from senders who are not players (or with no valid From): recorded and archived, never answered
    (unless the config says `answer_unknown: true`). Newest last."""
    from sqlmodel import col, select

    from ..store.mail import MailReceived, Outcome

    with open_store(ctx, read_only=True) as store, store.session() as session:
        rows = session.exec(select(MailReceived).where(MailReceived.outcome == Outcome.UNKNOWN.value)
                            .order_by(col(MailReceived.received_at), col(MailReceived.id))).all()
        found: list[dict[str, Any]] = [
            {"received_at": row.received_at.isoformat(), "sender": row.sender or None, "size": row.size,
             "archived": row.archived, "origin": row.origin} for row in rows]
    if as_json:
        print_json(found)
        return
    for entry in found:
        say_lines(f"{entry['received_at'][:16]}  {entry['sender'] or '(no valid From)'}  "
                  f"{entry['size']:,} bytes  archive: {entry['archived']}")
    typer.echo(f"{len(found)} message(s) from unknown senders", err=True)


def _server(config: MailConfig, kind: str) -> Server:
    return read_or_refuse(config.server, kind)


def _eml_files(paths: list[Path]) -> list[Path]:
    """The files to send, each checked (a regular file, within a mail's size) before anything is read."""
    from ..formats.bounded import check_regular
    from ..formats.problems import FormatError

    found, problems = [], []
    for path in paths:
        found += sorted(path.rglob("*.eml")) if path.is_dir() else [path]
    for path in found:
        try:
            check_regular(path, SEND_LIMIT, "a mail can carry")
        except FormatError as err:
            problems += [f"{problem}, nothing queued" for problem in err.problems]
    if problems:
        refuse(problems)
    return found


@mail_app.command("send")
def send(
    ctx: typer.Context,
    files: List[Path] = typer.Argument(None, help=".eml messages, or folders of them (e.g. what `pbem report` "
                                       "wrote), to queue and send."),
    games: List[str] = typer.Option([], "--game", help="Also queue GAME's reports of its last processed turn and "
                                    "turn sheets of its dealt turn (repeat)."),
    templates: Optional[Path] = typer.Option(None, "--templates", help="A folder of templates used before the "
                                             "bundled ones (default: the campaign folder's templates/, if any)."),
    dry_run: bool = typer.Option(False, "--dry-run", help="Write the messages to --out instead; change nothing."),
    out: Path = typer.Option(Path("outbox"), "--out", help="The folder --dry-run writes to."),
    config_file: Optional[Path] = CONFIG,
    as_json: bool = JSON,
) -> None:
    """Queue the given messages (each once: by Message-ID), then send everything pending over SMTP, with
    acknowledgements queued by `pbem mail fetch`. A failed send stays pending for the next run; a message
    recorded as sent is not sent again (a crash between the server's acceptance and that record sends it once more,
    with the same Message-ID). Exit 1 when any message is left unsent."""
    from dataclasses import asdict

    from ..formats.bounded import read_limited
    from ..gm.outgoing import queue_outgoing, send_pending
    from ..gm.reports import campaign_templates
    from ..store.mail import OutboxState

    config = _config(config_file)
    with open_store(ctx) as store, store.session() as session:
        queued, results = queue_outgoing(session, ((path, read_or_refuse(read_limited, path, SEND_LIMIT))
                                                   for path in _eml_files(files or [])),
                                         games, config.sender, clock(ctx),
                                         (str(templates),) if templates else campaign_templates(),
                                         out if dry_run else None)
        if not dry_run:
            server = _server(config, "smtp")
            with holding_run_lock(ctx, RUN_WAIT):
                results = send_pending(session, server, config.sender, clock(ctx))
    if as_json:
        print_json({"queued": queued, "dry_run": dry_run, "messages": [asdict(r) for r in results]})
    else:
        sent = [r.state == OutboxState.SENT for r in results]
        for r, went in zip(results, sent):
            typer.echo(f"{('WRITTEN' if dry_run and went else r.state.upper()):<8} {r.recipient}  "
                       f"{r.subject}" + (f"\n  {r.error}" if r.error else ""))
        typer.echo(f"{queued} message(s) queued; {sum(sent)} of {len(results)} "
                   + ("written to " + str(out) if dry_run else "sent"), err=True)
    raise typer.Exit(EXIT_OK if all(r.state == OutboxState.SENT for r in results) else EXIT_REFUSED)


@mail_app.command("outbox")
def outbox(
    ctx: typer.Context,
    everything: bool = typer.Option(False, "--all", help="Also list the messages sent."),
    as_json: bool = JSON,
) -> None:
    """The messages not sent yet (pending: retried by the next `pbem mail send`), refused by the server for good,
    or set aside as unsendable (an internationalised address without SMTPUTF8), with the last error; with --all,
    every message queued."""
    from ..store.outbox import listing

    with open_store(ctx) as store, store.session() as session:
        rows = listing(session, everything)
    documents: list[dict[str, Any]] = [
        {"message_id": r.message_id, "recipient": r.recipient, "subject": r.subject, "purpose": r.purpose,
         "state": r.state, "attempts": r.attempts, "error": r.last_error,
         "queued_at": r.queued_at.isoformat(timespec="seconds"),
         "sent_at": r.sent_at.isoformat(timespec="seconds") if r.sent_at else None} for r in rows]
    if as_json:
        print_json(documents)
        return
    for d in documents:
        typer.echo(f"{d['state'].upper():<8} {d['recipient']}  {d['subject']}  ({d['attempts']} attempt(s))"
                   + (f"\n  {d['error']}" if d["error"] else ""))
    typer.echo(f"{len(documents)} message(s)", err=True)


@mail_app.command("dm-player")
def dm_player(
    ctx: typer.Context,
    match: str = typer.Argument(..., help="The death match (pbem dm new)."),
    player: str = typer.Argument(..., help="The player's name in the match."),
    email: str = typer.Argument(..., help="The address the player mails actions from."),
    secret: Optional[str] = typer.Option(None, "--secret", help="The player's secret (default: a new random one)."),
    config_file: Optional[Path] = CONFIG,
    as_json: bool = JSON,
) -> None:
    """Let a death-match player act by mail: their address and the secret their mails must carry. A match that has
    begun sends the address its opening mail (the rules, the secret, the position and the reply lines) at once;
    one that begins later sends it with the first `pbem run` from its start."""
    from ..formats.names import address_problem
    from ..gm.matches import enrol, send_now

    problem = address_problem(email)
    if problem:
        refuse([problem], EXIT_USAGE)
    if secret is not None and not SECRET.fullmatch(secret):
        refuse(["--secret: 4 to 64 letters, digits, '-' or '_' (it goes on a line of the player's mail)"], EXIT_USAGE)
    mail = _config(config_file)
    with open_store(ctx) as store, store.session() as session:
        row, opened = enrol(session, match, player, email, secret, clock(ctx), mail.sender)
        if opened:
            with holding_run_lock(ctx, RUN_WAIT):  # the outbox is sent by one process at a time
                sent = send_now(session, mail, clock(ctx))
    if opened:
        typer.echo(f"opening mail to {email} " + ("sent" if sent else "queued (it goes with the next pbem run or "
                                                  "pbem mail send)"), err=True)
    if as_json:
        print_json({"match": match, "player": player, "email": email, "secret": row.secret,
                    "opening": bool(opened)})
    else:
        typer.echo(f"{player} <{email}> acts in {match} by mail with\n  match: {match}\n  player: {player}\n"
                   f"  secret: \"{row.secret}\"\n  action: {{…}}")
