"""`pbem report`, `pbem site`: what players read."""
from __future__ import annotations

from pathlib import Path
from typing import List, Optional

import typer

from ..formats.game import turn_folder_name
from ..gm.history import game_history
from ..render.html import campaign_templates
from ..render.site import write_site
from ..render.turn import DEFAULT_SENDER, slug
from ..store.games import get_game, processed_turns
from .common import app, print_json, read_or_refuse, refuse
from .gm import open_store, progress

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
    from .shelf import PACKAGE, files_digest

    dirs = _dirs(templates)
    version = f"{PIL.__version__} {read_or_refuse(files_digest, PACKAGE, TEMPLATE_DIR, *map(Path, dirs))}"
    with open_store(ctx, read_only=True) as store, store.session() as session, progress() as bar:
        from ..store.matches import find_match
        from .dm import site_matches

        asked = list(games or [])
        named = [name for name in asked if find_match(session, name) is not None]  # a match named as a game
        campaigns = [name for name in asked if name not in named]
        pages = site_matches(session, [*matches, *named], dirs)
        histories = [game_history(session, name) for name in campaigns]
        shown = campaigns + [page.name for page in pages]
        task = bar.add_task("writing the site", total=sum(len(history.turns) for history in histories))
        try:
            files = write_site(out, histories, dirs, version, pages, lambda: bar.advance(task), base_url or "")
        except OSError as err:
            refuse([f"the site of {', '.join(shown)} could not be written to {err.filename or out}: "
                    f"{err.strerror or err}. Nothing is lost: free the space or fix the folder, then again: "
                    f"pbem site {' '.join(asked)} --out {out}"])
    if as_json:
        print_json({"games": campaigns, "matches": [page.name for page in pages], "index": str(out / "index.html"),
                    "files": [str(f) for f in files]})
    else:
        typer.echo(f"site of {', '.join(shown)} in {out / 'index.html'} ({len(files)} files written)")


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
