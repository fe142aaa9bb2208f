"""#22: a command run in the wrong folder (a cron line, a typo in --db) says there is no database there, exits 1
and creates none; only the commands that start a database (`game new`, `game import`, `dm new`, `demo`) do."""
from __future__ import annotations

import pytest
from cli_process import run_pbem

WRITING = [
    ("run",), ("run", "--no-fetch"), ("turn", "deal", "g"), ("turn", "submit", "g", "orders.yaml"),
    ("turn", "process", "g"), ("turn", "rollback", "g", "--to", "1"), ("turn", "approve", "g"),
    ("game", "set", "g", "--deadline", "5d"), ("game", "autoplay", "g", "--turns", "1"),
    ("mail", "fetch", "--maildir", "inbox"), ("mail", "send"), ("mail", "dm-player", "m", "ann", "ann@example.org"),
    ("mail", "outbox"), ("dm", "act", "m", "{claim: 3}", "--player", "ann"), ("dm", "tick"), ("dm", "roll", "m", "4"),
]


@pytest.mark.parametrize("command", WRITING, ids=" ".join)
def test_a_writing_command_refuses_a_database_that_does_not_exist(command, tmp_path):
    (tmp_path / "orders.yaml").write_text("game: g\n")
    (tmp_path / "inbox").mkdir()
    result = run_pbem(*command, cwd=tmp_path)
    assert result.returncode == 1, (result.stdout, result.stderr)
    assert f"no database at {tmp_path / 'pbem.db'}" in result.stderr
    assert not (tmp_path / "pbem.db").exists()


def test_game_new_starts_one_and_then_every_command_finds_it(tmp_path):
    created = run_pbem("game", "new", "g", "--ruleset", "botwars", "--player", "ann:ann@example.org:Rusty",
                       "--player", "ben:ben@example.org:Sparky", "--seed", "1", cwd=tmp_path)
    assert created.returncode == 0, created.stderr
    assert run_pbem("turn", "deal", "g", cwd=tmp_path).returncode == 0
