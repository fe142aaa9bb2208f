"""`pbem report`, `pbem site`, `pbem room render`: what players read."""
from __future__ import annotations

from pathlib import Path

import typer

from ..engine.elements import new_board
from ..formats.rooms import read_room
from ..formats.yamlfile import FormatError
from ..render.board import position_png
from ..render.model import Position
from .common import EXIT_REFUSED, print_json
from .room import room_app


@room_app.command("render")
def render_room(
    file: Path = typer.Argument(..., help="A room file (YAML)."),
    out: Path = typer.Option(..., "--out", help="The PNG file to write."),
    as_json: bool = typer.Option(False, "--json", help="Print {file, out, bytes} as JSON."),
) -> None:
    """Draw a room as it stands at the start of a game (every element in its starting state)."""
    try:
        room = read_room(file)
    except FormatError as err:
        for problem in err.problems:
            typer.echo(str(problem), err=True)
        raise typer.Exit(EXIT_REFUSED)
    board = new_board(room)
    data = position_png(Position.of(room, board))
    out.parent.mkdir(parents=True, exist_ok=True)
    out.write_bytes(data)
    if as_json:
        print_json({"file": str(file), "out": str(out), "bytes": len(data)})
    else:
        typer.echo(str(out))
