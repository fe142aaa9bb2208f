"""See before you send (issue #24): the reply to orders mailed with `preview: true` tells the path of the player's
robots, stage by stage, as the engine rehearsed them (`pbem.gm.preview`). Nothing is stored: it is a rehearsal."""
from __future__ import annotations

from typing import Mapping, Sequence

from ..engine.turn import RobotView, Snapshot
from ..engine.vocabulary import Mode


def rehearsal_text(mine: Sequence[str], programs: Mapping[str, Sequence[str]], snapshots: Sequence[Snapshot]
                   ) -> list[str]:
    """The reply's lines: each of the player's robots (`mine`) with its program, on the boards the rehearsal
    gave (`snapshots`: the start, then after each stage)."""
    lines = ["A REHEARSAL: nothing was stored, and these are not your orders yet.",
             "Your programs on the board as it stands now, every other robot standing still,",
             "every mechanism acting (the turn's end, flags and new cards, is left out):", ""]
    for name in mine:
        views = [next((r for r in snapshot.robots if r.name == name), None) for snapshot in snapshots]
        if views[0] is None:
            continue
        lines.append(f"  {name}: {_where(views[0])}")
        program = programs.get(name, [])
        for stage, after in enumerate(views[1:], start=1):  # the board after stage n is the next one's start
            card = f" ({program[stage - 1]})" if stage <= len(program) else ""
            lines.append(f"    after stage {stage}{card}: {_where(after)}")
    lines += ["", "To give these orders, send the same file without the `preview: true` line."]
    return lines


def _where(view: RobotView | None) -> str:
    if view is None or view.at is None:
        return f"off the board ({view.mode})" if view is not None else "off the board"
    mode = "" if view.mode == Mode.REAL else f", {view.mode}"
    return f"{view.at} facing {view.facing.name}, HP {view.hp}{mode}"
