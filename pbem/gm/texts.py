"""Plain-text output of the turn cycle: submission results and turn summaries.

Text only, stable for given data (no clock, no secrets), so demo output is
byte-identical between runs.
"""
from __future__ import annotations

from ..engine.events import Event
from ..formats.canonical import to_data
from .cycle import ProcessResult, SubmissionResult


def submission_text(result: SubmissionResult) -> str:
    if not result.accepted:
        return f"REFUSED {result.source}\n" + "\n".join(f"  {problem}" for problem in result.problems)
    head = f"ACCEPTED {result.source}: {result.player}, turn {result.turn}"
    if result.version is not None:
        head += f", version {result.version}"
    lines = [head]
    lines += [f"  {robot}: {' '.join(cards) or '(no cards)'}" for robot, cards in result.programs.items()]
    if result.reboot:
        lines.append(f"  reboot next turn: {', '.join(result.reboot)}")
    if result.option_hp is not None:
        lines.append(f"  option HP: {result.option_hp}")
    return "\n".join(lines)


def event_text(event: Event) -> str:
    data = to_data(event)
    stage, robot = data.pop("stage"), data.pop("robot")
    details = " ".join(f"{key}={value}" for key, value in data.items() if value not in (None, ""))
    where = f"stage {stage}" if stage else "end of turn"
    return f"{where:<12} {robot or '-':<12} {type(event).__name__:<16} {details}".rstrip()


def turn_summary(result: ProcessResult) -> str:
    """The events of a processed turn, board by board, with the hashes."""
    lines = [f"{result.game} turn {result.turn}" + (" (preview, nothing stored)" if result.preview else ""),
             f"state before {result.before_hash}", f"state after  {result.after_hash}",
             f"events       {result.events_hash}"]
    for player, version in result.orders.items():
        lines.append(f"orders {player}: " + (f"version {version}" if version else "missing (RULES B4.6)"))
    for player in result.stale:
        lines.append(f"orders {player}: stored orders no longer fit the hand; treated as missing")
    board = None
    for key, event in result.outcome.events:
        if key != board:
            board = key
            lines += ["", f"[{key}]"]
        lines.append(event_text(event))
    if result.over:
        lines += ["", "The game is over."]
    return "\n".join(lines) + "\n"
