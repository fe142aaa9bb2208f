"""Every GM control takes any game (issue #33): a death match is listed by `pbem game list`, and `pbem game pause`
stops its clock — no deadline passes and no action counts while it stands still — and `resume` gives back the
time that was left; both players who play by mail are told each time. A Gyulbot match by mail: its first claim
window runs from the start at 20:00 for 10 minutes (RULES D1.4)."""
from __future__ import annotations

import json

import pytest
from dm_desk import Desk
from test_dm_gm import gyulbot


@pytest.fixture
def desk(tmp_path, monkeypatch):
    monkeypatch.chdir(tmp_path)
    monkeypatch.delenv("PBEM_MAIL_CONFIG", raising=False)
    return Desk(tmp_path)


def test_game_list_lists_a_death_match_beside_nothing_else(desk):
    gyulbot(desk)
    listed = json.loads(desk.pbem("game", "list", "--json", now="19:30:00").stdout)
    assert listed == [{"game": "g1", "ruleset": "gyulbot", "turn": 0, "over": False, "players": ["ann", "bob"]}]


def test_pausing_a_match_stops_its_clock_and_resuming_gives_back_the_time_left(desk):
    gyulbot(desk)
    assert [d["what"] for d in desk.run("20:00:00")] == ["opened", "opened"]
    desk.new_mail()
    paused = desk.pbem("game", "pause", "g1", "--json", now="20:04:00")
    assert paused.exit_code == 0, paused.output
    assert json.loads(paused.stdout)["remaining"] == 6 * 60  # the window closes at 20:10
    told = desk.new_mail()
    assert sorted(to for to, _, _ in told) == ["ann@example.org", "bob@example.org"]
    assert all("the game master paused the match" in subject for _, subject, _ in told)
    assert desk.run("20:15:00") == []  # the window would have closed at 20:10: it stands still
    status = json.loads(desk.pbem("status", "--json", now="20:15:00").stdout)["matches"]
    assert status[0]["next"] == "nothing: paused since 2026-12-01 20:04:00 UTC (pbem game resume g1)"
    desk.send("ann", 'match: g1\nplayer: ann\nsecret: "ann-secret"\naction: {claim: 4}\n', "20:16:00")
    assert [d["detail"] for d in desk.run("20:16:30")] == ["refused ann@example.org ann"]
    assert "the match is paused" in desk.new_mail()[0][2]
    resumed = desk.pbem("game", "resume", "g1", "--json", now="20:20:00")
    assert resumed.exit_code == 0, resumed.output
    assert json.loads(resumed.stdout)["due"] == "2026-12-01T20:26:00+00:00"  # 6 minutes left, as at the pause
    told = desk.new_mail()
    assert sorted(to for to, _, _ in told) == ["ann@example.org", "bob@example.org"]
    assert all("Deadline: 2026-12-01 20:26:00 UTC" in text for _, _, text in told)
    assert desk.run("20:26:00") == []
    assert [d["what"] for d in desk.run("20:26:01")] == ["deadline"]


def test_a_match_seat_not_played_by_mail_gets_its_address_by_enrolment_not_by_game_address(desk):
    """A death match's seat has no address until its player is enrolled (which gives the secret too): `game
    address` on it is refused, naming the command; once enrolled, the address changes, both are told, and the new
    address gets the match's opening mail (its position, secret and reply lines) once."""
    made = desk.pbem("dm", "new", "t1", "--game", "takebacktoe", "--player", "ann", "--player", "bob", "--out",
                     desk.folder, now="19:00:00")
    assert made.exit_code == 0, made.output
    refused = desk.pbem("game", "address", "t1", "ann", "ann@example.org", now="19:01:00")
    assert refused.exit_code == 1 and "pbem mail dm-player t1 ann ann@example.org" in refused.output
    assert desk.pbem("mail", "dm-player", "t1", "ann", "ann@example.org", now="19:02:00").exit_code == 0
    desk.new_mail()
    moved = desk.pbem("game", "address", "t1", "ann", "ann@example.net", now="19:03:00")
    assert moved.exit_code == 0, moved.output
    told = desk.new_mail()
    assert sorted(to for to, subject, _ in told if "address changed" in subject) == [
        "ann@example.net", "ann@example.org"]
    [(to, opening)] = [(to, text) for to, subject, text in told if "match begins" in subject]
    assert to == "ann@example.net" and 'secret: "' in opening


def test_turn_extend_on_a_match_moves_its_running_deadline_through_the_games_clock_and_tells_both(desk):
    """`pbem turn extend` on a match is the step `pbem dm extend` takes (RULES D5): Gyulbot's first claim window
    closes at 20:10 (D1.4); extended by 5 minutes at 20:04 it closes at 20:15, and both players are told."""
    gyulbot(desk)
    desk.run("20:00:00")
    desk.new_mail()
    moved = desk.pbem("turn", "extend", "g1", "--by", "5m", "--json", now="20:04:00")
    assert moved.exit_code == 0, moved.output
    assert json.loads(moved.stdout) == {"game": "g1", "due": "2026-12-01T20:15:00+00:00"}
    told = desk.new_mail()
    assert sorted(to for to, _, _ in told) == ["ann@example.org", "bob@example.org"]
    assert all("Deadline: 2026-12-01 20:15:00 UTC" in text for _, _, text in told)
    assert desk.run("20:15:00") == []
    assert [d["what"] for d in desk.run("20:15:01")] == ["deadline"]


def test_turn_extend_on_a_match_to_a_time_not_later_or_while_paused_is_refused(desk):
    gyulbot(desk)
    desk.run("20:00:00")
    early = desk.pbem("turn", "extend", "g1", "--to", "2026-12-01T20:09:00Z", now="20:04:00")
    assert early.exit_code == 1 and "is not after the deadline it would extend, 2026-12-01 20:10:00 UTC" in early.output
    assert desk.pbem("game", "pause", "g1", now="20:05:00").exit_code == 0
    paused = desk.pbem("turn", "extend", "g1", "--by", "1h", now="20:06:00")
    assert paused.exit_code == 1 and "g1 is paused: resume it first" in paused.output


def test_match_mail_goes_to_observers_and_shows_the_deadline_in_each_players_own_zone(desk):
    """`game observe` and `set-player --timezone` on a match: ann in Berlin reads Gyulbot's first window (closing
    20:10 UTC, RULES D1.4) as 21:10 CET her time; bob, in no zone of his own, reads UTC only; the observer gets the
    position with no secret and no reply lines."""
    gyulbot(desk)
    assert desk.pbem("game", "observe", "g1", "Eve@Example.org", now="19:00:00").exit_code == 0
    zoned = desk.pbem("game", "set-player", "g1", "ann", "--timezone", "Europe/Berlin", now="19:01:00")
    assert zoned.exit_code == 0, zoned.output
    desk.run("20:00:00")
    opening = {to: " ".join(text.split()) for to, _, text in desk.new_mail()}
    assert "Deadline: 2026-12-01 20:10:00 UTC (Tuesday 1 December, 21:10:00 CET your time), open" in opening[
        "ann@example.org"]
    assert "Deadline: 2026-12-01 20:10:00 UTC, open to both players." in opening["bob@example.org"]
    assert desk.pbem("game", "pause", "g1", now="20:04:00").exit_code == 0
    told = {to: text for to, _, text in desk.new_mail()}
    assert sorted(told) == ["ann@example.org", "bob@example.org", "eve@example.org"]
    assert "the game master paused the match" in told["eve@example.org"]
    assert "You observe this match: there is nothing for you to send." in told["eve@example.org"]
    assert "secret" not in told["eve@example.org"] and "secret" in told["bob@example.org"]


def test_a_broadcast_and_the_press_policy_take_a_match(desk):
    """`mail broadcast` reaches both players of a match and its observer; `game policy --press` is kept for it."""
    gyulbot(desk)
    assert desk.pbem("game", "observe", "g1", "eve@example.org", now="19:00:00").exit_code == 0
    desk.new_mail()
    (desk.folder / "note.txt").write_text("The server moves on Sunday.\n")
    sent = desk.pbem("mail", "broadcast", "g1", str(desk.folder / "note.txt"), "--json", now="19:10:00")
    assert sent.exit_code == 0, sent.output
    assert json.loads(sent.stdout) == {"game": "g1", "queued": 3}
    told = desk.new_mail()
    assert sorted(to for to, _, _ in told) == ["ann@example.org", "bob@example.org", "eve@example.org"]
    assert all("The server moves on Sunday." in text for _, _, text in told)
    set_press = desk.pbem("game", "policy", "g1", "--press", "signed", "--json", now="19:11:00")
    assert set_press.exit_code == 0, set_press.output
    assert json.loads(set_press.stdout)["press"] == "signed"


def test_a_match_player_mails_status_and_resend_as_a_campaign_player_does(desk):
    """`command: status` answers the position and its deadline (Gyulbot's first window closes at 20:10, RULES
    D1.4) in ann's own zone too; `command: resend` sends her the position mail again, to her alone."""
    gyulbot(desk)
    assert desk.pbem("game", "set-player", "g1", "ann", "--timezone", "Asia/Tokyo", now="19:01:00").exit_code == 0
    assert desk.pbem("game", "observe", "g1", "eve@example.org", now="19:02:00").exit_code == 0
    desk.run("20:00:00")
    desk.new_mail()
    desk.send("ann", 'game: g1\nplayer: ann\nsecret: "ann-secret"\ncommand: status\n', "20:01:00")
    assert [d["detail"] for d in desk.run("20:01:10")] == ["accepted ann@example.org ann"]
    [(to, _, text)] = desk.new_mail()
    assert to == "ann@example.org"
    assert "Deadline: 2026-12-01 20:10:00 UTC (Wednesday 2 December, 05:10:00 JST your time)" in " ".join(
        text.split())
    desk.send("ann", 'game: g1\nplayer: ann\nsecret: "ann-secret"\ncommand: resend\n', "20:02:00")
    assert [d["detail"] for d in desk.run("20:02:10")] == ["accepted ann@example.org ann"]
    mails = desk.new_mail()
    assert sorted(to for to, _, _ in mails) == ["ann@example.org", "ann@example.org"]
    again = next(text for _, subject, text in mails if "your position again" in subject)
    assert 'secret: "ann-secret"' in again and "action: {claim:" in again


def deadline_line(text: str) -> str:
    return next(line for line in text.splitlines() if line.startswith("Deadline:"))


@pytest.mark.parametrize("order", ["action first", "command first"])
@pytest.mark.parametrize("command", ["status", "resend"])
def test_a_status_or_resend_answered_in_the_run_of_an_action_shows_the_position_after_all_of_its_mail(
        desk, command, order):
    """ann claims 8 and bob mails `command: status` (or `resend`) in the same run, in either order: bob's reply
    shows the position the run leaves (ann's claim made, its window running), as ann's acknowledgement does, not
    the open claims of the time of his own message."""
    gyulbot(desk)
    desk.run("20:00:00")
    desk.new_mail()
    claim = ("ann", 'match: g1\nplayer: ann\nsecret: "ann-secret"\naction: {claim: 8}\n')
    asked = ("bob", f'game: g1\nplayer: bob\nsecret: "bob-secret"\ncommand: {command}\n')
    for (player, body), received in zip((claim, asked) if order == "action first" else (asked, claim),
                                        ("20:01:00", "20:01:05")):
        desk.send(player, body, received)
    assert sorted(d["detail"] for d in desk.run("20:01:30")) == ["accepted ann@example.org ann",
                                                                  "accepted bob@example.org bob"]
    mails = desk.new_mail()
    ack = next(text for to, subject, text in mails if to == "ann@example.org" and "action accepted" in subject)
    shown = [text for to, subject, text in mails
             if to == "bob@example.org" and ("your position again" in subject if command == "resend"
                                             else "command accepted" in subject)]
    assert shown and all(deadline_line(text) == deadline_line(ack) for text in shown), (deadline_line(ack), shown)
    assert "open to both players" not in deadline_line(ack)  # the claim changed the position
