"""`pbem warm`: make the death-match solvers ready ahead, with a progress bar: compile the numba ones (Gyulbot), load
the ones `pip install` built (the ice maze, a C extension); and the notice a command gives on stderr before it
compiles one on first use, instead of seeming to hang.

numba keeps the compiled code in `__pycache__` (or NUMBA_CACHE_DIR) per signature; a numba solver counts as
compiled when any of its functions has its cache index there (numba's own file name for it).
"""
from __future__ import annotations

import importlib
import importlib.util
from importlib.machinery import ExtensionFileLoader
from pathlib import Path

import typer

from ..games import Solver, entries
from .common import EXIT_REFUSED, app


def _solvers() -> dict[str, Solver]:
    """The games with a compiled solver, from the registry."""
    return {game.name: game.solver for game in entries() if game.solver is not None}


def built_at_install(name: str) -> bool:
    """Whether the solver's kernel is a C extension, compiled by `pip install` rather than on first use; one that
    is missing counts too (nothing compiles it on first use: its solver says how to build it)."""
    spec = importlib.util.find_spec(_solvers()[name].kernel)
    return spec is None or isinstance(spec.loader, ExtensionFileLoader)


def compiled(name: str) -> bool:
    """Whether the solver's compiled code is ready: built at install, or in numba's cache (a guess that errs
    towards "no")."""
    if built_at_install(name):
        return True
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
    _warm_up(solver)


def _warm_up(solver: Solver) -> None:
    """The solver's warm_up(); a C extension that was never built is refused with how to build it."""
    try:
        importlib.import_module(solver.module).warm_up()
    except ImportError as error:
        typer.echo(f"pbem: {error}", err=True)
        raise typer.Exit(EXIT_REFUSED) from error


@app.command("warm")
def warm_command() -> None:
    """Make the death-match solvers ready now (compiling, once per installation, those not built at install), so
    no later command waits for it."""
    from .gm import progress

    solvers = _solvers()
    with progress() as bar:
        task = bar.add_task("readying the solvers", total=len(solvers))
        for solver in solvers.values():
            bar.update(task, description=f"readying {solver.title}")
            _warm_up(solver)
            bar.advance(task)
    for name, solver in solvers.items():
        typer.echo(f"{solver.title}: " + ("ready (built when pbem was installed)" if built_at_install(name)
                                           else "compiled and cached"))
