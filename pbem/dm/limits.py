"""Bounds on the exact solvers, so a huge puzzle ends with "no proof within the limit" instead of searching for
minutes: a node budget, and a stop flag that the caller sets (the command line, on its timer: no clock here).
Without them a search runs until it has its proof, as before."""
from __future__ import annotations

UNLIMITED = 1 << 62  # a node budget no search reaches
CHECK_EVERY = 1023  # the compiled searches look at the stop flag when (nodes & CHECK_EVERY) == 0


class NoProof(Exception):
    """The search reached a limit before it found a shortest solution or proved there is none."""

    def __init__(self, stopped: bool, nodes: int):
        self.stopped, self.nodes = stopped, nodes  # stopped: by the flag (time); else by the node budget
        super().__init__(f"no proof within the limit ({'stopped' if stopped else 'node budget'}, {nodes} nodes)")


def stop_flag() -> bytearray:
    """A flag for `solve(…, stop=flag)`: set flag[0] = True (from another thread) to end the search. The compiled
    searches run without the GIL and read the flag's first byte through the buffer protocol, so a timer thread can
    set it while they run."""
    return bytearray(1)
