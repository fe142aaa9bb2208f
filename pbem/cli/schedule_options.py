"""The schedule options `pbem game new` and `pbem game set` share: their help, and reading them into a Schedule."""
from __future__ import annotations

from typing import Any, Optional

import typer

from .common import EXIT_USAGE, refuse

HELP = {
    "deadline": "When a turn is due: days after the deal (5d, 5d 20:00) or a weekday and time (fri 20:00).",
    "timezone": "The time zone of the deadline (IANA name).",
    "remind": "Hours before the deadline to remind players who have sent no orders, comma-separated (24,2); "
              "'none' for no reminder.",
    "process": "all-in: process as soon as every expected player has orders; deadline: at the deadline.",
    "review": "Preview a due turn to the GM and hold it until `pbem turn approve`.",
    "hold": "With --review: process anyway after this many hours (default: wait for the GM).",
}


def read_schedule(deadline: str, zone: str, remind: str, process: str, review: bool, hold_hours: Optional[int]) -> Any:
    """The options as a checked Schedule; a bad one ends the command naming it (exit 2)."""
    from ..formats.schedule import ScheduleError, parse_schedule

    try:
        hours = () if remind.strip().lower() == "none" else tuple(int(h) for h in remind.split(",") if h.strip())
        return parse_schedule(deadline, zone, hours, process, review, hold_hours)
    except ValueError as err:
        refuse([str(err) if isinstance(err, ScheduleError) else f"--remind: {remind!r}: whole hours, like 24,2"],
               EXIT_USAGE)


def changed_schedule(current: Any, deadline: Optional[str], zone: Optional[str], remind: Optional[str],
                     process: Optional[str], review: Optional[bool], hold_hours: Optional[int]) -> Any:
    """`current` (a Schedule, or None for the defaults) with only the options given changed, checked as a whole;
    `--no-review` lifts the hold with the review."""
    from ..formats.schedule import Schedule

    base = current or Schedule()
    review = base.review if review is None else review
    hold = hold_hours if hold_hours is not None else (base.hold_hours if review else None)
    hours = remind if remind is not None else (",".join(map(str, base.remind)) or "none")
    return read_schedule(deadline or base.deadline, zone or base.timezone, hours, process or base.process, review,
                         hold)


def schedule_text(game: str, schedule: Any, tail: str = "") -> str:
    """One line saying when the game's turns are due and processed, and whether the GM reviews them first (with
    `tail` at its end); then a line for each reminder that falls away, saying why."""
    from ..formats.schedule import Process, fallen_reminders

    reminders = ", ".join(f"{h} h" for h in schedule.remind) or "none"
    processed = "the deadline" if schedule.process is Process.DEADLINE else "the deadline or when all orders are in"
    review = "off" if not schedule.review else "on, held until pbem turn approve" + (
        f" or {schedule.hold_hours} h" if schedule.hold_hours is not None else "")
    fallen = "".join(f"\n  {why}" for why in fallen_reminders(schedule))
    return (f"{game}: due {schedule.deadline} ({schedule.timezone}), reminders {reminders} before, processed at "
            f"{processed}, review {review}{tail}{fallen}")


def option(name: str, default: Any, flag: str | None = None) -> Any:
    """The typer option `--NAME` with the shared help."""
    return typer.Option(default, flag or f"--{name}", help=HELP[name])
