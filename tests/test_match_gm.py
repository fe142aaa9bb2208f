"""Every GM control and player mail command takes a death match through the campaigns' one path (issue #33):
`game replace` (the seat keeps its moves; a seat played by no address gets nothing, said plainly), `game away`
(refused: RULES D5, a deadline passes for everyone), `game end` (every later action refused as over), the
players' `address:`, `press:` and `help` by mail, and the opening mail to observers.

A Gyulbot match by mail (tests/test_dm_gm.py's): its first claim window runs from the start at 20:00 for
10 minutes (RULES D1.4), so a deadline passes at 20:10 when nobody claims."""
from __future__ import annotations

import json
import os

import pytest
from dm_desk import Desk, loopback_desk, reply_block
from mail_fixtures import mail
from test_dm_gm import gyulbot


@pytest.fixture
def desk(tmp_path, monkeypatch):
    monkeypatch.chdir(tmp_path)
    monkeypatch.delenv("PBEM_MAIL_CONFIG", raising=False)
    return Desk(tmp_path)


def opened(desk: Desk) -> None:
    """The Gyulbot match g1 with eve observing, opened at its start; the mail so far read."""
    gyulbot(desk)
    assert desk.pbem("game", "observe", "g1", "eve@example.org", now="19:00:00").exit_code == 0
    desk.run("20:00:00")
    desk.new_mail()


def send_from(desk: Desk, sender: str, body: str, received: str) -> None:
    """A mail from any address (`Desk.send` writes from the player's first one), received at `received`."""
    desk.delivered += 1
    data = mail(sender, body, f"<x{desk.delivered}@example.net>")
    path = desk.inbox / "new" / f"{desk.delivered:05d}.mail"
    path.write_bytes(f"Received: from mx by gm; Tue, 01 Dec 2026 {received} +0000\r\n".encode() + data)
    os.utime(path, ns=(desk.delivered * 10**9, desk.delivered * 10**9))


def details(done: list[dict]) -> list[str]:
    return [d["detail"] for d in done if d["what"] == "fetched"]


# --- game replace ---------------------------------------------------------------------------------------------

def test_a_newcomer_takes_a_match_seat_with_its_moves_and_gets_the_position_with_their_own_secret(desk):
    opened(desk)
    desk.send("ann", 'match: g1\nplayer: ann\nsecret: "ann-secret"\naction: {claim: 8}\n', "20:01:00")
    assert details(desk.run("20:01:20")) == ["accepted ann@example.org ann"]
    desk.new_mail()
    done = desk.pbem("game", "replace", "g1", "ann", "cat:Cat@Example.org", "--secret", "cat-secret", "--json",
                     now="20:01:30")
    assert done.exit_code == 0, done.output
    assert json.loads(done.stdout) | {"told": None} == {
        "game": "g1", "seat": "ann", "player": "cat", "email": "cat@example.org", "secret": "cat-secret",
        "was": "ann@example.org", "told": None}
    told = desk.new_mail()
    subjects = {(to, subject) for to, subject, _ in told}
    assert subjects == {("cat@example.org", "g1: you take over ann"), ("ann@example.org", "g1: cat takes over your seat"),
                        ("bob@example.org", "g1: cat takes over ann"), ("eve@example.org", "g1: cat takes over ann"),
                        ("cat@example.org", "[pbem] g1: your Gyulbot match begins")}
    welcome = " ".join(next(text for to, subject, text in told if subject == "g1: you take over ann").split())
    assert "its moves so far stay the seat's" in welcome and "turn sheet" not in welcome and "robots" not in welcome
    position = next(text for to, subject, text in told if "match begins" in subject)
    assert "ann-secret" not in position
    lines = reply_block(position)
    assert lines is not None and 'player: ann\nsecret: "cat-secret"' in lines
    shown = json.loads(desk.pbem("game", "show", "g1", "--json", now="20:01:35").stdout)
    assert shown["turn"] == 1  # ann's claim stays the seat's
    assert [p["email"] for p in shown["players"]] == ["cat@example.org", "bob@example.org"]
    # the old address and secret no longer play the seat; the newcomer's do
    desk.send("ann", 'match: g1\nplayer: ann\nsecret: "ann-secret"\naction: {undercut: 7}\n', "20:01:40")
    send_from(desk, "Cat <cat@example.org>", lines, "20:01:50")  # the reply lines as offered, inside the window
    assert details(desk.run("20:01:55")) == ["unknown ann@example.org", "accepted cat@example.org ann"]


def test_replacing_a_match_seat_nobody_played_by_mail_queues_nothing_for_it_and_says_so(desk):
    """Take-Back-Toe made with `dm new` and no player by mail: the old seat has no address. On main this died with
    "ValueError: a message to send needs one To address and a Message-ID"."""
    made = desk.pbem("dm", "new", "t1", "--game", "takebacktoe", "--player", "ann", "--player", "bob", "--out",
                     desk.folder, now="19:00:00")
    assert made.exit_code == 0, made.output
    done = desk.pbem("game", "replace", "t1", "ann", "cat:cat@example.org", "--secret", "cat-secret", now="19:01:00")
    assert done.exit_code == 0, done.output
    assert "ann played by no address, so nothing was queued for them" in done.output
    told = desk.new_mail()
    assert {to for to, _, _ in told} == {"cat@example.org"}
    position = next(text for _, subject, text in told if "match begins" in subject)
    assert 'secret: "cat-secret"' in position and "player: ann" in position


# --- game away ------------------------------------------------------------------------------------------------

def test_an_absence_on_a_match_is_refused_naming_rule_d5_and_what_the_gm_can_do(desk):
    opened(desk)
    away = desk.pbem("game", "away", "g1", "ann", "--from", "2026-12-01T20:05:00Z", "--to", "2026-12-02T20:00:00Z",
                     now="20:01:00")
    assert away.exit_code == 1
    said = " ".join(away.output.split())
    assert "deadlines pass for both players whatever happens (RULES D5)" in said
    assert "pbem game pause g1" in said and "pbem turn extend g1" in said
    assert desk.new_mail() == []
    assert json.loads(desk.pbem("game", "history", "g1", "--json", now="20:01:00").stdout)[-1]["kind"] == "observe"
    assert [d["what"] for d in desk.run("20:10:01")] == ["deadline"]  # the window closes at 20:10 all the same
    policy = desk.pbem("game", "policy", "g1", "--absence", "pilot", now="20:11:00")
    assert policy.exit_code == 1 and "g1 is a death match, which takes no absence" in policy.output


def test_the_help_of_game_away_says_a_match_is_refused(desk):
    helped = " ".join(desk.pbem("game", "away", "--help").output.split())
    assert "A death match is refused" in helped and "RULES D5" in helped


# --- game end -------------------------------------------------------------------------------------------------

def test_the_gm_ends_a_match_everyone_is_told_and_every_later_action_is_refused_as_over(desk):
    opened(desk)
    ended = desk.pbem("game", "end", "g1", "--winner", "bob", "--reason", "ann cannot go on", "--json",
                      now="20:03:00")
    assert ended.exit_code == 0, ended.output
    assert json.loads(ended.stdout) == {"game": "g1", "ended": "2026-12-01T20:03:00+00:00", "how": "winner",
                                        "winner": "bob", "reason": "ann cannot go on"}
    told = {to: text for to, _, text in desk.new_mail()}
    assert sorted(told) == ["ann@example.org", "bob@example.org", "eve@example.org"]
    assert "The game master has ended g1: you win." in told["bob@example.org"]
    assert "The game master has ended g1: bob wins." in told["ann@example.org"]
    assert "bob wins" in told["eve@example.org"] and "ann cannot go on" in told["eve@example.org"]
    assert all("turn sheet" not in text for text in told.values())
    shown = json.loads(desk.pbem("game", "show", "g1", "--json", now="20:04:00").stdout)
    assert shown["over"] and shown["winner"] == "bob" and shown["ended"]["how"] == "winner"
    listed = json.loads(desk.pbem("game", "list", "--json", now="20:04:00").stdout)
    assert listed[0]["over"] is True
    [matched] = json.loads(desk.pbem("dm", "list", "--json", now="20:04:00").stdout)
    assert matched["over"] is True and matched["winner"] == "bob" and matched["deadline"] is None
    # a player's action after the end is kept, refused as over, and offers nothing to send
    desk.send("ann", 'match: g1\nplayer: ann\nsecret: "ann-secret"\naction: {claim: 8}\n', "20:05:00")
    assert details(desk.run("20:05:30")) == ["refused ann@example.org ann"]
    [(to, _, ack)] = desk.new_mail()
    assert to == "ann@example.org" and "the match is over: g1 ended on 2026-12-01 20:03 UTC: bob wins" in " ".join(
        ack.split())
    assert "Reply with these lines" not in ack
    # the window that would have closed at 20:10 closes nothing; status says so; the GM's controls are refused
    assert desk.run("20:15:00") == [] and desk.new_mail() == []
    status = json.loads(desk.pbem("status", "--json", now="20:15:00").stdout)["matches"]
    assert status[0]["over"] is True and status[0]["due"] is None
    for control in (("game", "pause", "g1"), ("turn", "extend", "g1", "--by", "1h"), ("game", "end", "g1", "--draw"),
                    ("game", "resume", "g1")):
        refused = desk.pbem(*control, now="20:16:00")
        assert refused.exit_code == 1 and "g1 ended on 2026-12-01 20:03 UTC: bob wins" in refused.output, control
    assert desk.new_mail() == []


def test_a_match_the_gm_ended_is_shown_ended_everywhere_and_its_end_mail_carries_the_final_position(desk):
    """`game end` on a running match: its end mail to players and observer has the subject saying it is over, why
    and who won, the text position and a picture with no running deadline; `dm show` (text, JSON, picture), the
    match's page and its Atom feed, `game list` and `status` all say it ended."""
    import feedparser
    from test_dm_mail_texts import pictures

    opened(desk)
    opening = pictures(desk)
    desk.pbem("game", "end", "g1", "--winner", "bob", "--reason", "ann cannot go on", now="20:03:00")
    told = desk.new_mail()
    assert [(to, subject) for to, subject, _ in told] == [
        (to, "[pbem] g1: ended by the game master; the match is over: bob wins")
        for to in ("ann@example.org", "bob@example.org", "eve@example.org")]
    ended = pictures(desk)
    for to, _, text in told:
        assert "Robots: B blue at r2c3, R red at r4c1." in text  # the position it was ended at, in text
        assert "Deadline:" not in text and "If it passes" not in text and "Reply with these lines" not in text
        assert ended[to] != opening[to]  # the picture no longer carries the 20:10 deadline
    shown = desk.pbem("dm", "show", "g1", "--out", desk.folder, now="20:04:00")
    assert "Over: g1 ended on 2026-12-01 20:03 UTC: bob wins (the game master ended it): ann cannot go on." in \
        shown.output
    assert (desk.folder / "g1-000.png").read_bytes() == ended["ann@example.org"]  # one picture of the end
    document = json.loads(desk.pbem("dm", "show", "g1", "--json", "--out", desk.folder, now="20:04:00").stdout)
    assert document["over"] is True and document["winner"] == "bob" and document["ended"]["how"] == "winner"
    site = desk.folder / "site"
    assert desk.pbem("site", "g1", "--out", site, now="20:04:00").exit_code == 0
    page = (site / "matches" / "g1" / "index.html").read_text(encoding="utf-8")
    assert "Over: g1 ended on 2026-12-01 20:03 UTC: bob wins" in page and "In play" not in page
    feed = feedparser.parse((site / "matches" / "g1" / "feed.xml").read_bytes())
    assert not feed.bozo
    assert feed.entries[0].title == "g1: ended by the game master (the game is over: bob won)"
    assert desk.pbem("dm", "site", "g1", "--out", desk.folder / "dm-site", now="20:04:00").exit_code == 0
    assert "Over: g1 ended" in (desk.folder / "dm-site" / "g1" / "index.html").read_text(encoding="utf-8")
    assert json.loads(desk.pbem("game", "list", "--json", now="20:04:00").stdout)[0]["over"] is True
    [status] = json.loads(desk.pbem("status", "--json", now="20:04:00").stdout)["matches"]
    assert status["over"] is True and status["due"] is None and "the game master ended it" in status["next"]


def test_ending_a_match_names_a_winner_who_plays_it_or_calls_a_draw(desk):
    opened(desk)
    wrong = desk.pbem("game", "end", "g1", "--winner", "eve", now="20:01:00")
    assert wrong.exit_code == 1 and "eve is not a player of g1 (ann, bob)" in wrong.output
    drawn = desk.pbem("game", "end", "g1", "--draw", now="20:02:00")
    assert drawn.exit_code == 0, drawn.output
    assert all("a draw: nobody wins" in text for _, _, text in desk.new_mail())


# --- address:, press: and help by mail --------------------------------------------------------------------------

def test_a_match_player_moves_address_by_mail_both_addresses_are_told_and_only_the_new_one_plays(desk):
    opened(desk)
    desk.send("bob", 'Hi,\n\ngame: g1\nplayer: bob\nsecret: "bob-secret"\naddress: bob@new.example.org\n\n'
                     "Sent from my iPhone\n", "20:01:00")
    assert details(desk.run("20:01:30")) == ["accepted bob@example.org bob"]
    told = desk.new_mail()
    assert sorted(to for to, subject, _ in told if subject == "g1: address changed") == [
        "bob@example.org", "bob@new.example.org"]
    [(to, position)] = [(to, text) for to, subject, text in told if "match begins" in subject]
    assert to == "bob@new.example.org" and 'secret: "bob-secret"' in position
    desk.send("bob", 'match: g1\nplayer: bob\nsecret: "bob-secret"\naction: {claim: 8}\n', "20:02:00")
    send_from(desk, "Bob <bob@new.example.org>", 'match: g1\nplayer: bob\nsecret: "bob-secret"\naction: {claim: 7}\n',
              "20:02:10")
    assert details(desk.run("20:02:30")) == ["unknown bob@example.org", "accepted bob@new.example.org bob"]


def test_press_from_a_match_player_is_relayed_to_the_opponent_under_the_press_policy(desk):
    opened(desk)
    press = 'game: g1\nplayer: ann\nsecret: "ann-secret"\npress: {to: bob, text: "Good luck, bob!"}\n'
    desk.send("ann", press, "20:01:00")
    assert details(desk.run("20:01:30")) == ["refused ann@example.org ann"]
    assert "g1 has no press" in desk.new_mail()[0][2]
    assert desk.pbem("game", "policy", "g1", "--press", "anonymous", now="20:02:00").exit_code == 0
    desk.send("ann", press, "20:03:00")
    assert details(desk.run("20:03:30")) == ["accepted ann@example.org ann"]
    relayed = {to: (subject, text) for to, subject, text in desk.new_mail()}
    assert sorted(relayed) == ["ann@example.org", "bob@example.org"]  # the relay, and ann's acknowledgement
    subject, text = relayed["bob@example.org"]
    assert subject == "g1: anonymous press" and "Good luck, bob!" in text and "ann" not in text.split("writes")[0]


def test_press_to_a_match_seat_played_by_no_address_is_refused_plainly(desk):
    made = desk.pbem("dm", "new", "t1", "--game", "takebacktoe", "--player", "ann", "--player", "bob", "--out",
                     desk.folder, now="19:00:00")
    assert made.exit_code == 0, made.output
    assert desk.pbem("mail", "dm-player", "t1", "ann", "ann@example.org", "--secret", "ann-secret",
                     now="19:00:00").exit_code == 0
    assert desk.pbem("game", "policy", "t1", "--press", "signed", now="19:00:00").exit_code == 0
    desk.new_mail()
    desk.send("ann", 'game: t1\nplayer: ann\nsecret: "ann-secret"\npress: {to: bob, text: "Hello?"}\n', "19:01:00")
    assert details(desk.run("19:01:30")) == ["refused ann@example.org ann"]
    [(to, _, ack)] = desk.new_mail()
    assert to == "ann@example.org" and "bob: plays t1 by no address, so press cannot reach them" in " ".join(
        ack.split())


def test_a_match_players_help_mail_speaks_of_actions_and_their_games_moves_not_turn_sheets(desk):
    opened(desk)
    desk.send("ann", 'game: g1\nplayer: ann\nsecret: "ann-secret"\ncommand: help\n', "20:01:00")
    assert details(desk.run("20:01:30")) == ["accepted ann@example.org ann"]
    [(to, _, text)] = desk.new_mail()
    assert to == "ann@example.org"
    for word in ("turn sheet", "orders", "robots", "order file"):
        assert word not in text, word
    assert "command: resend      the position mail again" in text and "This match's press: off." in text
    assert "g1 is a Gyulbot match; its actions now:" in text and "{claim: 8}" in text
    assert reply_block(text) == 'match: g1\nplayer: ann\nsecret: "ann-secret"\naction: {claim: 8}\n'


# --- observers --------------------------------------------------------------------------------------------------

def test_an_observer_gets_the_opening_mail_at_the_start_or_the_position_once_when_added_later(desk):
    """eve observes before the start: the opening at 20:00 (the position, no secret, nothing to send); dan is
    added at 20:02: he gets the position then, once."""
    gyulbot(desk)
    assert desk.pbem("game", "observe", "g1", "eve@example.org", now="19:00:00").exit_code == 0
    desk.new_mail()
    assert sorted(d["detail"] for d in desk.run("20:00:00")) == ["ann@example.org", "bob@example.org",
                                                                 "eve@example.org"]
    opening = {to: (subject, text) for to, subject, text in desk.new_mail()}
    subject, text = opening["eve@example.org"]
    assert subject == "[pbem] g1: the Gyulbot match begins"
    assert "You observe it" in text and "secret" not in text and "Gyulbot (RULES D1), 2 rounds" in text
    assert "You observe this match: there is nothing for you to send." in text
    assert "Deadline: 2026-12-01 20:10:00 UTC" in text
    assert desk.pbem("game", "observe", "g1", "dan@example.org", now="20:02:00").exit_code == 0
    told = desk.new_mail()
    assert [(to, subject) for to, subject, _ in told] == [("dan@example.org", "g1: you observe the game"),
                                                          ("dan@example.org", "[pbem] g1: the Gyulbot match begins")]
    assert "That is 8 min 00 s from 2026-12-01 20:02:00 UTC" in told[1][2]
    assert desk.run("20:03:00") == [] and desk.new_mail() == []  # once



# --- over the loopback IMAP and SMTP servers ------------------------------------------------------------------

@pytest.mark.slow
def test_a_match_players_mail_commands_over_real_servers_reach_the_people_they_concern(tmp_path, tmp_path_factory,
                                                                                       monkeypatch):
    """Through `pbem run` reading IMAP and sending by SMTP: ann's help, bob's press (signed, to ann) and bob's
    address change, each answered; the relay reaches ann, both of bob's addresses are told, and every queued
    mail is sent."""
    with loopback_desk(tmp_path, tmp_path_factory, monkeypatch) as desk:
        gyulbot(desk)
        assert desk.pbem("game", "policy", "g1", "--press", "signed", now="19:00:00").exit_code == 0
        desk.run("20:00:00")
        desk.new_mail()
        desk.send("ann", 'game: g1\nplayer: ann\nsecret: "ann-secret"\ncommand: help\n', "20:01:00")
        desk.send("bob", 'game: g1\nplayer: bob\nsecret: "bob-secret"\npress: {to: ann, text: "Nice puzzle."}\n',
                  "20:01:05")
        desk.send("bob", 'game: g1\nplayer: bob\nsecret: "bob-secret"\naddress: bob@new.example.org\n', "20:01:10")
        assert details(desk.run("20:01:30")) == ["accepted ann@example.org ann", "accepted bob@example.org bob",
                                                 "accepted bob@example.org bob"]
        mails = [(to, subject) for to, subject, _ in desk.new_mail()]
        assert ("ann@example.org", "g1: press from bob") in mails
        assert [to for to, subject in mails if subject == "g1: address changed"] == ["bob@example.org",
                                                                                     "bob@new.example.org"]
        assert [to for to, subject in mails if subject.startswith("[pbem: command accepted]")] == [
            "ann@example.org", "bob@example.org", "bob@example.org"]
