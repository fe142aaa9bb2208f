"""RULES D5 from cron: every match's clock runs from its start (the `start` option, else the opening mail), so a
player who never answers loses on time from the first turn; and an action the GM's inbox could not read in time
starts the next mover's clock only when they are told (D5 outage ruling, #38 item 2)."""
from __future__ import annotations

import pytest
from dm_desk import Desk, reply_block

# the first mover's whole time: Take-Back-Toe 60 s + 300 s reserve; Flower Field classic 120 s (+60 s for a
# challenge, the latest due) + 600 s reserve
FIRST_DEADLINE = {"takebacktoe": "20:06:00", "flowerfield": "20:13:00"}


def open_match(desk: Desk, game: str, *options: str) -> None:
    made = desk.pbem("dm", "new", "m", "--game", game, "--player", "ann", "--player", "bob", "--seed", "1",
                     *(a for option in options for a in ("--option", option)), "--out", desk.folder, now="19:00:00")
    assert made.exit_code == 0, made.output


def enrol(desk: Desk, now: str) -> None:
    for player in ("ann", "bob"):
        made = desk.pbem("mail", "dm-player", "m", player, f"{player}@example.org", "--secret", f"{player}-s", now=now)
        assert made.exit_code == 0, made.output


@pytest.mark.parametrize("game", ["takebacktoe", "flowerfield"])
def test_without_a_start_the_clock_runs_from_the_opening_mail_and_silence_loses(tmp_path, game):
    desk = Desk(tmp_path)
    open_match(desk, game)  # made an hour before the players are told: that hour is nobody's
    enrol(desk, "20:00:00")
    opening = {to: text for to, _, text in desk.new_mail()}
    assert f"Deadline: 2026-12-01 {FIRST_DEADLINE[game]} UTC" in opening["ann@example.org"]
    assert "waiting for ann" in opening["bob@example.org"]
    assert not [d for d in desk.run("20:05:00") if d["what"] == "deadline"]
    done = desk.run("21:00:00")
    assert [d["game"] for d in done if d["what"] == "deadline"] == ["m"]
    position = desk.position("m")
    assert position["over"] and position["winner"] == "bob"
    told = desk.new_mail()
    assert sorted(to for to, *_ in told) == ["ann@example.org", "bob@example.org"]
    assert all("ann runs out of time; bob wins" in text for *_, text in told)


@pytest.mark.parametrize("game", ["takebacktoe", "flowerfield"])
def test_with_a_start_the_scheduled_run_and_dm_timeout_apply_it(tmp_path, game):
    desk = Desk(tmp_path)
    open_match(desk, game, "start=2026-12-01T20:00:00Z")
    early = desk.gm("timeout", "m", now="20:01:00")
    assert early.exit_code == 0  # the GM closes the running deadline: ann's clock was running
    assert desk.position("m")["winner"] == "bob"


def test_the_start_option_alone_lets_the_scheduled_run_time_out_a_silent_first_mover(tmp_path):
    desk = Desk(tmp_path)
    open_match(desk, "takebacktoe", "start=2026-12-01T20:00:00Z")
    assert not [d for d in desk.run("20:05:59") if d["what"] == "deadline"]
    assert [d["game"] for d in desk.run("20:06:01") if d["what"] == "deadline"] == ["m"]
    assert desk.position("m")["winner"] == "bob"


def test_an_action_read_after_an_inbox_outage_gives_the_next_mover_the_full_time_from_then(tmp_path, monkeypatch):
    """lee acts at 20:01, just after the inbox went down (the run at 20:02 cannot read it). At 20:30 the inbox is
    read: lee's move counts at 20:01, but kim is told only now, so kim's 60 s + 300 s run from 20:30 (to 20:36), not
    from 20:01 (when kim would have run out at 20:07, during the outage)."""
    from mail_servers import reserved_port

    desk = Desk(tmp_path)
    made = desk.pbem("dm", "new", "m", "--game", "takebacktoe", "--player", "lee", "--player", "kim", "--seed", "1",
                     "--option", "start=2026-12-01T20:00:00Z", "--out", desk.folder, now="20:00:00")
    assert made.exit_code == 0, made.output
    for player in ("lee", "kim"):
        assert desk.pbem("mail", "dm-player", "m", player, f"{player}@example.org", "--secret", f"{player}-s",
                         now="20:00:00").exit_code == 0
    opening = {to: text for to, _, text in desk.new_mail()}
    desk.send("lee", reply_block(opening["lee@example.org"]), "20:01:00")
    (tmp_path / "down.yaml").write_text(f"imap: {{host: 127.0.0.1, port: {reserved_port()}, tls: none, user: gm, "
                                        "password: x, timeout: 2}\n")
    down = desk.pbem("run", "--config", tmp_path / "down.yaml", "--json", now="20:02:00")
    assert down.exit_code == 1 and "cannot read the inbox" in down.output
    desk.run("20:30:00")
    position = desk.position("m")
    assert not position["over"], position
    told = {to: (subject, text) for to, subject, text in desk.new_mail()}
    assert "lee has acted" in told["kim@example.org"][0] and "deadline passed" not in told["kim@example.org"][1]
    assert "Deadline: 2026-12-01 20:36:00 UTC" in told["kim@example.org"][1]
    assert not [d for d in desk.run("20:35:59") if d["what"] == "deadline"]
    assert [d["game"] for d in desk.run("20:36:01") if d["what"] == "deadline"] == ["m"]
    assert desk.position("m")["winner"] == "lee"
