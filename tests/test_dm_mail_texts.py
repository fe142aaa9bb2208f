"""Every kind of mail of every death-match game, read as a player reads it (#34, #38 item 4): every text line fits
78 columns, the subject says what happened (accepted, refused, over with the winner), and the picture carries the
running deadline, so it changes when the GM extends it (README: the deadline once, in text, picture and
`Deadline:` line alike)."""
from __future__ import annotations

from datetime import datetime, timezone
from email import message_from_bytes, policy

import pytest
from dm_desk import Desk, reply_block
from sqlmodel import Session, create_engine, select

from pbem.store.mail import MailOutgoing

GAMES = [("gyulbot", ["moves=6", "rounds=2"]), ("ice", ["target=1"]), ("takebacktoe", []),
         ("takebacktoe", ["dice=gm"]), ("flowerfield", [])]


def pictures(desk: Desk) -> dict[str, bytes]:
    """The last picture mailed to each address."""
    found: dict[str, bytes] = {}
    with Session(create_engine(desk.url)) as session:
        for row in session.exec(select(MailOutgoing).order_by(MailOutgoing.id)).all():
            message = message_from_bytes(row.data, policy=policy.default)
            for part in message.walk():
                if part.get_content_type() == "image/png":
                    found[row.recipient] = part.get_payload(decode=True)
    return found


def play(desk: Desk, game: str, options: list[str]) -> list[tuple[str, str, str]]:
    """A match of `game` through its kinds of mail: opening, accepted, refused, GM roll/extend/timeout, deadlines
    passed by the scheduled run to the end, and a move after the end; every mail, in order."""
    made = desk.pbem("dm", "new", "m", "--game", game, "--player", "ann", "--player", "bob", "--seed", "4",
                     "--option", "start=2026-12-01T20:00:00Z", *(a for o in options for a in ("--option", o)),
                     "--out", desk.folder, now="20:00:00")
    assert made.exit_code == 0, made.output
    for player in ("ann", "bob"):
        assert desk.pbem("mail", "dm-player", "m", player, f"{player}@example.org", "--secret", f"{player}-s",
                         now="20:00:00").exit_code == 0
    mails = desk.new_mail()
    if "dice=gm" in options:
        assert desk.gm("roll", "m", "4", now="20:00:10").exit_code == 0
        mails += desk.new_mail()
    offered = reply_block(next(text for to, _, text in reversed(mails) if to == "ann@example.org"))
    desk.send("ann", offered, "20:00:30")
    desk.send("ann", offered, "20:00:40")  # the same again: refused
    desk.run("20:01:00")
    if "dice=gm" in options:
        assert desk.gm("roll", "m", "2", now="20:01:10").exit_code == 0
    mails += desk.new_mail()
    before = pictures(desk)
    assert desk.gm("extend", "m", "300", now="20:01:30").exit_code == 0
    mails += desk.new_mail()
    after = pictures(desk)
    assert all(before[to] != after[to] for to in before), "the picture shows the extended deadline"
    desk.gm("timeout", "m", now="20:02:00")
    mails += desk.new_mail()
    desk.run("23:59:00")  # every deadline from here on passes with nobody acting
    mails += desk.new_mail()
    desk.send("bob", offered.replace("ann", "bob"), "23:59:30")
    desk.run("23:59:50")
    return mails + desk.new_mail()


@pytest.mark.parametrize("game, options", GAMES, ids=lambda value: value if isinstance(value, str) else "-".join(value))
def test_every_mail_of_every_game_fits_78_columns_says_what_happened_and_pictures_the_deadline(
        tmp_path, game, options):
    desk = Desk(tmp_path)
    mails = play(desk, game, options)
    wide = [(subject, line) for _, subject, text in mails for line in text.splitlines() if len(line) > 78]
    assert wide == []
    subjects = [subject for _, subject, _ in mails]
    assert subjects[0].endswith("match begins")
    assert any("action accepted" in text for _, _, text in mails)
    assert any(": action accepted" in subject or "action accepted:" in subject for subject in subjects)
    assert any("action refused" in subject for subject in subjects)
    winner = desk.position("m")["winner"]
    assert desk.position("m")["over"]
    last = {to: subject for to, subject, _ in mails}
    assert all(subject.endswith(f"the match is over: {winner} wins") for subject in last.values()), last


def test_a_deadline_hours_away_reads_in_hours_and_minutes():
    from pbem.dm.clock import remaining, span
    from pbem.render.dm_clock import clock_line

    now = datetime(2026, 12, 1, 8, 0, tzinfo=timezone.utc)
    assert remaining(datetime(2026, 12, 1, 19, 35, 24, tzinfo=timezone.utc), now) == "11 h 35 min"
    assert remaining(datetime(2026, 12, 1, 8, 35, 24, tzinfo=timezone.utc), now) == "35 min"
    assert remaining(datetime(2026, 12, 1, 8, 4, 5, tzinfo=timezone.utc), now) == "4 min 05 s"
    assert span(4 * 3600) == "4 h" and span(5400) == "1 h 30 min" and span(90) == "1 min 30 s"
    line = clock_line({"turn": 4 * 3600, "bonus": {}, "reserve": {"kim": 8 * 3600}, "extended": []})
    assert line == "Clock: 4 h a turn; reserve kim 8 h."


def test_a_tiebreak_round_is_not_round_10_of_9():
    from pbem.render.dm_gyulbot import _round_text

    assert _round_text(9, 9) == "Round 9 of 9"
    assert _round_text(10, 9) == "Tiebreak round 1 (after 9)"


def test_a_failed_challenge_speaks_of_fields_as_every_other_mail_does():
    from pbem.dm import Action, Config, get_game, replay

    config = Config("flowerfield", ("ann", "bob"), "classic", {"clock": "off"})
    actions = [Action("ann", {"plant": ["R C4", "B D3"]}), Action("bob", {"plant": ["R E4", "B D5"]}),
               Action("ann", {"challenge": [["C4", "D4", "E4", "D3"], ["D3", "D4", "D5", "E4"]]})]
    state = replay(config, actions).state
    assert "basket" not in state.event and "fields are not duplicates" in state.event, state.event
    assert get_game("flowerfield").is_over(state) is False


def test_standings_count_one_life_and_one_flag_in_the_singular():
    from pbem.render.ending import standing_line

    row = {"place": 1, "player": "ben", "flags": 1, "lives": 1, "won": None}
    assert standing_line(row) == "1. ben: 1 flag touched, 1 life left"
