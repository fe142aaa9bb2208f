"""`pbem warm`: compile the numba solvers (Gyulbot, ice maze) ahead, with a progress bar; and the notice a command
gives on stderr before it compiles one on first use, instead of seeming to hang.

numba keeps the compiled code in `__pycache__` (or NUMBA_CACHE_DIR) per signature; a solver counts as compiled
when any of its functions has its cache index there (numba's own file name for it).
"""
from __future__ import annotations

import importlib
from pathlib import Path

import typer

from ..games import Solver, entries
from .common import app


def _solvers() -> dict[str, Solver]:
    """The games with a numba solver, from the registry."""
    return {game.name: game.solver for game in entries() if game.solver is not None}


def compiled(name: str) -> bool:
    """Whether the solver's compiled code is in numba's cache (a guess that errs towards "no")."""
    from numba.core.registry import CPUDispatcher

    module = importlib.import_module(_solvers()[name].kernel)
    for value in vars(module).values():
        if isinstance(value, CPUDispatcher):
            index = getattr(getattr(getattr(value, "_cache", None), "_cache_file", None), "_index_path", None)
            if index and Path(index).exists():
                return True
    return False


def warm(name: str) -> None:
    """Load the solver's compiled code; when it must be compiled first, say so on stderr before it starts."""
    solver = _solvers()[name]
    if not compiled(name):
        typer.echo(f"Compiling {solver.title} once for this installation (about {solver.compile_seconds} s of CPU; "
                   f"later runs load it in under a second; `pbem warm` does this ahead)…", err=True)
    importlib.import_module(solver.module).warm_up()


@app.command("warm")
def warm_command() -> None:
    """Compile the death-match solvers now (once per installation), so no later command waits for it."""
    from .gm import progress

    solvers = _solvers().values()
    with progress() as bar:
        task = bar.add_task("compiling the solvers", total=len(solvers))
        for solver in solvers:
            bar.update(task, description=f"compiling {solver.title}")
            importlib.import_module(solver.module).warm_up()
            bar.advance(task)
    typer.echo(", ".join(solver.title for solver in solvers) + ": compiled and cached")
