"""`pbem warm`: load the death-match solvers ahead, compiling those numba compiles on first use, with a progress
bar; and the notice a command gives on stderr before it compiles one, instead of seeming to hang. A solver built
when pbem was installed (a C extension, as the Gyulbot solver's) has nothing to compile: it is ready.

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
    """The games with a solver, from the registry."""
    return {game.name: game.solver for game in entries() if game.solver is not None}


def compiled(name: str) -> bool:
    """Whether the solver's compiled code is there: built at install, or in numba's cache (a guess that errs
    towards "no")."""
    kernel = _solvers()[name].kernel
    if kernel is None:
        return True
    from numba.core.registry import CPUDispatcher

    module = importlib.import_module(kernel)
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
    """Load the death-match solvers now, compiling any that numba compiles on first use (once per installation),
    so no later command waits for it."""
    from .gm import progress

    solvers = _solvers().values()
    with progress() as bar:
        task = bar.add_task("loading the solvers", total=len(solvers))
        for solver in solvers:
            bar.update(task, description=f"{'loading' if solver.kernel is None else 'compiling'} {solver.title}")
            importlib.import_module(solver.module).warm_up()
            bar.advance(task)
    for built, words in ((True, "ready (compiled when pbem was installed)"), (False, "compiled and cached")):
        titles = [solver.title for solver in solvers if (solver.kernel is None) == built]
        if titles:
            typer.echo(", ".join(titles) + f": {words}")
