"""`pbem room analyse`: robot pilots rehearse rooms — passable or not, in how many turns, where robots die."""
from __future__ import annotations

from pathlib import Path
from typing import TYPE_CHECKING, List, Optional

import typer

from .common import EXIT_OK, EXIT_REFUSED, print_json, read_or_refuse
from .room import room_app

if TYPE_CHECKING:
    from ..engine.room import Room

@room_app.command("analyse")
def analyse_rooms(
    files: List[Path] = typer.Argument(..., help="Room files (YAML)."),
    seeds: int = typer.Option(5, "--seeds", min=1, help="Runs per room, each dealt differently."),
    turns: int = typer.Option(30, "--turns", min=1, help="Turn limit per run: a room not passed by then is not "
                              "passable in that run."),
    out: Optional[Path] = typer.Option(None, "--out", help="Write each room's heat map as OUT/NAME.png."),
    as_json: bool = typer.Option(False, "--json", help="One JSON document: each file with its figures."),
) -> None:
    """Let robot pilots play each room over several seeds: whether they get through, the turns they need, where
    robots died and why (exit 1 if a room is not passable in every run).

    A room with gates is played as a Geek-o room by two robots that must both leave (G3); a room with flags
    and no gate as a BotWars race, one robot per start square.
    """
    from ..engine.rehearsal import analyse
    from ..formats.decks import read_deck
    from ..formats.rooms import read_room
    from ..render.heatmap import death_squares, heatmap_png
    from ..resources import find_file
    from .gm import progress

    results = {}
    with progress() as bar:
        task = bar.add_task("rehearsing", total=len(files) * seeds)
        analyses = []
        for path in files:
            room = read_or_refuse(read_room, path)
            deck = read_deck(find_file(_deck(room)))
            bar.update(task, description=f"rehearsing {path.name}")
            analyses.append((path, room, analyse(room, deck, seeds=seeds, turn_limit=turns,
                                                 progress=lambda: bar.advance(task))))
    for path, room, analysis in analyses:
        figures = analysis.figures()
        if out is not None:
            out.mkdir(parents=True, exist_ok=True)
            picture = out / f"{path.stem}.png"
            picture.write_bytes(heatmap_png(room, analysis.visits, death_squares(analysis.deaths)))
            figures["heatmap"] = str(picture)
        results[str(path)] = figures
    if as_json:
        print_json(results)
    else:
        for name, figures in results.items():
            typer.echo(f"{name} ({figures['room']}, {figures['mode']}): {figures['verdict']}")
            if figures["passed"]:
                typer.echo(f"  through in {figures['passed']} of {figures['seeds']} runs; turns median "
                           f"{figures['median_turns']}, worst {figures['worst_turns']}")
            for death in figures["deaths"]:
                typer.echo(f"  destroyed at {death['at']} ({death['cause']}): {death['count']}")
            if "heatmap" in figures:
                typer.echo(f"  heat map: {figures['heatmap']}")
    raise typer.Exit(EXIT_OK if all(f["passable"] for f in results.values()) else EXIT_REFUSED)


def _deck(room: Room) -> str:
    """The deck the room is rehearsed with: its game's (BotWars's for a room with neither gate nor flag, which
    is not played)."""
    from ..engine.rehearsal import rehearsal_mode
    from ..games import Kind, entry

    mode = rehearsal_mode(room)
    deck = entry(mode if mode != "none" else "botwars", Kind.CAMPAIGN).deck
    assert deck is not None, mode  # every campaign names its deck
    return deck
