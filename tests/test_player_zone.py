"""Time zones per player (issue #24): `--player NAME:EMAIL:ROBOTS:ZONE` or `game set-player`, and the deadline on
the player's sheet in their zone as well as the game's; a misspelt zone is refused where it enters; the zone goes
through export and import."""
from __future__ import annotations

from datetime import datetime, timezone

import pytest
import yaml
from cycle_fixtures import sheets_with_clock
from typer.testing import CliRunner

from pbem.cli import app

RUNNER = CliRunner()
DEALT = datetime(2026, 12, 1, 12, 0, tzinfo=timezone.utc)  # a Tuesday: 5d 20:00 Berlin is Sunday 19:00 UTC


def pbem(db: str, *args: str):
    return RUNNER.invoke(app, ["--db", db, "--now", "2026-12-01T12:00:00Z", *args])


def sheets_due(db: str) -> dict[str, str]:
    return {sheet.player: sheet.due for sheet in sheets_with_clock(db, "spring", DEALT)}


def test_the_sheet_shows_the_deadline_in_the_players_zone_beside_the_games(tmp_path):
    db = f"sqlite:///{tmp_path / 'pbem.db'}"
    made = pbem(db, "game", "new", "spring", "--ruleset", "botwars", "--player", "ann:ann@x.org:Rusty:Asia/Tokyo",
                "--player", "ben:ben@x.org", "--seed", "3", "--deadline", "5d 20:00", "--timezone", "Europe/Berlin")
    assert made.exit_code == 0, made.output
    due = sheets_due(db)
    assert due["ben"] == "due Sunday 6 December, 20:00 CET"
    assert due["ann"] == "due Sunday 6 December, 20:00 CET (Monday 7 December, 04:00 JST your time)"


def test_set_player_changes_the_zone_and_a_misspelt_zone_is_refused(tmp_path):
    db = f"sqlite:///{tmp_path / 'pbem.db'}"
    bad = pbem(db, "game", "new", "spring", "--ruleset", "botwars", "--player", "ann:ann@x.org:Rusty:Mars/Olympus",
               "--player", "ben:ben@x.org")
    assert bad.exit_code == 2 and "unknown time zone 'Mars/Olympus'" in bad.output
    assert pbem(db, "game", "new", "spring", "--ruleset", "botwars", "--player", "ann:ann@x.org",
                "--player", "ben:ben@x.org", "--seed", "3", "--deadline", "5d 20:00").exit_code == 0
    refused = pbem(db, "game", "set-player", "spring", "ben", "--timezone", "Europe/Berlinn")
    assert refused.exit_code == 1 and "unknown time zone" in refused.output
    assert pbem(db, "game", "set-player", "spring", "ben", "--timezone", "America/New_York").exit_code == 0
    assert sheets_due(db)["ben"] == "due Sunday 6 December, 20:00 UTC (Sunday 6 December, 15:00 EST your time)"
    exported = pbem(db, "game", "export", "spring", str(tmp_path / "out"))
    assert exported.exit_code == 0, exported.output
    described = next((tmp_path / "out").rglob("game.yaml")).read_text(encoding="utf-8")
    ben = next(p for p in yaml.safe_load(described)["players"] if p["name"] == "ben")
    assert ben["timezone"] == "America/New_York"


def test_a_zone_name_too_long_for_a_file_name_is_refused_as_no_time_zone():
    """zoneinfo opens a file named after the zone: a 300-character name raised OSError ("File name too long") from
    a player's or a schedule's time zone instead of being refused (found by the archive fuzzer)."""
    from pbem.formats.schedule import ScheduleError, parse_schedule, zone_problem

    long = "Europe/" + "x" * 300
    assert zone_problem(long).startswith("unknown time zone")
    with pytest.raises(ScheduleError, match="is not a time zone"):
        parse_schedule("5d", long)
