"""`pbem turn …`: deal, submit, check, status, process, rollback."""
from __future__ import annotations

from dataclasses import asdict, fields, replace
from pathlib import Path
from typing import TYPE_CHECKING, Any, List, Optional

import typer

from .common import EXIT_OK, EXIT_REFUSED, clock, print_json, refuse, sub_app
from .gm import open_store

if TYPE_CHECKING:
    from ..store.turns import TurnSheet

turn_app = sub_app("turn", "Run a game's turn cycle: deal, collect orders, process, roll back.")


@turn_app.command("deal")
def deal(ctx: typer.Context, game: str = typer.Argument(..., help="The game's name."),
         out: Path = typer.Option(Path("sheets"), "--out", help="Where to write the turn sheets."),
         as_json: bool = typer.Option(False, "--json", help="Print the turn sheets as JSON.")) -> None:
    """Deal the current turn's hands (once; again just rewrites the sheets) and write every player's turn sheet."""
    from ..formats.game import turn_folder_name
    from ..gm import cycle
    from ..gm.reports import campaign_templates, write_sheets

    with open_store(ctx) as store, store.session() as session:
        turn, sheets = cycle.deal(session, game)
    try:
        written = write_sheets(sheets, out, templates=campaign_templates())
    except OSError as err:
        refuse([f"{game} turn {turn} is dealt, but its turn sheets could not be written to "
                f"{err.filename or out / game / turn_folder_name(turn)}: {err.strerror or err}. Nothing is lost: "
                f"free the space or fix the folder, then again (it deals nothing twice): pbem turn deal {game} "
                f"--out {out}"])
    if as_json:
        print_json({"game": game, "turn": turn, "sheets": [_sheet_data(s) for s in sheets],
                    "files": [str(p) for p in written]})
    else:
        typer.echo(f"{game}: turn {turn} dealt; {len(sheets)} turn sheets in {out / game / turn_folder_name(turn)}")
        for sheet in sheets:
            for holder, cards in sheet.hands.items():
                typer.echo(f"  {holder}: {' '.join(cards)}")


def _read_files(files: list[Path]) -> list[tuple[str, bytes]]:
    from ..formats.yamlfile import FormatError, read_limited

    read, problems = [], []
    for path in files:
        try:
            read.append((str(path), read_limited(path)))
        except FormatError as err:
            problems += [str(p) for p in err.problems]
    if problems:
        refuse(problems)
    return read


def _submit(ctx: typer.Context, game: str, files: list[Path], as_json: bool, store_orders: bool) -> None:
    from ..gm import cycle
    from ..gm.texts import submission_text

    with open_store(ctx) as store, store.session() as session:
        results = cycle.submit(session, game, _read_files(files), store=store_orders, at=clock(ctx))
    if as_json:
        print_json([asdict(r) for r in results])
    else:
        for result in results:
            typer.echo(submission_text(result))
    raise typer.Exit(EXIT_OK if all(r.accepted for r in results) else EXIT_REFUSED)


@turn_app.command("submit")
def submit(ctx: typer.Context, game: str = typer.Argument(..., help="The game's name."),
           files: List[Path] = typer.Argument(..., help="Order files (or pasted turn sheets)."),
           as_json: bool = typer.Option(False, "--json", help="Print the results as JSON.")) -> None:
    """Accept order files: print each normalised program, or every problem (exit 1; a refused file stores nothing).

    A new submission replaces the player's earlier one for the turn; every version is kept (RULES B4.7).
    """
    _submit(ctx, game, files, as_json, store_orders=True)


@turn_app.command("check")
def check(ctx: typer.Context, game: str = typer.Argument(..., help="The game's name."),
          files: List[Path] = typer.Argument(..., help="Order files (or pasted turn sheets)."),
          as_json: bool = typer.Option(False, "--json", help="Print the results as JSON.")) -> None:
    """Check order files exactly as `submit` does, storing nothing."""
    _submit(ctx, game, files, as_json, store_orders=False)


@turn_app.command("status")
def status(ctx: typer.Context, game: str = typer.Argument(..., help="The game's name."),
           as_json: bool = typer.Option(False, "--json", help="Print the status as JSON.")) -> None:
    """Who has sent orders for the current turn, and who has not."""
    from ..store import turns

    with open_store(ctx, read_only=True) as store, store.session() as session:
        result = turns.status(session, game)
    if as_json:
        print_json(asdict(result) | {"waiting_for": result.waiting_for})
        return
    state = "over" if result.over else ("dealt" if result.dealt else "not dealt yet")
    typer.echo(f"{result.game}: turn {result.turn} ({state})")
    for p in result.players:
        if p.latest is not None:
            line = f"orders in (version {p.latest} of {p.versions}, {p.submitted_at})"
        elif not p.expected:
            line = "no robot to program"
        else:
            line = "waiting"
        typer.echo(f"  {p.player:<16} {line}")


def _sheet_data(sheet: TurnSheet) -> dict[str, Any]:
    """A turn sheet as JSON data (its board is drawn on the sheet, not printed)."""
    data = asdict(replace(sheet, board=None))
    del data["board"]
    for moment in ("due_at", "written_at"):
        data[moment] = data[moment].isoformat() if data[moment] else None
    return data


@turn_app.command("process")
def process(ctx: typer.Context, game: str = typer.Argument(..., help="The game's name."),
            preview: bool = typer.Option(False, "--preview", help="Resolve and show the result; store nothing."),
            turn: Optional[int] = typer.Option(None, "--turn", help="Refuse unless this is the current turn."),
            out: Optional[Path] = typer.Option(None, "--out", help="Where the turn's reports go (pages, pictures, "
                                               "each player's email), as OUT/GAME/turn-NNN/. Default: reports/; "
                                               "a preview writes none unless given."),
            as_json: bool = typer.Option(False, "--json", help="Print the result as JSON.")) -> None:
    """Resolve the current turn and store it in one transaction (missing orders: RULES B4.6).

    The turn must have been dealt; a processed turn is never processed again (roll back first).
    """
    from ..gm.reports import campaign_templates, preview_turn, process_turn

    with open_store(ctx) as store, store.session() as session:
        if preview:
            done = preview_turn(session, game, at=clock(ctx), turn=turn, out=out, templates=campaign_templates())
        else:
            done = process_turn(session, game, at=clock(ctx), turn=turn, out=out or Path("reports"),
                                templates=campaign_templates())
    if done.problem:
        refuse([done.problem])
    result, summary = done.result, done.summary
    if as_json:
        print_json({f.name: getattr(result, f.name) for f in fields(result) if f.name not in ("before", "outcome")})
    else:
        typer.echo(summary, nl=False)


@turn_app.command("rollback")
def rollback(ctx: typer.Context, game: str = typer.Argument(..., help="The game's name."),
             to: int = typer.Option(..., "--to", help="The turn to return to: it becomes the next to process."),
             as_json: bool = typer.Option(False, "--json", help="Print the result as JSON.")) -> None:
    """Undo turn N and every later one; orders are kept, so reprocessing gives the same result unless they change."""
    from ..gm import cycle

    with open_store(ctx) as store, store.session() as session:
        undone = cycle.rollback(session, game, to)
    if as_json:
        print_json({"game": game, "turn": to, "undone": undone})
    else:
        typer.echo(f"{game}: {undone} turn(s) undone; turn {to} is next to process")
