"""The `pbem` process (`python -m pbem` and the installed command), as opposed to `pbem.cli.main` called in an
interpreter that lives on (the tests).

A command lives about a second and keeps nearly everything it makes: the ~90,000 objects of its imports. The
collector's default of a young collection every 700 allocations spent ~30 ms of CPU per command scanning them
(`game list`: 0.56 s of CPU with the default, 0.53 s without those scans), so the process collects young objects
only every 200,000 allocations: more than a short command's imports make (`dm new` makes ~128,000; at 50,000 its two
young collections scanned them all for ~30 ms of its ~0.35 s, #34), while a long command is still collected (`pbem
demo` peaks at the same 120 MB with either).

Its dataclasses' methods are compiled once and kept in the cache folder (`cli/dataclass_code.py`, ~40 ms of a due
tick's imports). Nor does the process take those objects apart one by one when it ends: once the command is done,
its exit functions have run and its output is flushed, it ends at once (`_end`), skipping the interpreter's teardown
(~14 ms of a due tick's ~0.6 s of CPU, #36). The store's engines are disposed by then (`cli.gm.open_store`), so no
database connection is left to the operating system to close.
"""
from __future__ import annotations

import atexit
import gc
import os
import sys
import threading
from typing import NoReturn


def main() -> None:
    start()
    from .cli import main as run_command

    try:
        run_command()
    except SystemExit as done:
        _end(done.code)
    _end(0)


def start() -> None:
    """How a pbem process starts, before its command's imports, and each worker of `pbem run --jobs N` (spawned
    processes, `cli.workers`): young objects collected every 200,000 allocations, the dataclasses' code kept."""
    gc.set_threshold(200_000)
    from .cli.dataclass_code import keep_dataclass_code

    keep_dataclass_code()


def _end(code: object) -> NoReturn:
    """End the process with the exit `code` without its teardown, after what ending would have done that matters:
    the exit functions and the flushed output. Anything out of the ordinary ends the ordinary way: a code that is not a
    number (Python prints it), a thread still running (Python waits for it), output that cannot be flushed (a closed
    pipe: Python reports it)."""
    code = 0 if code is None else code
    if not isinstance(code, int) or threading.active_count() > 1:
        raise SystemExit(code)
    atexit._run_exitfuncs()  # and forgets them: the ordinary way below would not run them twice
    try:
        sys.stdout.flush()
        sys.stderr.flush()
    except (OSError, ValueError):
        raise SystemExit(code) from None
    os._exit(code)


if __name__ == "__main__":
    main()
