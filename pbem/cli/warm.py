"""`pbem warm`: compile the numba solvers (Gyulbot, ice maze) ahead, with a progress bar; and the notice a command
gives on stderr before it compiles one on first use, instead of seeming to hang.

numba keeps the compiled code in `__pycache__` (or NUMBA_CACHE_DIR) per signature; a solver counts as compiled
when any of its functions has its cache index there (numba's own file name for it).
"""
from __future__ import annotations

import importlib
from pathlib import Path

import typer

from .common import app

SOLVERS = {  # name -> (module with warm_up(), what the notice calls it, CPU seconds to compile it, measured)
    "gyulbot": ("pbem.dm.gyulbot.solver", "the Gyulbot solver", 9),
    "ice": ("pbem.dm.icemaze.solver", "the ice-maze solver", 5),
}
KERNELS = {"gyulbot": "pbem.dm.gyulbot.solver", "ice": "pbem.dm.icemaze.kernel"}  # the modules with the njit code


def compiled(name: str) -> bool:
    """Whether the solver's compiled code is in numba's cache (a guess that errs towards "no")."""
    from numba.core.registry import CPUDispatcher

    module = importlib.import_module(KERNELS[name])
    for value in vars(module).values():
        if isinstance(value, CPUDispatcher):
            index = getattr(getattr(getattr(value, "_cache", None), "_cache_file", None), "_index_path", None)
            if index and Path(index).exists():
                return True
    return False


def warm(name: str) -> None:
    """Load the solver's compiled code; when it must be compiled first, say so on stderr before it starts."""
    module, words, seconds = SOLVERS[name]
    if not compiled(name):
        typer.echo(f"Compiling {words} once for this installation (about {seconds} s of CPU; later runs load it in "
                   f"under a second; `pbem warm` does this ahead)…", err=True)
    importlib.import_module(module).warm_up()


@app.command("warm")
def warm_command() -> None:
    """Compile the death-match solvers now (once per installation), so no later command waits for it."""
    from .gm import progress

    with progress() as bar:
        task = bar.add_task("compiling the solvers", total=len(SOLVERS))
        for module, words, _ in SOLVERS.values():
            bar.update(task, description=f"compiling {words}")
            importlib.import_module(module).warm_up()
            bar.advance(task)
    typer.echo(", ".join(words for _, words, _ in SOLVERS.values()) + ": compiled and cached")
