"""Revision 0011 moves the death matches into the games' tables (one store model, issue #33): a database of
revision 0010 with a campaign and a Gyulbot match half-way — both players enrolled by mail with their addresses
and secrets, its opening mails sent, actions accepted and refused (one carried by mail), a claim window running —
upgrades with nothing lost: the same position hash, the same deadline, the same seats, the same outbox, the same
campaign; and the match goes on by mail."""
from __future__ import annotations

import hashlib
import json
from datetime import datetime, timezone
from email.message import EmailMessage

import pytest
import sqlalchemy as sa
from alembic import command
from dm_desk import Desk
from mail_fixtures import new_campaign
from sqlmodel import Session, select

from pbem.dm import clock
from pbem.dm.base import Action, Config, get_game, replay
from pbem.formats.canonical import state_hash
from pbem.formats.transcript import parse_transcript
from pbem.formats.yamlfile import load_yaml
from pbem.mail.outbox import queue
from pbem.render.message import message_id
from pbem.store.db import alembic_config, open_database, stored_revision
from pbem.store.games import current_state
from pbem.store.games import get_game as get_campaign
from pbem.store.mail import MailOutgoing, MailReceived
from pbem.store.newmatch import MatchWriter

PUZZLE = "{size: 4, walls: [], robots: {red: [r4c1], blue: [r2c3]}, goal: {at: r1c4, colour: red}}"
GYULBOT = f"""\
game: gyulbot
players: [ann, bob]
options: {{rounds: 2, start: 2026-12-01T20:00:00Z}}
puzzles: [{PUZZLE}, {PUZZLE}]
actions: []
"""
START = datetime(2026, 12, 1, 20, 0, tzinfo=timezone.utc)
# What was sent, as the 0010 code recorded it: ann's claim of 4 by mail at 20:02 makes her Player A; bob's claim of 5
# by `pbem dm act` at 20:02:20 is refused (only a lower count undercuts it, D1.4); the undercut window runs to 20:03.
SENT = [Action("ann", {"claim": 4}, datetime(2026, 12, 1, 20, 2, tzinfo=timezone.utc)),
        Action("bob", {"claim": 5}, datetime(2026, 12, 1, 20, 2, 20, tzinfo=timezone.utc))]
UNDERCUT_CLOSES = datetime(2026, 12, 1, 20, 3, tzinfo=timezone.utc)


def position_hash(state: object) -> str:
    """A match's position as one hash: its state is frozen data, whose repr lists every field."""
    return hashlib.sha256(repr(state).encode("utf-8")).hexdigest()


def _old_database(desk: Desk) -> tuple[str, list[tuple[str, bool, str | None]]]:
    """The campaign made at the newest revision and taken back to 0010 (it has no match, so nothing moves), then
    the match written as revision 0010's code wrote it; the position hash and the submissions recorded."""
    url, _ = new_campaign(desk.folder)
    engine = open_database(url)
    migrations = alembic_config()
    with engine.begin() as connection:
        migrations.attributes["connection"] = connection
        command.downgrade(migrations, "0010")
    assert stored_revision(engine) == "0010"
    transcript = parse_transcript(load_yaml(GYULBOT, "g.yaml"), "g.yaml")
    rules, state = get_game("gyulbot"), get_game("gyulbot").new_state(transcript.config)
    rows = []
    for action in SENT:  # judged on the one clock as gm/judge.py did at 0010
        records, state = clock.submit(rules, state, action)
        rows += [(record.action, record.reason) for record in records]
    from pbem.store.matches import config_of
    from pbem.store.newmatch import canonical, config_document
    from pbem.store.tables import Game

    stored = canonical(config_document(transcript.config))  # the config as 0010 kept it, and read it back
    config = config_of(Game(name="g1", ruleset="gyulbot", seed="0", setup=stored, created_at=START))
    with engine.begin() as connection:
        connection.execute(sa.text("INSERT INTO dm_match (id, name, game, config) VALUES (1, 'g1', 'gyulbot', :c)"),
                           {"c": stored})
        for seq, (action, reason) in enumerate(rows, start=1):
            connection.execute(sa.text(
                "INSERT INTO dm_action (match_id, seq, player, at, payload, accepted, reason) "
                "VALUES (1, :seq, :player, :at, :payload, :accepted, :reason)"),
                {"seq": seq, "player": action.player, "at": action.at.replace(tzinfo=None),
                 "payload": canonical(dict(action.payload)), "accepted": reason is None, "reason": reason})
        for player in ("ann", "bob"):
            connection.execute(sa.text("INSERT INTO mail_dm_players (match, player, email, secret) "
                                       "VALUES ('g1', :p, :e, :s)"),
                               {"p": player, "e": f"{player}@example.org", "s": f"{player}-secret"})
    with Session(engine) as session:
        for player in ("ann", "bob"):  # the opening mails, sent at the start
            opening = EmailMessage()
            opening["To"], opening["From"], opening["Subject"] = f"{player}@example.org", "gm@example.org", "begins"
            opening["Message-ID"] = message_id("dm", f"news opening g1 {player}", f"{player}@example.org")
            opening.set_content("the opening mail")
            queue(session, opening, "notice", START)
        session.add(MailReceived(key="k-ann", message_id="<m0-ann@example.org>", received_at=SENT[0].at,
                                 read_at=SENT[0].at, origin="maildir", archived="a.eml", sender="ann@example.org",
                                 size=100, outcome="accepted", kind="dm", game="g1", player="ann", detail="[]"))
        session.commit()
    engine.dispose()
    accepted = [action for action, reason in rows if reason is None]
    assert [reason is None for _, reason in rows] == [True, False], rows  # one accepted, one refused
    return url, [(action.player, reason is None, reason) for action, reason in rows] + [
        ("hash", True, position_hash(replay(config, accepted).state))]


def test_a_0010_database_with_a_match_half_way_and_a_campaign_upgrades_with_nothing_lost(tmp_path, monkeypatch):
    monkeypatch.chdir(tmp_path)
    monkeypatch.delenv("PBEM_MAIL_CONFIG", raising=False)
    desk = Desk(tmp_path)
    url, before = _old_database(desk)
    *submitted, (_, _, stored_hash) = before

    engine = sa.create_engine(url)
    with Session(engine) as session:
        campaign_hash = state_hash(current_state(session, get_campaign(session, "halls")))
        outbox = session.exec(select(MailOutgoing.message_id, MailOutgoing.state)).all()
    engine.dispose()
    rules = get_game("gyulbot")

    engine = open_database(url)  # the upgrade
    from pbem.gm.moves import position, submissions
    from pbem.store.matches import find_match, seat

    with Session(engine) as session:
        tables = set(sa.inspect(engine).get_table_names())
        assert not tables & {"dm_match", "dm_action", "mail_dm_players"}
        match = find_match(session, "g1")
        assert match is not None and match.ruleset == "gyulbot"
        config, state, _ = position(session, match)
        assert position_hash(state) == stored_hash
        assert rules.deadline(state).at == UNDERCUT_CLOSES  # still running
        assert [(s.name, s.email, s.secret) for s in (seat(session, match, "ann"), seat(session, match, "bob"))] == [
            ("ann", "ann@example.org", "ann-secret"), ("bob", "bob@example.org", "bob-secret")]
        moved = submissions(session, match)
        assert [(m["player"], m["accepted"], m["reason"]) for m in moved] == submitted
        assert [m["at"] for m in moved] == [a.at for a in SENT]
        carried = session.exec(sa.text("SELECT version, mail, source FROM order_versions WHERE game_id = :g "
                                       "ORDER BY version"), params={"g": match.id}).all()
        assert [tuple(r) for r in carried] == [(1, "k-ann", "mail"), (2, None, "command")]
        assert session.exec(select(MailOutgoing.message_id, MailOutgoing.state)).all() == outbox
        assert state_hash(current_state(session, get_campaign(session, "halls"))) == campaign_hash
        deadline = rules.deadline(state).at
    engine.dispose()

    # the first run after the upgrade sends no opening mail again and writes the match's deadline row
    assert [(to, subject) for to, subject, _ in desk.new_mail()] == [
        ("ann@example.org", "begins"), ("bob@example.org", "begins")]  # the openings sent at 0010
    assert desk.run("20:02:30") == []
    status = json.loads(desk.pbem("status", "--json", now="20:02:40").stdout)
    assert [(m["match"], m["due"]) for m in status["matches"]] == [("g1", deadline.isoformat())]
    assert desk.new_mail() == []
    # the match goes on by mail: bob undercuts within the window (D1.4)
    desk.send("bob", 'match: g1\nplayer: bob\nsecret: "bob-secret"\naction: {undercut: 3}\n', "20:02:50")
    assert [d["what"] for d in desk.run("20:02:55")] == ["fetched"]
    shown = desk.position("g1")
    assert [(s["player"], s["payload"], s["accepted"]) for s in shown["submissions"]] == [
        ("ann", {"claim": 4}, True), ("bob", {"claim": 5}, False), ("bob", {"undercut": 3}, True)]
    assert [to for to, _, _ in desk.new_mail()] == ["bob@example.org", "ann@example.org"]  # the ack, the news


def test_going_back_before_0011_with_a_match_stored_is_refused_naming_it(tmp_path):
    url = f"sqlite:///{tmp_path / 'pbem.db'}"
    with MatchWriter(url) as writer:
        writer.add("t1", Config("takebacktoe", ("ann", "bob")), [], START)
        writer.commit()
    engine = open_database(url)
    migrations = alembic_config()
    with engine.begin() as connection, pytest.raises(RuntimeError, match=r"death matches stored \(t1\)"):
        migrations.attributes["connection"] = connection
        command.downgrade(migrations, "0010")
    engine.dispose()
