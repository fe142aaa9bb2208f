"""`pbem gyulbot solve|generate`: proven-minimal solutions and puzzles of a requested minimum."""
from __future__ import annotations

import time
from pathlib import Path
from typing import Any, Optional

import typer

from .common import EXIT_REFUSED, MAX_NODES, TIMEOUT, limit_text, print_json, read_each, solver_timer, sub_app

MAX_MOVES = 40  # the solver's own limit, pbem.dm.gyulbot.solver.MAX_MOVES (its package loads pbem.dm: not for --help)
gyulbot_app = sub_app("gyulbot", "Solve and generate Gyulbot puzzles.")


@gyulbot_app.command("solve")
def solve(
    puzzles: list[Path] = typer.Argument(..., help="Puzzle files (YAML or JSON)."),
    max_moves: int = typer.Option(MAX_MOVES, "--max-moves", min=1, max=63, help="Give up beyond this many moves."),
    timeout: float = TIMEOUT,
    max_nodes: Optional[int] = MAX_NODES,
    as_json: bool = typer.Option(False, "--json", help="Print one JSON document."),
) -> None:
    """Print each puzzle's proven-minimal solution (moves: null when none within --max-moves)."""
    from ..dm.gyulbot.board import format_solution
    from ..dm.gyulbot.solver import solve as solve_puzzle
    from ..dm.limits import NoProof
    from ..formats.gyulbot import read_puzzle
    from .warm import warm

    results: list[dict[str, Any]] = []
    warm("gyulbot")
    for path, puzzle in read_each(puzzles, read_puzzle, results, key="errors"):
        started = time.perf_counter()
        try:
            with solver_timer(timeout) as stop:
                moves, unproven = solve_puzzle(puzzle, max_moves, max_nodes, stop), None
        except NoProof as err:
            moves, unproven = None, limit_text(err, timeout, max_nodes)
        seconds = round(time.perf_counter() - started, 3)
        results.append({"file": str(path), "moves": None if moves is None else len(moves),
                        "solution": None if moves is None else format_solution(puzzle, moves), "seconds": seconds}
                       | ({"unproven": unproven} if unproven else {}))
    if as_json:
        print_json(results)
    else:
        for result in results:
            if "errors" in result:
                for error in result["errors"]:
                    typer.echo(error, err=True)
            elif "unproven" in result:
                typer.echo(f"{result['file']}: {result['unproven']} ({result['seconds']} s)")
            elif result["moves"] is None:
                typer.echo(f"{result['file']}: no solution within {max_moves} moves ({result['seconds']} s)")
            else:
                typer.echo(f"{result['file']}: {result['moves']} moves: {result['solution']} ({result['seconds']} s)")
    if any("errors" in result or "unproven" in result for result in results):
        raise typer.Exit(EXIT_REFUSED)


@gyulbot_app.command("generate")
def generate(
    moves: int = typer.Option(..., "--moves", min=1, max=30, help="The proven minimum the puzzle must have."),
    seed: int = typer.Option(0, "--seed", help="Same seed, same puzzle."),
    size: int = typer.Option(16, "--size", min=6, max=32, help="Board side."),
    out: Optional[Path] = typer.Option(None, "--out", help="Write the puzzle here instead of to stdout."),
    as_json: bool = typer.Option(False, "--json", help="Print one JSON document (the puzzle, its minimum and a "
                                 "solution)."),
) -> None:
    """Make a puzzle (4 robots, coloured goal) whose minimum is exactly --moves, and prove it."""
    from ..dm.gyulbot.board import format_solution
    from ..dm.gyulbot.generator import generate as generate_puzzle
    from ..dm.gyulbot.solver import solve as solve_puzzle
    from ..engine.rng import derive_rng
    from ..formats.gyulbot import puzzle_data
    from .warm import warm

    warm("gyulbot")
    puzzle = generate_puzzle(moves, derive_rng(seed, 0, 0, "gyulbot generate", str(moves)), size, size)
    solution = solve_puzzle(puzzle, moves)
    if solution is None:  # the generator made the puzzle to be solved in `moves`: the solver must find it
        raise RuntimeError(f"no {moves}-move solution to the generated puzzle (seed {seed})")
    data = {"name": f"gyulbot {moves}-move puzzle, seed {seed}",
            "notes": f"proven minimum {moves} moves, e.g. {format_solution(puzzle, solution)}",
            **puzzle_data(puzzle)}
    import yaml

    text = yaml.safe_dump(data, sort_keys=False, allow_unicode=True, width=100)
    if out:
        out.write_text(text, encoding="utf-8")
    if as_json:
        print_json({"file": str(out) if out else None, "moves": moves, "seed": seed,
                    "solution": format_solution(puzzle, solution), "puzzle": puzzle_data(puzzle)})
    elif out:
        typer.echo(f"{out}: {data['notes']}", err=True)
    else:
        typer.echo(text, nl=False)
