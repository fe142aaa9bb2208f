"""The GM's side of a death match by mail (RULES D5 rulings): the opening mail, GM commands that read the mail
received before them and then act, Take-Back-Toe's turn starting at the GM's roll, an extension refused after a
deadline passed, and mails that never contradict themselves. Mail comes from a Maildir with `Received:` stamps."""
from __future__ import annotations

import json

import pytest
from dm_desk import Desk, reply_block

GYULBOT = """\
game: gyulbot
players: [ann, bob]
options: {rounds: 2, start: 2026-12-01T20:00:00Z}
puzzles: [{PUZZLE}, {PUZZLE}]
actions: []
""".replace("{PUZZLE}", "{size: 4, walls: [], robots: {red: [r4c1], blue: [r2c3]}, goal: {at: r1c4, colour: red}}")


@pytest.fixture
def desk(tmp_path, monkeypatch):
    monkeypatch.chdir(tmp_path)  # runs archive what they read in ./mail-archive
    monkeypatch.delenv("PBEM_MAIL_CONFIG", raising=False)
    return Desk(tmp_path)


def new_match(desk: Desk, name: str, *args: str, now: str = "19:00:00") -> None:
    made = desk.pbem("dm", "new", name, *args, "--out", desk.folder, now=now)
    assert made.exit_code == 0, made.output
    for player in ("ann", "bob"):
        added = desk.pbem("mail", "dm-player", name, player, f"{player}@example.org", "--secret", f"{player}-secret",
                          now=now)
        assert added.exit_code == 0, added.output


def gyulbot(desk: Desk, name: str = "g1") -> None:
    (desk.folder / "g.yaml").write_text(GYULBOT)
    new_match(desk, name, "--from", desk.folder / "g.yaml")


def test_the_opening_mail_waits_for_the_start_then_brings_rules_secret_position_and_reply_lines(desk):
    gyulbot(desk)
    assert desk.new_mail() == []  # the match starts at 20:00: nothing before
    assert [d["what"] for d in desk.run("19:59:59")] == []
    done = desk.run("20:00:00")
    assert [(d["what"], d["game"], d["detail"]) for d in done] == [
        ("opened", "g1", "ann@example.org"), ("opened", "g1", "bob@example.org")]
    mails = desk.new_mail()
    assert [(to, subject) for to, subject, _ in mails] == [
        ("ann@example.org", "[pbem] g1: your Gyulbot match begins"),
        ("bob@example.org", "[pbem] g1: your Gyulbot match begins")]
    ann = mails[0][2]
    assert ann.startswith("g1: Gyulbot, ann v bob. You play ann.")
    # the rules with this match's options (2 rounds; the default windows), the secret, the board, the deadline
    assert "Gyulbot (RULES D1), 2 rounds" in ann and "within 1 min" in ann and "no claim in 10 min" in ann
    assert 'Your secret is "ann-secret"' in ann and "c1  c2  c3  c4" in ann
    assert "Deadline: 2026-12-01 20:10:00 UTC, open to both players.\nThat is 10 min from 2026-12-01 20:00:00 UTC, when this mail was written." in ann
    assert reply_block(ann) == 'match: g1\nplayer: ann\nsecret: "ann-secret"\naction: {claim: 8}\n'
    assert desk.run("20:01:00") == [] and desk.new_mail() == []  # once
    # a new address for a running match gets the position at once
    moved = desk.pbem("mail", "dm-player", "g1", "bob", "bob@other.example.org", now="20:02:00")
    assert moved.exit_code == 0 and "opening mail to bob@other.example.org queued" in moved.output
    [(to, subject, text)] = desk.new_mail()
    assert to == "bob@other.example.org" and 'secret: "bob-secret"' in text
    assert "That is 8 min 00 s from 2026-12-01 20:02:00 UTC" in text


def test_take_back_toe_with_the_gms_dice_waits_for_the_roll_and_the_mover_is_not_charged(desk):
    new_match(desk, "t1", "--game", "takebacktoe", "--player", "ann", "--player", "bob", "--option", "dice=gm",
              "--option", "clock={turn: 60, reserve: 0}")
    ann, bob = [text for _, _, text in desk.new_mail()]  # the opening mails, at once: the match has begun
    assert "Nothing to send now: waiting for the GM's roll" in ann and "Deadline:" not in ann
    assert "The GM rolls a die for each turn" in ann and "Clock: 1 min a turn; out of time loses." in ann
    rolled = desk.gm("roll", "t1", "4", now="19:05:00")
    assert rolled.exit_code == 0 and "(queued: no SMTP server is configured" in rolled.output
    told = {to: text for to, _, text in desk.new_mail()}
    assert "Deadline: 2026-12-01 19:06:00 UTC, waiting for ann.\nThat is 1 min 00 s from 2026-12-01 19:05:00 UTC, when this mail was written." \
        in told["ann@example.org"]
    desk.send("ann", reply_block(told["ann@example.org"]), "19:05:50")
    done = desk.run("19:06:30")
    assert [d["what"] for d in done] == ["fetched"] and done[0]["detail"].startswith("accepted")
    # bob waits for the GM's roll: no deadline runs for him, however long the GM takes (D5 ruling)
    news = {to: text for to, _, text in desk.new_mail()}
    assert "It counts as sent at 2026-12-01 19:05:50 UTC" in news["ann@example.org"]
    assert "waiting for the GM's roll" in news["bob@example.org"] and "Deadline:" not in news["bob@example.org"]
    assert desk.run("19:30:00") == []
    assert desk.gm("extend", "t1", "60", now="19:30:00").exit_code == 1  # nothing runs: nothing to extend
    assert desk.gm("roll", "t1", "2", now="19:35:00").exit_code == 0
    assert desk.position("t1")["over"] is False


def test_a_gm_command_reads_the_mail_received_before_it_first(desk):
    """The issue's case: a correct demonstration reached the server at 20:14:20, the GM closed the deadline at
    20:14:30: the demonstration counts first and scores (D5 ruling), the timeout finds nothing left to close."""
    gyulbot(desk)
    desk.send("ann", "match: g1\nplayer: ann\nsecret: ann-secret\naction: {claim: 2}\n", "20:11:00")
    desk.run("20:11:30")  # round 1 had no claim by 20:10: junked; ann's claim opens round 2's undercut minute
    desk.send("ann", 'match: g1\nplayer: ann\nsecret: ann-secret\naction: {solution: "Red UR"}\n', "20:12:20")
    timeout = desk.gm("timeout", "g1", now="20:12:30")
    assert "read first: accepted ann@example.org ann" in timeout.output
    final = desk.position("g1")
    assert final["scores"] == {"ann": 1, "bob": 0} and final["over"]
    assert timeout.exit_code == 1 and "the match is over" in timeout.output


def test_extend_after_a_passed_deadline_refuses_naming_it_and_applies_it(desk):
    gyulbot(desk)
    desk.run("20:00:00")
    desk.new_mail()
    refused = desk.gm("extend", "g1", "120", now="20:10:30")
    assert refused.exit_code == 1
    assert ("refused: the deadline 2026-12-01 20:10:00 UTC had passed before this extension (2026-12-01 20:10:30 UTC): "
            "at 2026-12-01 20:10:00 UTC no claim in round 1: nobody scores. That has been applied and the players "
            "told; nothing was extended.") in refused.output
    assert desk.position("g1")["position"]["round"] == 2
    told = desk.new_mail()
    assert [subject for _, subject, _ in told] == ["[pbem] g1: a deadline passed: no claim in round 1: nobody scores"] * 2
    assert desk.run("20:10:40") == []  # applied once: the run finds it done
    extended = desk.gm("extend", "g1", "60", now="20:11:00")
    assert extended.exit_code == 0
    [(_, subject, text), _] = desk.new_mail()
    # the headline, the board's status line and the Deadline line give the one extended deadline
    assert subject == "[pbem] g1: the GM extended the deadline by 60 s to 2026-12-01 20:21:00 UTC"
    assert "Deadline: 2026-12-01 20:21:00 UTC, open to both players.\nThat is 10 min from 2026-12-01 20:11:00 UTC" in text
    # the GM closes it early: the mail says what that did (round 2 scores nobody; 0-0 goes to bob, D1.4)
    assert desk.gm("timeout", "g1", now="20:12:00").exit_code == 0
    [(_, subject, text), _] = desk.new_mail()
    assert subject == ("[pbem] g1: the GM closed the deadline: no claim in round 2: nobody scores; the match is over: "
                       "bob wins")
    assert "Match over: bob wins (tied 0-0: bob wins as the designated opponent)" in text


def test_dm_options_lists_every_option_with_its_default_and_unit(desk):
    for game in ("gyulbot", "ice", "takebacktoe", "flowerfield"):
        documents = json.loads(desk.pbem("dm", "options", game, "--json").stdout)
        from pbem.dm.base import get_game
        assert [d["name"] for d in documents] == list(get_game(game).options)
        assert all(d["about"] for d in documents)
    text = desk.pbem("dm", "options", "ice").stdout
    assert "answer_seconds (default 60 seconds): the opponent's time for a shorter solution" in text
    helped = desk.pbem("dm", "new", "--help").stdout
    assert "--option KEY=VALUE for takebacktoe" in helped and "dice (default engine; engine | gm)" in helped
    assert desk.pbem("dm", "options", "chess").exit_code == 2


def test_the_site_index_lists_death_matches_with_their_result(desk):
    new_match(desk, "t1", "--game", "takebacktoe", "--player", "ann", "--player", "bob", "--option", "dice=gm",
              "--option", "clock={turn: 60, reserve: 0}")
    assert desk.gm("roll", "t1", "4", now="19:05:00").exit_code == 0
    assert desk.run("19:06:01")[0]["detail"] == "2026-12-01 19:06:00 UTC: ann runs out of time; bob wins"
    new_match(desk, "t2", "--game", "takebacktoe", "--player", "ann", "--player", "bob")
    made = desk.pbem("site", "--match", "all", "--out", desk.folder / "site")
    assert made.exit_code == 0, made.output
    index = (desk.folder / "site" / "index.html").read_text()
    assert '<a href="matches/t1/index.html">t1</a> — takebacktoe, ann v bob: Won by bob (ann 0, bob 0): ' \
           "ann ran out of time (the deadline was 2026-12-01 19:06:00 UTC)." in index
    assert '<a href="matches/t2/index.html">t2</a> — takebacktoe, ann v bob: In play (ann 0, bob 0).' in index
    assert "Won by bob" in (desk.folder / "site" / "matches" / "t1" / "index.html").read_text()
    assert desk.pbem("site", "--match", "t9", "--out", desk.folder / "site").exit_code == 1


def test_dm_list_says_when_a_match_waits_for_the_gms_roll(desk):
    new_match(desk, "t1", "--game", "takebacktoe", "--player", "ann", "--player", "bob", "--option", "dice=gm")
    [listed] = json.loads(desk.pbem("dm", "list", "--json").stdout)
    assert listed["deadline"] is None and listed["for_gm"].startswith("ann is waiting for the GM's roll")
    assert "ann is waiting for the GM's roll" in desk.pbem("dm", "list").stdout
    desk.gm("roll", "t1", "4", now="19:05:00")
    [listed] = json.loads(desk.pbem("dm", "list", "--json").stdout)
    assert listed["for_gm"] is None and listed["waiting"] == "ann"


def test_a_gm_command_does_nothing_when_the_inbox_cannot_be_read(desk):
    gyulbot(desk)
    missing = desk.pbem("dm", "extend", "g1", "60", "--maildir", desk.folder / "no-such-box", now="20:01:00")
    assert missing.exit_code == 1 and "nothing done (mail received before this command counts first" in missing.output
    assert [s["payload"] for s in desk.position("g1")["submissions"]] == []


def test_an_acknowledgement_shows_the_position_after_the_opponents_answer_read_in_the_same_run(desk):
    """ann claims 2 (20:01:00), bob lets her demonstrate (20:01:20), one run reads both: bob's skip closed the
    undercut window, so ann demonstrates by 20:03:20 (D1.4 ruling), and her acknowledgement says so (the Maildir
    twin of tests/test_dm_by_mail.py's; the acknowledgement still says what her own message did)."""
    gyulbot(desk)
    desk.run("20:00:00")
    desk.new_mail()
    desk.send("ann", "match: g1\nplayer: ann\nsecret: ann-secret\naction: {claim: 2}\n", "20:01:00")
    desk.send("bob", "match: g1\nplayer: bob\nsecret: bob-secret\naction: {skip: true}\n", "20:01:20")
    desk.run("20:01:30")
    mails = desk.new_mail()
    [ack] = [text for to, _, text in mails if to == "ann@example.org" and "Action 1 of g1 by ann" in text]
    assert "Deadline: 2026-12-01 20:03:20 UTC, waiting for ann." in ack and "waiting for bob" not in ack
    assert len(mails) == 4 and all("20:02:00" not in text for _, _, text in mails)
