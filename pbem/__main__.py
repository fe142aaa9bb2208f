"""The `pbem` process (`python -m pbem` and the installed command), as opposed to `pbem.cli.main` called in an
interpreter that lives on (the tests).

A command lives about a second and keeps nearly everything it makes: the ~90,000 objects of its imports. The
collector's default of a young collection every 700 allocations spent ~30 ms of CPU per command scanning them
(`game list`: 0.56 s of CPU with the default, 0.53 s without those scans), so the process collects young objects
only every 200,000 allocations: more than a short command's imports make (`dm new` makes ~128,000; at 50,000 its two
young collections scanned them all for ~30 ms of its ~0.35 s, #34), while a long command is still collected (`pbem
demo` peaks at the same 120 MB with either).
"""
from __future__ import annotations

import gc


def main() -> None:
    gc.set_threshold(200_000)
    from .cli import main as run_command

    run_command()


if __name__ == "__main__":
    main()
