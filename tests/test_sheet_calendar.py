"""Issue #35: the turn sheet mail's calendar entry (RFC 5545), read back with `icalendar` as a calendar program
reads it: one alarm per reminder the game sends, and a DTSTAMP that is when the entry was written (the turn's deal,
a stored time passed down), not the deadline."""
from __future__ import annotations

import email
from datetime import datetime, timedelta, timezone
from email import policy

import icalendar
import pytest
from cycle_fixtures import sheets_with_clock
from typer.testing import CliRunner

from pbem.cli import app
from pbem.render.sheet import turn_sheet_message

DEALT = datetime(2026, 12, 1, 12, 0, tzinfo=timezone.utc)


def calendar_of(tmp_path, *schedule: str) -> icalendar.Event:
    """A BotWars game with `schedule`, dealt at DEALT: the VEVENT of ann's sheet mail."""
    db = f"sqlite:///{tmp_path / 'pbem.db'}"
    made = CliRunner().invoke(app, ["--db", db, "--now", "2026-12-01T12:00:00Z", "game", "new", "spring", "--ruleset",
                                    "botwars", "--player", "ann:ann@x.org:Rusty", "--player", "ben:ben@x.org",
                                    "--seed", "3", *schedule])
    assert made.exit_code == 0, made.output
    sheet = next(s for s in sheets_with_clock(db, "spring", DEALT) if s.player == "ann")
    message = email.message_from_bytes(turn_sheet_message(sheet, "Game Master <gm@x.org>").as_bytes(),
                                       policy=policy.default)
    [entry] = [part for part in message.iter_attachments() if part.get_content_type() == "text/calendar"]
    [event] = icalendar.Calendar.from_ical(entry.get_content()).walk("VEVENT")
    return event


def test_one_alarm_per_reminder_and_the_stamp_is_when_it_was_written(tmp_path):
    event = calendar_of(tmp_path, "--deadline", "3d 20:00", "--remind", "24,2")
    due = datetime(2026, 12, 4, 20, 0, tzinfo=timezone.utc)
    assert event.decoded("DTSTART") == due
    assert event.decoded("DTSTAMP") == DEALT != due
    alarms = event.walk("VALARM")
    assert [alarm.decoded("TRIGGER") for alarm in alarms] == [timedelta(hours=-24), timedelta(hours=-2)]
    assert all(alarm["ACTION"] == "DISPLAY" and "orders due in" in alarm["DESCRIPTION"] for alarm in alarms)


@pytest.mark.parametrize(("remind", "hours"), [("24,2", [2]), ("24", []), ("23", [23])])
def test_a_reminder_that_would_come_with_the_sheet_has_no_alarm(tmp_path, remind, hours):
    """With `1d` the deadline is 24 h after the deal: 24 h before it is the deal itself (the game sends no reminder
    with the sheet, nor within the hour after it); 23 h before it is an hour after the sheet."""
    event = calendar_of(tmp_path, "--deadline", "1d", "--remind", remind)
    assert event.decoded("DTSTART") == DEALT + timedelta(days=1)
    assert [-alarm.decoded("TRIGGER") for alarm in event.walk("VALARM")] == [timedelta(hours=h) for h in hours]
