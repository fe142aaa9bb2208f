"""One archive format for every game (issue #33): `pbem game export MATCH DIR` writes a death match as the campaign
folder's layout extended (game.yaml with its seats, transcript.yaml with every move, controls.yaml), `pbem game
import DIR` gives back the same match — the same position (state hash), the same moves with their stamps,
refusals and the mail that carried them, the same clock — and `pbem replay MATCH --verify` replays its accepted
moves, naming the first one the rules refuse. A bad archive is refused naming the file, the line and the field."""
from __future__ import annotations

import json
import re
import sqlite3
from pathlib import Path

import pytest
import yaml
from dm_desk import Desk
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from test_dm_gm import gyulbot
from test_format_hostile_fields import VALUES

from pbem.formats.matchgame import read_match_game
from pbem.formats.transcript import plain, read_transcript
from pbem.formats.yamlfile import FormatError
from pbem.resources import resource_dir

SAMPLES = ["gyulbot-sample", "ice-sample", "takebacktoe-example", "flowerfield-classic"]


@pytest.fixture
def desk(tmp_path, monkeypatch):
    monkeypatch.chdir(tmp_path)
    monkeypatch.delenv("PBEM_MAIL_CONFIG", raising=False)
    (tmp_path / "one").mkdir()
    return Desk(tmp_path / "one")


@pytest.fixture
def other(tmp_path):
    (tmp_path / "two").mkdir()
    return Desk(tmp_path / "two")


def _ok(result):
    assert result.exit_code == 0, result.output
    return result


def _seen(desk: Desk, name: str, now: str) -> dict:
    """Everything a GM sees of a match: its position and every submission, its line of `pbem status` (the clock),
    its GM controls, and its replay."""
    shown = json.loads(_ok(desk.pbem("dm", "show", name, "--json", "--out", desk.folder, now=now)).stdout)
    shown.pop("picture")
    status = json.loads(_ok(desk.pbem("status", "--json", now=now)).stdout)["matches"]
    history = json.loads(_ok(desk.pbem("game", "history", name, "--json", now=now)).stdout)
    replayed = json.loads(_ok(desk.pbem("replay", name, "--verify", "--json", now=now)).stdout)
    return {"show": shown, "status": [m for m in status if m["match"] == name], "history": history,
            "replay": replayed}


def _half(sample: str) -> str:
    """The sample transcript with only the first half of its actions: a match still running."""
    document = yaml.safe_load((resource_dir("turns") / "dm" / f"{sample}.yaml").read_text())
    document["actions"] = document["actions"][:len(document["actions"]) // 2]
    return yaml.safe_dump(document)


@pytest.mark.parametrize("sample", SAMPLES + ["flowerfield-half"])
def test_every_match_comes_back_the_same_from_its_archive(desk, other, sample):
    if sample == "flowerfield-half":
        (desk.folder / "half.yaml").write_text(_half("flowerfield-classic"))
        source = desk.folder / "half.yaml"
    else:
        source = resource_dir("turns") / "dm" / f"{sample}.yaml"
    _ok(desk.pbem("dm", "new", "m1", "--from", source, "--out", desk.folder, now="19:00:00"))
    before = _seen(desk, "m1", "19:30:00")
    exported = _ok(desk.pbem("game", "export", "m1", desk.folder / "archive", "--json", now="19:30:00"))
    assert sorted(Path(p).name for p in json.loads(exported.stdout)) == ["game.yaml", "transcript.yaml"]
    imported = json.loads(_ok(other.pbem("game", "import", desk.folder / "archive", "--json", now="19:40:00")).stdout)
    assert imported == {"game": "m1", "moves": len(before["show"]["submissions"]), "hash": before["replay"]["hash"]}
    assert _seen(other, "m1", "19:30:00") == before
    assert before["show"]["over"] is (sample != "flowerfield-half")


def test_a_match_played_by_mail_keeps_its_mail_refusals_pause_and_opening_through_its_archive(desk, other):
    """Gyulbot by mail (its first claim window 20:00-20:10, RULES D1.4): ann's claim is accepted, bob's
    demonstration out of turn is refused, the undercut window closes at 20:02 (the clock's move), the GM pauses the match; the archive keeps each move's mail and
    reason and the pause, and the imported match opens nobody again and stays paused."""
    gyulbot(desk)
    assert [d["what"] for d in desk.run("20:00:00")] == ["opened", "opened"]
    desk.send("ann", 'match: g1\nplayer: ann\nsecret: "ann-secret"\naction: {claim: 4}\n', "20:01:00")
    desk.send("bob", 'match: g1\nplayer: bob\nsecret: "bob-secret"\naction: {solution: "Red U"}\n', "20:02:00")
    assert [d["detail"] for d in desk.run("20:03:00")] == [
        "accepted ann@example.org ann", "refused bob@example.org bob",
        "2026-12-01 20:02:00 UTC: no undercut: ann demonstrates 4"]
    _ok(desk.pbem("game", "pause", "g1", now="20:04:00"))
    before = _seen(desk, "g1", "20:05:00")
    _ok(desk.pbem("game", "export", "g1", desk.folder / "archive", now="20:05:00"))
    transcript = yaml.safe_load((desk.folder / "archive" / "transcript.yaml").read_text())
    claim, demonstration, clock = transcript["actions"]
    assert claim["player"] == "ann" and claim["claim"] == 4 and claim["source"] == "mail" and claim["mail"]
    assert claim["at"] == "2026-12-01T20:01:00+00:00" and "refused" not in claim
    assert demonstration["player"] == "bob" and demonstration["refused"] and demonstration["source"] == "mail"
    assert clock == {"player": "GM", "at": "2026-12-01T20:03:00+00:00", "timeout": True, "source": "clock"}
    seats = yaml.safe_load((desk.folder / "archive" / "game.yaml").read_text())["players"]
    assert seats == [{"name": "ann", "email": "ann@example.org", "secret": "ann-secret", "opened": True},
                     {"name": "bob", "email": "bob@example.org", "secret": "bob-secret", "opened": True}]
    assert "kind: pause" in (desk.folder / "archive" / "controls.yaml").read_text()
    _ok(other.pbem("game", "import", desk.folder / "archive", now="20:05:30"))
    assert _seen(other, "g1", "20:05:00") == before
    assert before["status"][0]["next"].startswith("nothing: paused since 2026-12-01 20:04:00 UTC")
    opened = other.new_mail()  # each opening kept as a record of a mail sent before, never sent again
    assert [(to, subject) for to, subject, _ in opened] == [
        ("ann@example.org", "g1: your match began before it was imported"),
        ("bob@example.org", "g1: your match began before it was imported")]
    assert other.run("20:06:00") == [] and other.new_mail() == []  # nobody is opened twice; the clock stands still
    assert json.loads(other.pbem("mail", "outbox", "--json", now="20:06:00").stdout) == []  # nothing to send


def test_a_match_moves_from_sqlite_to_postgresql_through_its_archive(desk, other, pg_server):
    """How a running match moves to another database: the same position, moves, clock and controls there."""
    other.url = pg_server.new_database()
    gyulbot(desk)
    assert [d["what"] for d in desk.run("20:00:00")] == ["opened", "opened"]
    desk.send("ann", 'match: g1\nplayer: ann\nsecret: "ann-secret"\naction: {claim: 4}\n', "20:01:00")
    desk.run("20:01:30")
    _ok(desk.pbem("game", "observe", "g1", "eve@example.org", now="20:01:40"))
    before = _seen(desk, "g1", "20:01:45")
    _ok(desk.pbem("game", "export", "g1", desk.folder / "archive", now="20:01:45"))
    _ok(other.pbem("game", "import", desk.folder / "archive", now="20:01:50"))
    assert _seen(other, "g1", "20:01:45") == before
    other.new_mail()  # the openings' records
    assert [d["what"] for d in other.run("20:02:01")] == ["deadline"]  # ann's undercut window closes as it would


def test_an_archive_without_secrets_holds_none_and_its_import_gives_new_ones(desk, other):
    gyulbot(desk)
    _ok(desk.pbem("game", "export", "g1", desk.folder / "archive", "--no-secrets", now="19:10:00"))
    for path in (desk.folder / "archive").iterdir():
        assert "secret" not in path.read_text(), path.name
    _ok(other.pbem("game", "import", desk.folder / "archive", now="19:20:00"))
    seats = json.loads(_ok(other.pbem("game", "show", "g1", "--secrets", "--json", now="19:20:00")).stdout)["players"]
    assert all(re.fullmatch(r"[0-9a-f]{16}", seat["secret"]) for seat in seats)


def test_replay_verify_names_the_first_accepted_move_the_rules_refuse(desk):
    """A tampered row: Take-Back-Toe's third move (Red's B3-A3 after rolling 3) rewritten as B3-A4, which a roll
    of 3 does not allow (RULES D3): replay names move 3, and --verify exits 1."""
    _ok(desk.pbem("dm", "new", "t1", "--from", resource_dir("turns") / "dm" / "takebacktoe-example.yaml", "--out",
                  desk.folder, now="19:00:00"))
    assert _ok(desk.pbem("replay", "t1", "--verify", now="19:00:00")).stdout.endswith("accepted again; position "
                                                                                       f"{_hash(desk, 't1')}\n")
    with sqlite3.connect(desk.folder / "pbem.db") as db:
        db.execute("UPDATE order_versions SET submission = replace(submission, 'B3-A3', 'B3-A4') WHERE version = 3")
    tampered = desk.pbem("replay", "t1", "--verify", now="19:00:00")
    assert tampered.exit_code == 1
    assert 'move 3 (Red {"move": "B3-A4", "roll": 3}) is the first that differs' in tampered.stderr
    assert json.loads(desk.pbem("replay", "t1", "--json", now="19:00:00").stdout)["first_difference"] == 3
    assert desk.pbem("replay", "t1", "--json", now="19:00:00").exit_code == 0  # without --verify it only says so


def _hash(desk: Desk, name: str) -> str:
    return json.loads(desk.pbem("replay", name, "--json", now="19:00:00").stdout)["hash"]


def _archive(desk: Desk) -> Path:
    _ok(desk.pbem("dm", "new", "t1", "--from", resource_dir("turns") / "dm" / "takebacktoe-example.yaml", "--out",
                  desk.folder, now="19:00:00"))
    _ok(desk.pbem("game", "export", "t1", desk.folder / "archive", now="19:00:00"))
    return desk.folder / "archive"


@pytest.mark.parametrize(("file", "old", "new", "said"), [
    ("transcript.yaml", "move: B3-A3", "move: B3-A4",
     r"transcript.yaml:\d+: actions\[2\]: kept as accepted, but the rules refuse it: "),
    ("transcript.yaml", "roll: 4}", "roll: 4, source: post}",
     r"transcript.yaml:\d+: actions\[0\]\.source: must be one of mail, command, clock, transcript, not 'post'"),
    ("game.yaml", "- {name: Red}", "- {name: Red, email: not-an-address}", r"game.yaml:\d+: players\[0\]\.email: "),
    ("game.yaml", "- {name: Green}", "- {name: Blue}",
     r"transcript.yaml: players: Red, Green, but game.yaml seats Red, Blue"),
    ("game.yaml", "ruleset: takebacktoe", "ruleset: takebacktoe\nturns: 3",
     r"game.yaml:\d+: turns: unknown field \(expected name, ruleset, created_at, players\)"),
])
def test_a_bad_archive_is_refused_naming_file_line_and_field_and_stores_nothing(desk, other, file, old, new, said):
    archive = _archive(desk)
    text = (archive / file).read_text()
    assert old in text
    (archive / file).write_text(text.replace(old, new, 1))
    refused = other.pbem("game", "import", archive, now="19:10:00")
    assert refused.exit_code == 1 and re.search(said, refused.output), refused.output
    assert json.loads(other.pbem("game", "list", "--json", now="19:10:00").stdout) == []


def test_an_archive_is_not_imported_over_a_game_of_the_same_name(desk):
    archive = _archive(desk)
    before = _seen(desk, "t1", "19:05:00")
    refused = desk.pbem("game", "import", archive, now="19:10:00")
    assert refused.exit_code == 1 and "a game named t1 already exists" in refused.output
    assert _seen(desk, "t1", "19:05:00") == before


GAME_YAML = {"name": "m1", "ruleset": "takebacktoe", "created_at": "2026-12-01T19:00:00+00:00",
             "players": [{"name": "Red", "email": "red@example.org", "secret": "s3", "timezone": "Europe/Paris",
                          "opened": True}, {"name": "Green"}]}


@settings(max_examples=80, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(data=st.data())
def test_any_value_in_any_field_of_an_archive_is_read_or_refused_naming_the_file(tmp_path, data):
    """Hostile input is normal input: game.yaml's fields, a seat's fields and a move's record keys, each given any
    value, are read or refused with problems naming the file — never a traceback."""
    game = json.loads(json.dumps(GAME_YAML))
    seat = game["players"][0]
    where = data.draw(st.sampled_from([(game, key) for key in [*game, "bogus"]]
                                      + [(seat, key) for key in [*seat, "bogus"]]), label="field")
    where[0][where[1]] = data.draw(VALUES, label="value")
    (tmp_path / "game.yaml").write_text(yaml.safe_dump(plain(game), allow_unicode=True))
    action = {"player": "Red", "roll": 4, "move": "B2-A2",
              data.draw(st.sampled_from(["refused", "source", "mail"]), label="record"): data.draw(VALUES)}
    (tmp_path / "t.yaml").write_text(yaml.safe_dump(plain({"game": "takebacktoe", "players": ["Red", "Green"],
                                                           "actions": [action]}), allow_unicode=True))
    for read in (lambda: read_match_game(tmp_path / "game.yaml"), lambda: read_transcript(tmp_path / "t.yaml")):
        try:
            read()
        except FormatError as err:
            assert err.problems and all(p.source for p in err.problems), err.problems
