"""A game's schedule (`pbem game set`): when turns are due, when players are reminded, when a turn is processed.

    deadline: 5d            five days after the cards go out, at the same time of day
    deadline: 5d 20:00      five days after the deal, at 20:00 in the game's time zone
    deadline: fri 20:00     the next Friday at 20:00 (at least a day after the deal)
    timezone: Europe/Berlin any IANA zone; times are stored in UTC
    remind: [24, 2]         hours before the deadline, to players who have sent no orders
    process: all-in         as soon as every expected player has orders (else: deadline)
    review: true            a due turn is previewed to the GM and held until `pbem turn approve`
    hold_hours: 12          …or until 12 hours have passed

Every word is checked here, where it enters: a misspelling names the option and the words it takes.
The functions are pure: the time is always given, never read.
"""
from __future__ import annotations

import re
from dataclasses import dataclass, field
from datetime import datetime, time, timedelta, timezone
from enum import StrEnum
from typing import Any
from zoneinfo import ZoneInfo, ZoneInfoNotFoundError

QUIET_AFTER_SHEET = timedelta(hours=1)  # a reminder due sooner after the turn sheet than this falls away
WEEKDAYS = ("mon", "tue", "wed", "thu", "fri", "sat", "sun")
_DAYS = re.compile(r"(\d{1,2})d(?:\s+(\d{1,2}):(\d{2}))?")
_WEEKDAY = re.compile(r"([a-z]{3})[a-z]*\s+(\d{1,2}):(\d{2})")


class ScheduleError(ValueError):
    """A schedule option refused: `option` names it, the message says why."""

    def __init__(self, option: str, message: str):
        self.option = option
        super().__init__(f"{option}: {message}")


class Process(StrEnum):
    """When a due turn is processed: as soon as every expected player has orders, or at the deadline."""

    ALL_IN = "all-in"
    DEADLINE = "deadline"


@dataclass(frozen=True)
class Schedule:
    deadline: str = "5d"
    timezone: str = "UTC"
    remind: tuple[int, ...] = field(default=(24,))
    process: Process = Process.DEADLINE
    review: bool = False  # a due turn is previewed to the GM and held until `pbem turn approve`
    hold_hours: int | None = None  # …or until this many hours have passed (None: until approved)

    def to_data(self) -> dict[str, Any]:
        return {"deadline": self.deadline, "timezone": self.timezone, "remind": list(self.remind),
                "process": self.process.value, "review": self.review, "hold_hours": self.hold_hours}


def parse_schedule(deadline: str = "5d", zone: str = "UTC", remind: tuple[int, ...] | list[int] = (24,),
                   process: str = Process.DEADLINE, review: bool = False, hold_hours: int | None = None) -> Schedule:
    """A checked schedule; ScheduleError names the first option refused."""
    text = " ".join(str(deadline).strip().lower().split())
    days = _DAYS.fullmatch(text)
    weekly = _WEEKDAY.fullmatch(text)
    if days:
        if not 1 <= int(days[1]) <= 60:
            raise ScheduleError("--deadline", "between 1 and 60 days after the deal")
        _clock(days[2], days[3])
    elif weekly:
        if weekly[1] not in WEEKDAYS:
            raise ScheduleError("--deadline", f"{weekly[1]!r} is not a weekday ({', '.join(WEEKDAYS)})")
        _clock(weekly[2], weekly[3])
        text = f"{weekly[1]} {int(weekly[2]):02d}:{weekly[3]}"
    else:
        raise ScheduleError("--deadline", f"{deadline!r}: write days after the deal (5d, or 5d 20:00) or a weekday "
                                          "and time (fri 20:00)")
    try:
        ZoneInfo(zone)
    except (ZoneInfoNotFoundError, ValueError, OSError):  # OSError: a name too long for a file name
        raise ScheduleError("--timezone", f"{zone!r} is not a time zone (like UTC or Europe/Berlin)") from None
    hours = tuple(sorted({int(h) for h in remind}, reverse=True))
    if any(h <= 0 for h in hours):
        raise ScheduleError("--remind", "hours before the deadline, each more than 0")
    longest = int(days[1]) * 24 if days else 24
    if hours and hours[0] > longest:
        raise ScheduleError("--remind", f"{hours[0]} hours before the deadline is before the cards go out "
                                        f"(a turn lasts at least {longest} hours)")
    if process not in tuple(Process):
        raise ScheduleError("--process", f"{process!r}: one of {', '.join(Process)}")
    if hold_hours is not None and (not review or not 1 <= hold_hours <= 24 * 14):
        raise ScheduleError("--hold", "hours (1 to 336) that a reviewed turn waits for the GM; needs --review")
    return Schedule(text, zone, hours, Process(process), review, hold_hours)


def schedule_of(data: dict[str, Any]) -> Schedule:
    return parse_schedule(data["deadline"], data["timezone"], data["remind"], data["process"],
                          data.get("review", False), data.get("hold_hours"))


def _clock(hour: str | None, minute: str | None) -> time | None:
    if hour is None:
        return None
    if not (0 <= int(hour) <= 23 and 0 <= int(minute or 0) <= 59):
        raise ScheduleError("--deadline", f"{hour}:{minute} is not a time of day")
    return time(int(hour), int(minute or 0))


def due_after(schedule: Schedule, dealt_at: datetime) -> datetime:
    """When a turn dealt at `dealt_at` is due (UTC)."""
    zone = ZoneInfo(schedule.timezone)
    local = dealt_at.astimezone(zone)
    days = _DAYS.fullmatch(schedule.deadline)
    if days:
        at = _clock(days[2], days[3])
        due = local + timedelta(days=int(days[1]))
        if at is not None:
            due = datetime.combine(due.date(), at, zone)
    else:
        weekly = _WEEKDAY.fullmatch(schedule.deadline)
        at = _clock(weekly[2], weekly[3]) if weekly else None
        assert weekly is not None and at is not None  # parse_schedule accepts these two forms only
        due = datetime.combine(local.date(), at, zone)
        while due.weekday() != WEEKDAYS.index(weekly[1]) or due - local < timedelta(days=1):
            due += timedelta(days=1)
            due = datetime.combine(due.date(), at, zone)
    return due.astimezone(timezone.utc)


def reminders_of(schedule: Schedule, dealt_at: datetime, due_at: datetime) -> tuple[int, ...]:
    """The reminders (hours before the deadline) a turn dealt at `dealt_at` and due at `due_at` sends: one due less
    than an hour after its turn sheet went out falls away (a player just mailed their sheet needs no nudge)."""
    return tuple(h for h in schedule.remind if due_at - timedelta(hours=h) >= dealt_at + QUIET_AFTER_SHEET)


def fallen_reminders(schedule: Schedule) -> list[str]:
    """Which reminders fall away, and when, in words (see `reminders_of`): every turn lasts exactly N days under
    `Nd`; `Nd HH:MM` lasts more than N-1 days, a weekday deadline more than one."""
    days = _DAYS.fullmatch(schedule.deadline)
    shortest = int(days[1]) * 24 - (24 if days[2] else 0) if days else 24
    quiet = int(QUIET_AFTER_SHEET.total_seconds() // 3600)
    why = "it would come less than an hour after the turn sheet"
    if days and not days[2]:
        return [f"the {h} h reminder falls away: a turn lasts {shortest} hours, so {why}"
                for h in schedule.remind if h + quiet > shortest]
    return [f"the {h} h reminder falls away in a turn shorter than {h + quiet} hours (one dealt close to its "
            f"deadline): {why}" for h in schedule.remind if h + quiet > shortest]


def due_text(due: datetime, zone: str, own: str | None = None) -> str:
    """'due Friday 28 November, 20:00 UTC' in the game's time zone, as players read it; with the player's `own`
    zone (when it differs), their time too: '… 20:00 UTC (Saturday 29 November, 05:00 JST your time)'."""
    text = f"due {moment_text(due, zone)}"
    if own and own != zone:
        text += f" ({moment_text(due, own)} your time)"
    return text


def moment_text(moment: datetime, zone: str, *, seconds: bool = False) -> str:
    """'Friday 28 November, 20:00 UTC' in the game's time zone (to the second, for a death match's clock)."""
    local = moment.astimezone(ZoneInfo(zone))
    return f"{local:%A} {local.day} {local:%B}, {local:{'%H:%M:%S' if seconds else '%H:%M'}} {local.tzname()}"


def hold_expires(schedule: Schedule, held_at: datetime) -> datetime | None:
    """When a turn held for review since `held_at` is processed without the GM (None: it waits for them)."""
    return None if schedule.hold_hours is None else held_at + timedelta(hours=schedule.hold_hours)


def zone_problem(zone: object) -> str:
    """Why `zone` is not a time zone ('' when it is one): an IANA name such as Europe/Berlin."""
    try:
        ZoneInfo(str(zone))
    except (ZoneInfoNotFoundError, ValueError, TypeError, OSError):  # OSError: a name too long for a file name
        return f"unknown time zone {zone!r} (an IANA name such as Europe/Berlin)"
    return "" if isinstance(zone, str) and zone else "must be a time zone name"
