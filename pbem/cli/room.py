"""`pbem room …`: check room files (and, from render, draw them)."""
from __future__ import annotations

from pathlib import Path
from typing import List, Optional

import typer

from ..formats.rooms import check_room_data, entry_fee_problems, is_entry_fee_size
from ..formats.yamlfile import FormatError, read_yaml_file
from .common import EXIT_OK, EXIT_REFUSED, print_json, sub_app

room_app = sub_app("room", "Check and draw room files.")


def room_file_problems(path: Path, entry_fee: Optional[bool]) -> list:
    """Every problem of one room file (RULES G8 too when `entry_fee`, or when None and the board is 7x7)."""
    try:
        data = read_yaml_file(path)
    except FormatError as err:
        return err.problems
    room, problems = check_room_data(data, str(path))
    if room is not None and (entry_fee or (entry_fee is None and is_entry_fee_size(room))):
        problems += entry_fee_problems(room)
    return problems


@room_app.command("check")
def check(
    files: List[Path] = typer.Argument(..., help="Room files (YAML)."),
    entry_fee: Optional[bool] = typer.Option(
        None, "--entry-fee/--no-entry-fee",
        help="Also apply RULES G8 (7x7 size, a start that can move and reach every flag, not plain floor, "
             "every switch or eye controlling something). Default: only for 7x7 boards."),
    as_json: bool = typer.Option(False, "--json", help="One JSON document: each file with the list of its problems."),
) -> None:
    """Check room files; list every reason a file is refused (exit 1 if any is)."""
    results = {str(path): room_file_problems(path, entry_fee) for path in files}
    if as_json:
        print_json({name: [str(p) for p in problems] for name, problems in results.items()})
    else:
        for name, problems in results.items():
            typer.echo(f"{'REFUSED' if problems else 'OK'} {name}")
            for problem in problems:
                typer.echo(f"  {problem}")
    raise typer.Exit(EXIT_REFUSED if any(results.values()) else EXIT_OK)
