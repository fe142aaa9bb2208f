"""A reminder never arrives within an hour of the turn sheet (issue #35): with `--deadline 1d --remind 24,2` the
24-hour reminder fell due the moment the sheet went out, and players got "orders still missing" 20 minutes
after their sheet. It falls away, and `game set` says so and why."""
from __future__ import annotations

import json
from datetime import datetime, timedelta, timezone

import pytest
from test_autopilot import campaign, outbox, run  # noqa: F401 (a fixture)

from pbem.formats.schedule import fallen_reminders, parse_schedule, reminders_of
from pbem.store.due import quiet_status

T0 = datetime(2026, 12, 1, 20, 0, tzinfo=timezone.utc)


def at(hours: float) -> str:
    return (T0 + timedelta(hours=hours)).isoformat()


def test_a_one_day_turn_sends_the_two_hour_reminder_only(campaign, tmp_path):  # noqa: F811
    pbem, _, _, url = campaign
    said = pbem(at(0), "game", "set", "halls", "--deadline", "1d", "--remind", "24,2")
    assert said.exit_code == 0, said.output
    assert "the 24 h reminder falls away: a turn lasts 24 hours, so it would come less than an hour after the " \
           "turn sheet" in " ".join(said.stdout.split())
    assert "2 h reminder" not in said.stdout
    shown = json.loads(pbem(at(0), "game", "set", "halls", "--json").stdout)
    assert shown["reminders_fall_away"] and "24 h" in shown["reminders_fall_away"][0]
    assert run(pbem, at(0), tmp_path) == []  # the clock starts: the sheet's time
    assert quiet_status(url, T0 + timedelta(minutes=20)) is not None  # the cron tick agrees: nothing due
    assert run(pbem, at(1 / 3), tmp_path) == []  # 20 minutes on: no "orders still missing"
    assert run(pbem, at(12), tmp_path) == []
    assert run(pbem, at(22), tmp_path) == [("reminded", "halls", 1)]
    assert len(outbox(url, "reminder")) == 2  # alice and bob, once: the 2-hour reminder


def test_a_two_day_turn_keeps_both_reminders(campaign, tmp_path):  # noqa: F811
    pbem, _, _, url = campaign
    said = pbem(at(0), "game", "set", "halls", "--deadline", "2d", "--remind", "24,2")
    assert "falls away" not in said.stdout
    assert run(pbem, at(0), tmp_path) == []
    assert run(pbem, at(24), tmp_path) == [("reminded", "halls", 1)]
    assert run(pbem, at(46), tmp_path) == [("reminded", "halls", 1)]


@pytest.mark.parametrize("deadline, remind, dealt_hours_before_due, sent", [
    ("1d", (24, 2), 24, (2,)),
    ("1d", (23, 2), 24, (23, 2)),  # 23 h before a 24 h deadline is an hour after the sheet: sent
    ("fri 20:00", (24, 2), 24.5, (2,)),  # dealt 24.5 h before: the 24 h reminder would come 30 min after it
    ("fri 20:00", (24, 2), 72, (24, 2)),
])
def test_which_reminders_a_turn_sends(deadline, remind, dealt_hours_before_due, sent):
    schedule = parse_schedule(deadline, "UTC", remind)
    assert reminders_of(schedule, T0 - timedelta(hours=dealt_hours_before_due), T0) == sent


def test_a_weekday_deadline_says_when_a_reminder_may_fall_away():
    [said] = fallen_reminders(parse_schedule("fri 20:00", "UTC", (24, 2)))
    assert said.startswith("the 24 h reminder falls away in a turn shorter than 25 hours")
    assert fallen_reminders(parse_schedule("3d 20:00", "UTC", (24, 2))) == []
