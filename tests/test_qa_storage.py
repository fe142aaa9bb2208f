"""Storage faults end in a message, not a traceback: a read-only database, a full disk under the reports, a FIFO
given as an input file; an archive folder made beforehand works; `pbem report` rewrites what `turn process`
wrote, summary.txt included."""
from __future__ import annotations

import errno
import json
import mailbox
import os

import pytest
from cycle_fixtures import order
from mail_fixtures import new_campaign, order_mail
from typer.testing import CliRunner

from pbem.cli import app

RUNNER = CliRunner()


@pytest.fixture
def game(tmp_path, monkeypatch):
    monkeypatch.chdir(tmp_path)
    url, hands = new_campaign(tmp_path)
    return url, hands


def run(url: str, *args):
    result = RUNNER.invoke(app, ["--db", url, *map(str, args)])
    assert result.exception is None or isinstance(result.exception, SystemExit), result.exception
    return result


def test_a_read_only_database_refuses_with_a_reason_and_stores_nothing(game, tmp_path):
    url, hands = game
    (tmp_path / "alice.yaml").write_bytes(order("halls", 1, "alice", {"Zapper": hands["alice"][:1],
                                                                       "Spanner": hands["alice"][1:2]}))
    read_only = f"sqlite:///file:{tmp_path / 'pbem.db'}?mode=ro&uri=true"
    result = run(read_only, "turn", "submit", "halls", tmp_path / "alice.yaml")
    assert result.exit_code == 1
    assert "refused the work: attempt to write a readonly database. Nothing of this command was stored" \
        in result.stderr
    status = json.loads(run(url, "turn", "status", "halls", "--json").stdout)
    assert [p["latest"] for p in status["players"]] == [None, None]


def test_a_full_disk_under_the_reports_says_the_turn_is_stored_and_how_to_write_them_again(game, tmp_path):
    url, _ = game
    folder = tmp_path / "reports" / "halls" / "turn-001"
    folder.mkdir(parents=True)
    (folder / "index.html").symlink_to("/dev/full")  # every write to it fails: no space left on device
    result = run(url, "turn", "process", "halls")
    assert result.exit_code == 1
    assert "halls turn 1 is stored, but its reports could not be written to" in result.stderr
    assert "No space left on device" in result.stderr and "pbem report halls --turn 1 --out reports" in result.stderr
    assert json.loads(run(url, "turn", "status", "halls", "--json").stdout)["turn"] == 2  # turn 1 is stored
    (folder / "index.html").unlink()
    rewritten = run(url, "report", "halls", "--turn", "1", "--out", "again")
    assert rewritten.exit_code == 0
    written = sorted(p.name for p in (tmp_path / "again" / "halls" / "turn-001").iterdir())
    assert "summary.txt" in written and "index.html" in written
    assert (tmp_path / "again" / "halls" / "turn-001" / "summary.txt").read_text().startswith("halls turn 1\n")


def test_a_fifo_given_as_a_room_or_an_order_file_is_refused_unread(game, tmp_path):
    url, _ = game
    os.mkfifo(tmp_path / "pipe.yaml")  # opening it would block until somebody writes: it must not be opened
    for args in (("room", "check", tmp_path / "pipe.yaml"), ("turn", "check", "halls", tmp_path / "pipe.yaml")):
        result = run(url, *args)
        assert result.exit_code == 1 and "a named pipe (FIFO), not a regular file: not read" in result.output


def test_an_archive_folder_made_beforehand_is_used(game, tmp_path):
    url, hands = game
    (tmp_path / "archive").mkdir()  # empty: no new/, cur/, tmp/ yet
    inbox = mailbox.Maildir(str(tmp_path / "inbox"), create=True)
    inbox.add(order_mail("alice", hands["alice"], "<a1@x>"))
    result = run(url, "mail", "fetch", "--maildir", tmp_path / "inbox", "--archive", tmp_path / "archive")
    assert result.exit_code == 0, result.output
    assert len(mailbox.Maildir(str(tmp_path / "archive")).keys()) == 1


def test_names_and_addresses_are_checked_at_the_door(game, tmp_path):
    url, _ = game
    long_name = "a" * 300
    for name, player in (("spring\n", "alice:alice@example.org"), (long_name, "alice:alice@example.org"),
                         ("spring", "alice:not-an-address"), ("spring", "alice\n:alice@example.org")):
        result = run(url, "game", "new", name, "--ruleset", "botwars", "--player", player,
                     "--player", "bob:bob@example.org")
        assert result.exit_code == 1, (name, player, result.output)
    assert [g["game"] for g in json.loads(run(url, "game", "list", "--json").stdout)] == ["halls"]
    assert run(url, "mail", "dm-player", "m1", "Red", "not-an-address").exit_code == 2
    assert run(url, "dm", "new", "m\n", "--game", "takebacktoe", "--player", "Red", "--player", "Green",
               "--out", tmp_path).exit_code == 1


def test_a_number_of_thousands_of_digits_is_a_problem_with_its_line(game, tmp_path):
    url, _ = game
    (tmp_path / "big.yaml").write_text("game: halls\nturn: " + "9" * 5000 + "\nplayer: alice\nrobots: {}\n")
    result = run(url, "turn", "check", "halls", tmp_path / "big.yaml")
    assert result.exit_code == 1 and "big.yaml:2: turn: a whole number of 5,000 characters: too large" in result.output


def test_read_only_commands_never_create_a_database(tmp_path, monkeypatch):
    monkeypatch.chdir(tmp_path)
    for args in (("game", "list"), ("game", "show", "x"), ("turn", "status", "x"), ("status",), ("mail", "unknown"),
                 ("replay", "x"), ("site", "x", "--out", "site"), ("report", "x", "--out", "out")):
        result = RUNNER.invoke(app, list(args))
        assert result.exit_code == 1 and f"no database at {tmp_path / 'pbem.db'}" in result.stderr, args
    assert list(tmp_path.iterdir()) == []
    version = RUNNER.invoke(app, ["--version"])
    assert version.exit_code == 0 and version.stdout.startswith("pbem ")


def test_a_sqlite_writer_waits_a_minute_for_another_not_pythons_five_seconds(tmp_path):
    """Two cron runs at once: the second waits while the first processes a turn and writes its reports (which
    can take longer than Python's 5-s default under load) instead of failing with "database is locked"."""
    from pbem.store.games import Store

    store = Store(f"sqlite:///{tmp_path / 'pbem.db'}")
    with store.session() as session:
        assert session.connection().exec_driver_sql("PRAGMA busy_timeout").scalar() == 60_000
    store.close()


def test_a_full_disk_under_the_turn_sheets_names_game_turn_path_and_the_repair(game, tmp_path):
    """#29: `turn deal` that cannot write a sheet says which game and turn, where, and what writes it again."""
    url, _ = game
    folder = tmp_path / "sheets" / "halls" / "turn-001"
    folder.mkdir(parents=True)
    (folder / "alice.txt").symlink_to("/dev/full")
    result = run(url, "turn", "deal", "halls")
    assert result.exit_code == 1
    assert "halls turn 1 is dealt, but its turn sheets could not be written to" in result.stderr
    assert "alice.txt: No space left on device" in result.stderr and "pbem turn deal halls --out sheets" in result.stderr
    (folder / "alice.txt").unlink()
    assert run(url, "turn", "deal", "halls").exit_code == 0 and (folder / "alice.txt").read_text()


def test_a_full_archive_is_named_with_its_path_and_the_fix_and_loses_nothing(game, tmp_path, monkeypatch):
    """#37: `mail fetch --archive` on a full disk said "cannot read the inbox". The archive's writes fail with
    ENOSPC (simulated: no message file can be added); the refusal names the archive, its path and the fix, the
    message stays in the inbox unhandled, and is handled once the archive has room."""
    url, hands = game
    inbox = mailbox.Maildir(str(tmp_path / "inbox"), create=True)
    inbox.add(order_mail("alice", hands["alice"], "<full@alice>"))

    def full(self, message):
        raise OSError(errno.ENOSPC, os.strerror(errno.ENOSPC))

    with monkeypatch.context() as patched:
        patched.setattr(mailbox.Maildir, "add", full)
        result = run(url, "mail", "fetch", "--maildir", tmp_path / "inbox", "--archive", tmp_path / "archive")
    assert result.exit_code == 1
    assert f"cannot keep a message in the archive {tmp_path / 'archive'}: No space left on device" in result.stderr
    assert "Free space there (or give --archive another folder)" in result.stderr
    assert "cannot read the inbox" not in result.stderr
    result = run(url, "mail", "fetch", "--maildir", tmp_path / "inbox", "--archive", tmp_path / "archive", "--json")
    assert [h["outcome"] for h in json.loads(result.stdout)] == ["accepted"]
