"""`pbem dm …` and `pbem flowers …`: death-match games."""
from __future__ import annotations

from dataclasses import replace
from pathlib import Path
from typing import TYPE_CHECKING, Any, Mapping, Optional

import typer

from .. import games
from ..dm.base import Action, Config, SetupError, get_game, new_options, replay
from ..dm.clock import GM
from ..formats.names import NAME_RULE, valid_name
from ..formats.transcript import dump_transcript, parse_time, plain, read_transcript
from ..formats.yamlfile import load_yaml
from .common import EXIT_REFUSED, EXIT_USAGE, clock, db_url, print_json, read_each, read_or_refuse, refuse, sub_app
from .plainhelp import PlainCommand

if TYPE_CHECKING:
    from sqlmodel import Session

    from ..store.controls import Ended
    from ..store.tables import Game as MatchRow

dm_app = sub_app("dm", "Replay and run death-match games.")
flowers_app = sub_app("flowers", "Flower Field tools.")

FILES = typer.Argument(..., exists=False, help="Files to read.")
JSON = typer.Option(False, "--json", help="Print one JSON document.")


@dm_app.command("replay")
def replay_command(transcripts: list[Path] = FILES, as_json: bool = JSON) -> None:
    """Replay whole games from transcripts; illegal actions are listed and change nothing.

    Exits 1 when a file is refused or any action was illegal.
    """
    documents: list[dict[str, Any]] = []
    for path, transcript in read_each(transcripts, read_transcript, documents):
        outcome = replay(transcript.config, list(transcript.actions))
        result = outcome.result
        document: dict[str, Any] = {
            "file": str(path),
            "over": result.over,
            "winner": result.winner,
            "errors": [{"index": i, "line": transcript.lines[i], "reason": reason} for i, reason in outcome.errors],
        }
        if result.lives is not None:
            document["lives"] = dict(result.lives)
        else:
            document["scores"] = None if result.scores is None else dict(result.scores)
        documents.append(document)
    if as_json:
        print_json(documents)
    else:
        for document in documents:
            _print_replay(document)
    if any("problems" in document or document["errors"] for document in documents):
        raise typer.Exit(EXIT_REFUSED)


def _print_refusal(document: dict[str, Any]) -> bool:
    """Print a refused file's problems; False when the file was read."""
    if "problems" not in document:
        return False
    typer.echo(f"{document['file']}: refused")
    for problem in document["problems"]:
        typer.echo(f"  {problem}")
    return True


def _print_replay(document: dict[str, Any]) -> None:
    if _print_refusal(document):
        return
    tally = document.get("lives") or document.get("scores") or {}
    label = "lives" if "lives" in document else "scores"
    standing = ", ".join(f"{p} {n}" for p, n in tally.items())
    status = f"won by {document['winner']}" if document["over"] else "not over"
    typer.echo(f"{document['file']}: {status}; {label}: {standing}")
    for error in document["errors"]:
        where = f"line {error['line']}, " if error["line"] else ""
        typer.echo(f"  action {error['index']} ({where}refused): {error['reason']}")


@flowers_app.command("duplicates")
def duplicates_command(boards: list[Path] = FILES, as_json: bool = JSON) -> None:
    """Every duplicate pair of flower fields on each board (RULES D4.6)."""
    from ..dm.flowerfield.fields import named_pairs  # here: no other dm command needs Flower Field (#34)
    from ..formats.flowerboard import read_flower_board

    documents: list[dict[str, Any]] = []
    for path, board in read_each(boards, read_flower_board, documents):
        documents.append({"file": str(path), "pairs": named_pairs(board.board)})
    if as_json:
        print_json(documents)
    else:
        for document in documents:
            if _print_refusal(document):
                continue
            typer.echo(f"{document['file']}: {len(document['pairs'])} duplicate pair(s)")
            for first, second in document["pairs"]:
                typer.echo(f"  {'-'.join(first)} = {'-'.join(second)}")
    if any("problems" in document for document in documents):
        raise typer.Exit(EXIT_REFUSED)


# --- live matches in the database -----------------------------------------------------------

OUT = typer.Option(Path("."), "--out", help="Folder for the position's PNG.")
MAIL_CONFIG = typer.Option(None, "--config", envvar="PBEM_MAIL_CONFIG",
                           help="Mail settings (YAML), as for pbem mail: players who play by mail are sent the position.")


def _yaml_value(text: str, what: str) -> Any:
    return plain(read_or_refuse(load_yaml, text, what))


def _publish(match: str, config: Config, state: Any, number: int, out: Path | None,
             as_json: bool = False, extra: dict[str, Any] | None = None, end: Ended | None = None) -> None:
    """Write the position's picture into `out` (unless None) and print the position as text, or as JSON; `end`: the
    GM's end of the match (`pbem game end`), shown in place of a running deadline."""
    from ..gm.matchview import closed, closing_text
    from ..render.dm import write

    rules = get_game(config.game)
    data = rules.render_data(state)
    path = _picture(config.game, data, out / f"{match}-{number:03d}.png", rules, state, match, end) \
        if out is not None else None
    if as_json:
        result = closed(rules.result(state), end)
        tally = {"lives": dict(result.lives)} if result.lives is not None else {"scores": result.scores}
        ending = {"ended": {"at": end.at.isoformat(), "how": str(end.how), "winner": end.winner,
                            "reason": end.reason, "text": closing_text(match, end)}} if end is not None else {}
        print_json({"match": match, "game": config.game, "over": result.over, "winner": result.winner,
                    **tally, **ending, "position": data, "picture": None if path is None else str(path),
                    **(extra or {})})
        return
    typer.echo(write(config.game, data), nl=False)
    if end is not None:
        typer.echo(f"Over: {closing_text(match, end)}.")
    if out is not None:
        typer.echo(f"picture: {path}" if path else f"(no picture: no drawer for {config.game})")


def _picture(game: str, data: Mapping[str, Any], path: Path, rules: Any, state: Any, match: str,
             end: Ended | None) -> Path | None:
    """Draw the position, with its running deadline (or the GM's end), into `path`; None for a game without a
    drawer."""
    from ..gm.matchview import caption
    from ..render.dm import draw, png_bytes, with_caption

    try:
        image = with_caption(draw(game, data), caption(rules, state, match, end))
    except KeyError:
        return None
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_bytes(png_bytes(image))
    return path


def _session(ctx: typer.Context) -> Session:
    """A session on the store named by --db (death matches open it here, not through the campaign store); only
    `dm new` (`gm.newmatch`) may start a new SQLite file."""
    from sqlmodel import Session

    from ..store.db import open_database
    from .gm import refuse_missing_database

    refuse_missing_database(ctx)
    return Session(open_database(db_url(ctx)))


def _open_match(ctx: typer.Context, name: str) -> tuple[Session, MatchRow]:
    from ..store import matches as store

    session = _session(ctx)
    match = store.find_match(session, name)
    if match is None:
        session.close()
        refuse([f"no death match named {name!r}"])
    return session, match


def game_names() -> tuple[str, ...]:
    """The death matches `pbem.games` lists now (a game registered after this module was imported too)."""
    return games.names(games.Kind.MATCH)


def game_options(game: str) -> list[dict[str, Any]]:
    """Every set-up option of `game`, from its declarations (name, default, unit, values, about)."""
    return [option.describe(name) for name, option in get_game(game).options.items()]


def _word(value: Any) -> str:
    return "none" if value is None else str(value).lower() if isinstance(value, bool) else str(value)


def _option_rows(game: str) -> list[tuple[str, str]]:
    """(the option with its default, unit and values; what it is about), one per option."""
    rows = []
    for d in game_options(game):
        unit = f" {d['unit']}" if d["unit"] and d["unit"] not in ("time stamp", "player", "rows x columns") else ""
        choices = f"; {' | '.join(map(_word, d['choices']))}" if d["choices"] else ""
        rows.append((f"{d['name']} (default {_word(d['default'])}{unit}{choices})", d["about"]))
    return rows


class NewMatchHelp(PlainCommand):
    """`dm new --help` ends with every option of every game, read from the games' declarations when asked."""

    def format_epilog(self, ctx: Any, formatter: Any) -> None:
        for game in game_names():
            with formatter.section(f"--option KEY=VALUE for {game}"):
                formatter.write_dl(_option_rows(game))


@dm_app.command("options")
def options_command(
    game: str = typer.Argument(..., help=f"The game: {', '.join(game_names())}."),
    as_json: bool = JSON,
) -> None:
    """Every set-up option of a game (`pbem dm new --option KEY=VALUE`): its default, unit and meaning."""
    if game not in game_names():
        refuse([f"unknown game {game!r}; known: {', '.join(game_names())}"], EXIT_USAGE)
    if as_json:
        print_json(game_options(game))
        return
    for head, about in _option_rows(game):
        typer.echo(f"{head}: {about}")


@dm_app.command("new", cls=NewMatchHelp)
def new_command(
    ctx: typer.Context,
    name: str = typer.Argument(..., help="A name for the match."),
    game: Optional[str] = typer.Option(None, "--game", help=f"The game: {', '.join(game_names())}."),
    players: list[str] = typer.Option([], "--player", help="A player, in turn order (repeat)."),
    variant: Optional[str] = typer.Option(None, "--variant"),
    seed: int = typer.Option(0, "--seed"),
    option: list[str] = typer.Option([], "--option", help="KEY=VALUE (VALUE is YAML), e.g. dice=gm; every game's "
                                     "options are listed below (and by pbem dm options GAME)."),
    source: Optional[Path] = typer.Option(None, "--from", help="Take the set-up and actions from a transcript."),
    out: Path = OUT,
    as_json: bool = JSON,
) -> None:
    """Start a live death match in the database (or take over a transcript) and show its position."""
    actions: list[Action] = []
    if source is not None:
        transcript = read_or_refuse(read_transcript, source)
        config, actions = transcript.config, list(transcript.actions)
    else:
        if game is None:
            refuse(["give --game (or --from TRANSCRIPT)"], EXIT_USAGE)
        options = {}
        for item in option:
            key, sep, value = item.partition("=")
            if not sep or not key.strip():
                refuse([f"--option takes KEY=VALUE, not {item!r}"], EXIT_USAGE)
            options[key.strip()] = _yaml_value(value, f"--option {key.strip()}")
        if GM in players:
            refuse([f"{GM!r} is the game master, not a player"])
        config = Config(game, tuple(players), variant, options, seed)
    bad_names = [f"{kind} name {text!r}: use {NAME_RULE}" for kind, text in
                 [("match", name), *(("player", p) for p in config.players)] if not valid_name(text)]
    if bad_names:
        refuse(bad_names)
    try:
        rules = get_game(config.game)
        if source is None:  # a transcript taken over keeps its options: an older pbem's plays as it was played
            config = replace(config, options=new_options(rules.options, config.options))
        state = rules.new_state(config)
    except SetupError as err:
        refuse([f"{field}: {message}" for field, message in err.problems])
    except (KeyError, ValueError) as err:
        refuse([str(err.args[0])])
    from ..gm.newmatch import new_match  # no ORM: the match's rows are written with plain SQL (#34)
    from ..store.refusal import Refused

    try:
        state, accepted = new_match(db_url(ctx), name, config, state, actions, clock(ctx))
    except Refused as err:
        refuse(err.reasons)
    _publish(name, config, state, accepted, out, as_json)


@dm_app.command("act")
def act_command(
    ctx: typer.Context,
    name: str = typer.Argument(..., help="The match."),
    action_text: str = typer.Argument(..., metavar="ACTION", help="The payload as YAML, e.g. '{move: B2-A2}'."),
    player: str = typer.Option(..., "--player", help="Who acts (GM for deadline extensions)."),
    at: Optional[str] = typer.Option(None, "--at", help="Time stamp (ISO 8601); default: now."),
    out: Path = OUT,
    as_json: bool = JSON,
) -> None:
    """Submit one action: it is checked, recorded (accepted or refused) and the new position shown."""
    from ..gm.matches import act
    from ..store import matches as store

    payload = _yaml_value(action_text, "ACTION")
    if not isinstance(payload, dict) or not payload:
        refuse(["ACTION is a YAML mapping, like '{plant: [R D5]}' or '{roll: 4, move: B2-A2}'"])
    try:
        now = clock(ctx)
        stamp = parse_time(at) if at else now
    except ValueError as err:
        refuse([f"--at: {err}"])
    session, match = _open_match(ctx, name)
    with session:
        row, state = act(session, match, Action(player, payload, stamp), now)
        if row.reason is not None:
            if as_json:
                print_json({"match": match.name, "seq": row.version, "accepted": False, "reason": row.reason})
            refuse([f"refused: {row.reason}"])
        accepted = sum(1 for r in store.moves(session, match) if r.accepted)
        _publish(match.name, store.config_of(match), state, accepted, out, as_json, {"seq": row.version, "accepted": True})


@dm_app.command("show")
def show_command(
    ctx: typer.Context,
    name: str = typer.Argument(..., help="The match."),
    as_json: bool = JSON,
    transcript: bool = typer.Option(False, "--transcript", help="Print the accepted actions as a transcript."),
    out: Path = OUT,
) -> None:
    """The match's position (text, or JSON with every submission, and the PNG), or a replayable transcript."""
    from ..gm.moves import position, submissions
    from ..store.controls import ended

    session, match = _open_match(ctx, name)
    with session:
        config, state, accepted = position(session, match)
        end = ended(session, match)
        if transcript:
            typer.echo(dump_transcript(config, accepted), nl=False)
            return
        if not as_json:
            _publish(match.name, config, state, len(accepted), out, end=end)
            return
        submitted = [{**row, "at": row["at"].isoformat() if row["at"] else None}
                     for row in submissions(session, match)]
        _publish(match.name, config, state, len(accepted), None, True, {"submissions": submitted}, end)


@dm_app.command("site")
def site_command(
    ctx: typer.Context,
    name: str = typer.Argument(..., help="The match."),
    out: Path = typer.Option(Path("site"), "--out", help="The site folder; the page goes to OUT/MATCH/."),
) -> None:
    """The match's page: the position, every action as it arrived (refusals with their reasons) and, for Flower
    Field, the whole list of missed duplicates. (`pbem site --match MATCH` puts it on the campaign site.)"""
    from ..render.site import write_index

    session, match = _open_match(ctx, name)
    with session:
        [page] = site_matches(session, [match.name])
    folder = out / match.name
    folder.mkdir(parents=True, exist_ok=True)
    for file, content in page.files.items():
        (folder / file).write_bytes(content if isinstance(content, bytes) else content.encode("utf-8"))
    write_index(out, [{**page.entry, "href": f"{match.name}/index.html"}])
    typer.echo(f"{folder / 'index.html'}")


def site_matches(session: Session, names: list[str], templates: Any = ()) -> list[Any]:
    """The site pages of the named matches (`all`: every match), in name order; an unknown name is refused."""
    from ..gm.matchview import closing_text
    from ..gm.moves import position, submissions
    from ..render.dm_page import Closing, site_match
    from ..store import matches as store
    from ..store.controls import ended

    found = store.all_matches(session)
    known = {match.name for match in found}
    unknown = [name for name in names if name != "all" and name not in known]
    if unknown:
        refuse([f"no death match named {name!r}" for name in unknown])
    chosen = [match for match in found if "all" in names or match.name in names]
    pages = []
    for match in chosen:
        end = ended(session, match)  # the GM's end (`pbem game end`): the page and its feed say it
        closing = Closing(end.winner, closing_text(match.name, end), end.at) if end is not None else None
        pages.append(site_match(match.name, store.config_of(match), position(session, match)[1],
                                submissions(session, match), templates, closing))
    return pages


@dm_app.command("list")
def list_command(ctx: typer.Context, as_json: bool = JSON) -> None:
    """Every match in the database: game, players, who must act, the running deadline, the result."""
    from ..dm.clock import when
    from ..gm.moves import position
    from ..store import matches as store
    from ..store.controls import ended
    from .gm import open_store

    documents: list[dict[str, Any]] = []
    with open_store(ctx, read_only=True) as opened, opened.session() as session:
        for match in store.all_matches(session):
            config, state, accepted = position(session, match)
            rules, end = get_game(config.game), ended(session, match)  # the GM's end (`pbem game end`) stops it
            deadline = rules.deadline(state) if end is None else None
            result = rules.result(state)
            documents.append({"match": match.name, "game": config.game, "players": list(config.players),
                              "actions": len(accepted), "over": result.over or end is not None,
                              "winner": end.winner if end is not None else result.winner,
                              "waiting": deadline.waiting if deadline else None,
                              "deadline": deadline.at.isoformat() if deadline else None,
                              "deadline_text": when(deadline.at) if deadline else None,
                              "for_gm": next((f"{p} is {rules.waiting(state, p)}" for p in config.players
                                              if end is None and rules.waiting(state, p)), None)})
    if as_json:
        print_json(documents)
        return
    for d in documents:
        state = (f"won by {d['winner']}" if d["winner"] else "over") if d["over"] else (
            f"due {d['deadline_text']}" + (f" from {d['waiting']}" if d["waiting"] else "") if d["deadline"]
            else d["for_gm"] or "open")
        typer.echo(f"{d['match']:<16} {d['game']:<12} {' v '.join(d['players']):<24} {d['actions']:>4} actions  {state}")
    typer.echo(f"{len(documents)} match(es)", err=True)


MAILDIR = typer.Option(None, "--maildir", help="Read new mail from this Maildir first (as pbem run).")
MBOX = typer.Option(None, "--mbox", help="Read new mail from this mbox file first (as pbem run).")


@dm_app.command("roll")
def roll_command(
    ctx: typer.Context,
    name: str = typer.Argument(..., help="The match (a game with the GM's dice)."),
    roll: int = typer.Argument(..., help="The die, 1 to 6."),
    config_path: Optional[Path] = MAIL_CONFIG,
    maildir: Optional[Path] = MAILDIR,
    mbox: Optional[Path] = MBOX,
    out: Path = OUT,
    as_json: bool = JSON,
) -> None:
    """Enter the GM's roll for the player to move, whose turn (and clock) starts now (RULES D5); mail received
    before now is read first, and the players who play by mail are sent the position."""
    _gm_act(ctx, name, {"roll": roll}, config_path, maildir, mbox, out, as_json)


@dm_app.command("extend")
def extend_command(
    ctx: typer.Context,
    name: str = typer.Argument(..., help="The match."),
    seconds: int = typer.Argument(..., help="How many seconds later the running deadline passes."),
    config_path: Optional[Path] = MAIL_CONFIG,
    maildir: Optional[Path] = MAILDIR,
    mbox: Optional[Path] = MBOX,
    out: Path = OUT,
    as_json: bool = JSON,
) -> None:
    """The GM extends the running deadline (RULES D5, recorded), after reading the mail received before now;
    players who play by mail are told. A deadline that has passed already is applied instead, and the command
    says so (exit 1)."""
    _gm_act(ctx, name, {"extend": seconds}, config_path, maildir, mbox, out, as_json)


@dm_app.command("timeout")
def timeout_command(
    ctx: typer.Context,
    name: str = typer.Argument(..., help="The match."),
    config_path: Optional[Path] = MAIL_CONFIG,
    maildir: Optional[Path] = MAILDIR,
    mbox: Optional[Path] = MBOX,
    out: Path = OUT,
    as_json: bool = JSON,
) -> None:
    """The GM closes the running deadline now, with the effect the game's rules give it, after reading the mail
    received before now; players are told."""
    _gm_act(ctx, name, {"timeout": True}, config_path, maildir, mbox, out, as_json)


def _gm_act(ctx: typer.Context, name: str, payload: dict[str, Any], config_path: Path | None,
            maildir: Path | None, mbox: Path | None, out: Path, as_json: bool) -> None:
    """Read the inbox, act, send (RULES D5 ruling: mail that reached the server before the command counts first)."""
    from ..gm.matches import gm_command, read_inbox, send_now
    from ..mail.config import load_config
    from ..store import matches as store
    from .gm import RUN_WAIT, holding_run_lock, open_store

    now = clock(ctx)
    mail = read_or_refuse(load_config, config_path)
    # the inbox read and the outbox sent as `pbem run` does them: one at a time per database
    with open_store(ctx) as opened, holding_run_lock(ctx, RUN_WAIT), opened.session() as session:
        handled, unread = read_inbox(session, mail, now, maildir, mbox)
        if unread is not None:  # acting now could put the command before mail that reached the server first
            refuse([f"{unread}: nothing done (mail received before this command counts first, RULES D5); "
                    "try again when the inbox can be read"])
        done = gm_command(session, name, payload, now, mail.sender)
        sent = send_now(session, mail, now)
        match = store.find_match(session, name)
        accepted = sum(1 for row in store.moves(session, match) if row.accepted) if match else 0
    read = [f"read first: {h.outcome} {h.sender or '(no sender)'} {h.player or ''}".rstrip() for h in handled]
    mailing = "nobody plays this match by mail" if not done.mailed else f"mailed {', '.join(done.mailed)}" + (
        f" ({sent} sent)" if sent is not None else
        " (queued: no SMTP server is configured; they go with the next pbem run or pbem mail send)")
    extra = {"seq": done.seq, "accepted": done.reason is None, "mailed": done.mailed, "sent": sent, "read": read}
    if done.reason is not None:
        if as_json:
            print_json({"match": name, "reason": done.reason, **extra})
        refuse(read + [f"refused: {done.reason}", mailing])
    assert match is not None  # gm_command refuses a match that does not exist
    _publish(match.name, done.config, done.state, accepted, out, as_json, extra)
    if not as_json:
        for line in read + [mailing]:
            typer.echo(line, err=True)


@dm_app.command("tick")
def tick_command(
    ctx: typer.Context,
    names: list[str] = typer.Argument(None, help="Matches (default: every match)."),
    config_path: Optional[Path] = MAIL_CONFIG,
    as_json: bool = JSON,
) -> None:
    """Let every deadline that has passed take effect, with nobody acting (RULES D5), and mail the players."""
    from ..gm.matches import tick
    from ..mail.config import load_config
    from .gm import open_store

    now = clock(ctx)
    mail = read_or_refuse(load_config, config_path) if config_path else load_config(None)
    with open_store(ctx) as opened, opened.session() as session:
        documents = tick(session, now, mail.sender, names or None)
    if as_json:
        print_json(documents)
        return
    for d in documents:
        typer.echo(f"{d['match']}: " + "; ".join(d["passed"]))
    typer.echo(f"{len(documents)} match(es) moved on", err=True)
