"""`pbem warm`: load the death-match solvers ahead, with a progress bar, and say each is ready. Their searches are C
extensions that `pip install` compiles, so no first use compiles anything; a checkout never installed has none, and
the solver says how to build it (a missing file, which the command line reports plainly)."""
from __future__ import annotations

import importlib

import typer

from ..games import Solver, entries
from .common import app


def _solvers() -> dict[str, Solver]:
    """The games with a solver, from the registry."""
    return {game.name: game.solver for game in entries() if game.solver is not None}


def warm(name: str) -> None:
    """Load the game's solver before a command's work starts, so a checkout without it is told at once."""
    importlib.import_module(_solvers()[name].module).warm_up()


@app.command("warm")
def warm_command() -> None:
    """Load the death-match solvers now (their searches are compiled when pbem is installed) and say whether each
    is ready."""
    from .gm import progress

    solvers = _solvers()
    with progress() as bar:
        task = bar.add_task("loading the solvers", total=len(solvers))
        for name, solver in solvers.items():
            bar.update(task, description=f"loading {solver.title}")
            warm(name)
            bar.advance(task)
    for solver in solvers.values():
        typer.echo(f"{solver.title}: ready (compiled when pbem was installed)")
