"""One stage of a turn on its own: what the robot pilot simulates (issue #16).

A search that extends programs register by register needs stage k played on the
board after stage k-1. `resolve_turn` would run stages 1..k (idle but for k)
and snapshot each; running stage k's phases once on a copy gives the same board
at a fraction of the cost, and stages 1..n chained give `resolve_turn`'s board
(without its end of turn). The setup is the engine's own (`register_sequence`,
`TurnContext`, `index_for`), so no rule is copied.
"""
from __future__ import annotations

from typing import Mapping, Sequence

from .cards import Card
from .context import TurnContext
from .phases import PHASES, Phase
from .ruleset import Ruleset
from .state import Board
from .turn import last_stage, playing_copy


def play_stage(board: Board, sequences: Mapping[str, Sequence[Card | None]], ruleset: Ruleset, *, seed: int | str,
               turn: int, stage: int, phases: Sequence[Phase] = PHASES) -> Board:
    """The board after stage `stage` of a turn whose earlier stages led to `board` (the input is not
    mutated); `sequences` as `register_sequences` gave them on the turn's first board. Only the board is
    returned, so the stage is not recorded (`TurnContext.record`: a buzzsaw with nobody on it draws nothing)."""
    work, index = playing_copy(board)
    run_stage(TurnContext(work, ruleset, index, seed=seed, turn=turn, sequences=sequences, record=False), stage,
              phases)
    return work


def run_stage(ctx: TurnContext, stage: int, phases: Sequence[Phase] = PHASES) -> None:
    """Stage `stage` on the context's board, in place. As in `resolve_turn`, a stage past every robot's
    register sequence does not happen."""
    if stage > last_stage(ctx.sequences):
        return
    ctx.stage = stage
    for phase in phases:
        phase.run(ctx, phase.name)
