"""`pbem room …`: check room files, draw them (a picture, or the room file's ASCII map)."""
from __future__ import annotations

from pathlib import Path
from typing import Any, Callable, List, Optional

import typer

from ..formats.dmpuzzles import puzzle_kind
from ..formats.problems import Problem
from ..formats.roomascii import room_text
from ..formats.roommap import LEGEND_TEXT
from ..formats.rooms import check_room_data, entry_fee_problems, is_entry_fee_size, read_room
from ..formats.yamlfile import FormatError, read_yaml_file
from ..games import PuzzleFile, entry, part
from .common import EXIT_OK, EXIT_REFUSED, print_json, read_or_refuse, refuse, sub_app

room_app = sub_app("room", "Check and draw room files.")


def room_file_problems(path: Path, entry_fee: Optional[bool]) -> tuple[str, list[Problem]]:
    """What the file is (`room`, or a death-match puzzle's game) and every problem with it as that (RULES G8
    too for a room when `entry_fee`, or when None and the board is 7x7)."""
    try:
        data = read_yaml_file(path)
    except FormatError as err:
        return "room", err.problems
    kind = puzzle_kind(data)
    if kind is not None:
        return kind, _puzzle_problems(kind, data, str(path))
    room, problems = check_room_data(data, str(path))
    if room is not None and (entry_fee or (entry_fee is None and is_entry_fee_size(room))):
        problems += entry_fee_problems(room)
    return "room", problems


def _puzzle_problems(kind: str, data: object, source: str) -> list[Problem]:
    read: Callable[[Any, str], Any] = part(_puzzle_file(kind).reader)
    try:
        read(data, source)
    except FormatError as err:
        return err.problems
    return []


def _puzzle_file(game: str) -> PuzzleFile:
    found = entry(game).puzzle_file
    assert found is not None, game  # puzzle_kind names only games with a puzzle file
    return found


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
    kinds, results = {}, {}
    for path in files:
        kinds[str(path)], results[str(path)] = room_file_problems(path, entry_fee)
    if as_json:
        print_json({name: [str(p) for p in problems] for name, problems in results.items()})
    else:
        for name, problems in results.items():
            kind = "" if kinds[name] == "room" else f" ({_puzzle_file(kinds[name]).title}, not a room)"
            typer.echo(f"{'REFUSED' if problems else 'OK'} {name}{kind}")
            for problem in problems:
                typer.echo(f"  {problem}")
    raise typer.Exit(EXIT_REFUSED if any(results.values()) else EXIT_OK)


@room_app.command("render", epilog="\b\n" + LEGEND_TEXT)
def render_room(
    file: Path = typer.Argument(..., help="A room file (YAML)."),
    out: Optional[Path] = typer.Option(None, "--out", help="The PNG file to write (needed without --ascii)."),
    ascii_map: bool = typer.Option(False, "--ascii", help="Print the room as a room file with a `map:` instead "
                                   "(the legend is below); reading it back gives the same room."),
    as_json: bool = typer.Option(False, "--json", help="Print {file, out, bytes} (with --ascii: {file, ascii}) as JSON."),
) -> None:
    """Draw a room as it stands at the start of a game (every element in its starting state)."""
    data = read_or_refuse(read_yaml_file, file)
    kind = puzzle_kind(data)
    if kind is not None:
        refuse([f"{file}: this is a death-match puzzle ({_puzzle_file(kind).title}), not a room: "
                "`pbem room render` draws BotWars and Geek-o rooms"])
    room = read_or_refuse(read_room, file)
    if ascii_map:
        text = room_text(room)
        print_json({"file": str(file), "ascii": text}) if as_json else typer.echo(text, nl=False)
        return
    if out is None:
        raise typer.BadParameter("a PNG file to write, or --ascii to print the map", param_hint="--out")
    from ..engine.elements import new_board
    from ..render.board import position_png
    from ..render.model import Position

    data = position_png(Position.of(room, new_board(room)))
    out.parent.mkdir(parents=True, exist_ok=True)
    out.write_bytes(data)
    if as_json:
        print_json({"file": str(file), "out": str(out), "bytes": len(data)})
    else:
        typer.echo(str(out))
