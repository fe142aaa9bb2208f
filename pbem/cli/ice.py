"""`pbem ice solve|generate|render`: the exact solver, the maze generator and the picture."""
from __future__ import annotations

import time
from pathlib import Path
from typing import Any, Optional

import typer

from ..dm.icemaze import MAX_ORDERS, solve
from ..dm.icemaze.generate import generate as generate_maze
from ..dm.limits import NoProof
from ..engine.geometry import Size
from ..formats.icemaze import maze_yaml, read_maze_file
from .common import (
    EXIT_REFUSED,
    EXIT_USAGE,
    MAX_NODES,
    TIMEOUT,
    limit_text,
    print_json,
    read_each,
    read_or_refuse,
    solver_timer,
    sub_app,
)

ice_app = sub_app("ice", "Solve and generate ice mazes.")


@ice_app.command("solve")
def solve_command(
    mazes: list[Path] = typer.Argument(..., help="Maze files (YAML with a map: of # . G S *)."),
    timeout: float = TIMEOUT,
    max_nodes: Optional[int] = MAX_NODES,
    as_json: bool = typer.Option(False, "--json", help="Print one JSON document."),
) -> None:
    """The proven shortest solution of each maze, or none within 15 orders."""
    from .warm import warm

    reports: list[dict[str, Any]] = []
    warm("ice")
    for path, maze in read_each(mazes, read_maze_file, reports, key="errors", echo=True):
        began = time.perf_counter()
        try:
            with solver_timer(timeout) as stop:
                solution = solve(maze, max_nodes=max_nodes, stop=stop)
            report = {"moves": solution.moves, "solution": solution.orders}
            found = f"{solution.moves} orders {solution.orders}" if solution.orders is not None \
                else f"no solution within {MAX_ORDERS} orders"
        except NoProof as err:
            found = limit_text(err, timeout, max_nodes)
            report = {"moves": None, "solution": None, "unproven": found}
        seconds = round(time.perf_counter() - began, 4)
        reports.append({"file": str(path), **report, "seconds": seconds})
        if not as_json:
            typer.echo(f"{path}: {found} ({seconds:.3f} s)")
    if as_json:
        print_json(reports)
    if any("errors" in report or "unproven" in report for report in reports):
        raise typer.Exit(EXIT_REFUSED)


@ice_app.command("generate")
def generate_command(
    size: str = typer.Option("10x10", "--size", help="ROWSxCOLS, 5x5 to 20x20."),
    moves: int = typer.Option(..., "--moves", help="The exact minimum number of orders, 1 to 15."),
    snoms: int = typer.Option(1, "--snoms", help="How many snoms."),
    seed: int = typer.Option(0, "--seed", help="Same seed, same maze."),
    out: Path | None = typer.Option(None, "--out", help="Write the maze here instead of to stdout."),
    as_json: bool = typer.Option(False, "--json", help="Print one JSON document (the maze, its minimum, a solution)."),
) -> None:
    """A maze whose shortest solution has exactly --moves orders."""
    from .warm import warm

    warm("ice")
    try:
        shape = Size.parse(size)
        maze, solution = generate_maze(shape.rows, shape.cols, moves, snoms, seed)
    except ValueError as err:
        typer.echo(str(err), err=True)
        raise typer.Exit(EXIT_USAGE) from None
    name = f"ice {shape} min {moves} seed {seed}"
    text = maze_yaml(maze, name, f"minimum {solution.moves} orders, for example {solution.orders}")
    if out is not None:
        out.write_text(text, encoding="utf-8")
    if as_json:
        print_json({"file": None if out is None else str(out), "moves": solution.moves, "solution": solution.orders,
                    "seed": seed, "map": maze.to_rows()})
    elif out is None:
        typer.echo(text, nl=False)
    else:
        typer.echo(f"wrote {out}: minimum {solution.moves} orders", err=True)


@ice_app.command("render")
def render_command(
    maze_file: Path = typer.Argument(..., help="A maze file."),
    out: Path = typer.Option(..., "--out", help="The PNG to write."),
    as_json: bool = typer.Option(False, "--json", help="Print one JSON document (the file written, its size)."),
) -> None:
    """A picture of the maze as players see it."""
    from ..render.dm import draw, png_bytes

    maze = read_or_refuse(read_maze_file, maze_file)
    image = draw("ice", {"rows": maze.to_rows(), "title": maze_file.stem})
    out.write_bytes(png_bytes(image))
    if as_json:
        print_json({"file": str(out), "maze": str(maze_file), "width": image.width, "height": image.height})
