"""`pbem status` during an inbox outage says the due turn is waiting for the inbox, on the game's own line, as
`pbem run` does (issue #35): it used to say "next: process the turn", which the run would not do."""
from __future__ import annotations

import json

from test_autopilot import at, campaign, run  # noqa: F401 (a fixture)


def test_a_due_turn_waits_for_the_inbox_on_the_games_line(campaign, tmp_path, monkeypatch):  # noqa: F811
    from mail_servers import reserved_port

    pbem, *_ = campaign
    assert pbem(at(), "game", "set", "halls", "--deadline", "5d").exit_code == 0
    assert run(pbem, at(), tmp_path) == []
    (tmp_path / "mail.yaml").write_text(f"imap: {{host: 127.0.0.1, port: {reserved_port()}, tls: none, user: gm, "
                                        "password: x, timeout: 2}\n")
    monkeypatch.setenv("PBEM_MAIL_CONFIG", str(tmp_path / "mail.yaml"))
    assert pbem(at(5), "run", "--json").exit_code == 1  # the inbox cannot be read: the due turn waits
    shown = pbem(at(5, 1), "status").stdout
    [line] = [line for line in shown.splitlines() if line.startswith("halls:")]
    assert "next: waiting for the inbox (unread since " in line and "process the turn" not in line.split("then")[0]
    from_rows = pbem(at(5, 1), "status", "--json").stdout
    with monkeypatch.context() as patch:  # the ORM's path says the same
        patch.setattr("pbem.cli.run.quiet_status", lambda *_: None)
        assert pbem(at(5, 1), "status", "--json").stdout == from_rows
    assert json.loads(from_rows)["games"][0]["next"].startswith("waiting for the inbox")
    monkeypatch.delenv("PBEM_MAIL_CONFIG")
    assert pbem(at(5, 2), "run", "--json").exit_code == 0  # read again: the turn is processed
    assert "waiting for the inbox" not in pbem(at(5, 3), "status").stdout
