"""`pbem report`, `pbem site`: what players read."""
from __future__ import annotations

from pathlib import Path
from typing import TYPE_CHECKING, Any, Callable, List, Optional

import typer

from ..formats.game import turn_folder_name
from ..gm.history import game_history
from ..render.html import campaign_templates
from ..render.site import Written, write_site
from ..render.turn import DEFAULT_SENDER, slug
from .common import app, db_url, print_json, read_or_refuse, refuse
from .gm import open_store, progress

if TYPE_CHECKING:
    from ..render.site import GameHistory

TEMPLATES = typer.Option(None, "--templates", help="A folder of templates used before the bundled ones, so a "
                         "GM can restyle the reports (default: the campaign folder's templates/, if any).")


def _dirs(templates: Optional[Path]) -> tuple[str, ...]:
    """The templates asked for, else the campaign folder's own templates/ (as `turn process` uses them)."""
    return (str(templates),) if templates else campaign_templates()


def _turn_folder(out: Path, game: str, turn: int) -> Path:
    """Where a turn's report goes: the site's layout, so `pbem report` and `pbem site` agree."""
    return out / slug(game) / turn_folder_name(turn)


@app.command("report")
def report(
    ctx: typer.Context,
    game: str = typer.Argument(..., help="The game's name."),
    turn: Optional[int] = typer.Option(None, "--turn", help="A processed turn (default: the last one)."),
    out: Path = typer.Option(..., "--out", help="Folder to write into (OUT/GAME/turn-N/)."),
    sender: str = typer.Option(DEFAULT_SENDER, "--from", help="The From: of the emails."),
    templates: Optional[Path] = TEMPLATES,
    as_json: bool = typer.Option(False, "--json", help="Print the files written as JSON."),
) -> None:
    """Write a processed turn's report: its pages and pictures, and each player's email as an .eml file."""
    from ..gm.reports import repair_hint, report_again
    from ..store.games import get_game, processed_turns

    with open_store(ctx, read_only=True) as store, store.session() as session:
        record = get_game(session, game)
        numbers = [t.number for t in processed_turns(session, record)]
        number = turn if turn is not None else (numbers[-1] if numbers else None)
        if number not in numbers:
            refuse([f"{game}: turn {number} has not been processed" if number else f"{game}: no turn processed yet"])
        folder = _turn_folder(out, record.name, number)
        try:  # what turn process or pbem run left owed there is done
            files = report_again(session, record, number, folder, out, sender, _dirs(templates))
        except OSError as err:
            refuse([f"{game} turn {number}: its report could not be written to {err.filename or folder}: "
                    f"{err.strerror or err}. Nothing is lost (the turn is stored): free the space or fix the "
                    f"folder, then again: {repair_hint(game, number, out)}"])
    if as_json:
        print_json({"game": game, "turn": number, "folder": str(folder), "files": [str(f) for f in files]})
    else:
        typer.echo(f"{game}: turn {number} report in {folder} ({len(files)} files)")


@app.command("site")
def site(
    ctx: typer.Context,
    games: List[str] = typer.Argument(None, help="The games to put on the site."),
    out: Path = typer.Option(..., "--out", help="Folder to write the site into."),
    matches: List[str] = typer.Option([], "--match", help="A death match to put on the site, with its result "
                                      "(repeat; `all` for every match)."),
    templates: Optional[Path] = TEMPLATES,
    as_json: bool = typer.Option(False, "--json", help="Print the files written as JSON."),
    base_url: Optional[str] = typer.Option(None, "--base-url", metavar="URL", callback=lambda v: web_address(v),
                                           help="Where the site is on the web (https://example.org/games/): each "
                                           "game's feed then links to its turns by absolute addresses."),
) -> None:
    """Write the static campaign site: an index of the games, their turns, stages and standings, and of the
    death matches given with --match (or named among the games) and their results, each with its Atom feed.

    Only what changed since the last run into OUT is written again (the same files as a full rebuild)."""
    import PIL

    from ..render.html import TEMPLATE_DIR
    from .shelf import PACKAGE, cache_root, files_digest

    dirs = _dirs(templates)
    digest = read_or_refuse(lambda: files_digest(PACKAGE, TEMPLATE_DIR, *map(Path, dirs), memo=cache_root()))
    version = f"{PIL.__version__} {digest}"
    asked = list(games or [])

    def written(histories: list[GameHistory], pages: list[Any]) -> Written:
        shown = [history.name for history in histories] + [page.name for page in pages]
        with progress() as bar:
            task = bar.add_task("writing the site", total=sum(len(history.turns) for history in histories))
            try:
                return write_site(out, histories, dirs, version, pages, lambda: bar.advance(task), base_url or "")
            except OSError as err:
                refuse([f"the site of {', '.join(shown)} could not be written to {err.filename or out}: "
                        f"{err.strerror or err}. Nothing is lost: free the space or fix the folder, then again: "
                        f"pbem site {' '.join(asked)} --out {out}"])

    files, campaigns, pages = None, asked, []
    if not matches:  # campaigns alone: read with plain SQL (sqlite3 for a SQLite file, no SQLAlchemy)
        files = _campaigns_from_rows(db_url(ctx), asked, written)
    if files is None:
        with open_store(ctx, read_only=True) as store, store.session() as session:
            from ..store.due import session_rows
            from ..store.matches import find_match
            from .dm import site_matches

            named = [name for name in asked if find_match(session, name) is not None]  # a match named as a game
            campaigns = [name for name in asked if name not in named]
            pages = site_matches(session, [*matches, *named], dirs)
            rows = session_rows(session)
            files = written([game_history(rows, name) for name in campaigns], pages)
    shown = campaigns + [page.name for page in pages]
    if as_json:
        print_json({"games": campaigns, "matches": [page.name for page in pages], "index": str(out / "index.html"),
                    "files": [str(f) for f in files]})
    else:
        typer.echo(f"site of {', '.join(shown)} in {out / 'index.html'} ({len(files)} files written)")


def _campaigns_from_rows(url: str, names: list[str],
                         write: Callable[[list[GameHistory], list[Any]], Written]) -> Written | None:
    """The site of these campaigns read with plain SQL, or None when the rows cannot say (a database not there or not
    at the newest schema, a name that is not a campaign's): the store then opens it."""
    from contextlib import ExitStack

    from ..store.due import RowReader
    from ..store.played import all_campaigns
    from ..store.refusal import Refused

    reader = ExitStack()
    try:
        rows = reader.enter_context(RowReader(url))
        histories = [game_history(rows, name) for name in names] if all_campaigns(rows, names) else None
    except Exception:  # no such file, a URL that does not open, rows that do not read: the store's path says why
        reader.close()
        return None
    with reader:
        if histories is None:
            return None
        try:
            return write(histories, [])
        except Refused as err:  # a turn's rows missing from the store
            refuse(err.reasons)


def web_address(given: str | None) -> str | None:
    """`--base-url`: an absolute http(s) address, kept as given with one closing slash."""
    from urllib.parse import urlsplit

    if given is None:
        return None
    parts = urlsplit(given.strip())
    if parts.scheme not in ("http", "https") or not parts.netloc or parts.query or parts.fragment:
        raise typer.BadParameter(f"{given!r} is not a web address like https://example.org/games/",
                                 param_hint="--base-url")
    return given.strip().rstrip("/") + "/"
