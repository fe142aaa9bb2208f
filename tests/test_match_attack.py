"""The reliability attack for death-match actions (#37, "after the one-table work, the same for death-match
actions"): the campaign attack's helpers, given the Ice match `ice` (tests/match_fixtures.py) instead of the halls.

Hostile action mails (garbage, a wrong secret, player or match, a huge one, odd encodings) are each refused with
a reason, archived, and never stop the next; MAIL_FUZZ mutated action mails never raise and are each recorded and
kept once; the database holds every accepted action once, carried by the one mail recorded as accepted."""
from __future__ import annotations

import json
import mailbox
from collections import Counter
from datetime import datetime, timedelta, timezone
from email import message_from_bytes
from pathlib import Path

import pytest
from cli_process import run_pbem
from mail_servers import HOST, PASSWORD, USER, SmtpServer, certificate
from match_fixtures import MATCH, action_mail, honest_actions, new_match
from sqlmodel import Session, create_engine, select
from test_autopilot_concurrency import killed_runs
from test_cycle_race import RACES as SUBMIT_RACES
from test_intake_fuzz import MAIL_FUZZ, fuzz_messages
from test_intake_race import TIMED, RaceGame, databases, race

from pbem.store.mail import MailOutgoing, MailReceived
from pbem.store.tables import OrderVersion

READ_AT = datetime(2026, 12, 1, 20, 0, 40, tzinfo=timezone.utc)  # the first buzz window is open


def actions_once(url: str) -> Counter:
    """Each accepted action is stored once, carried by a mail recorded as accepted, and each mail recorded as
    accepted carries one accepted action; no more acknowledgements than mails recorded (each is named by its mail:
    a second one could not be queued). The mails' outcomes."""
    engine = create_engine(url)
    with Session(engine) as session:
        received = session.exec(select(MailReceived)).all()
        actions = session.exec(select(OrderVersion).where(OrderVersion.turn == 0)).all()
        acks = [row.subject for row in session.exec(select(MailOutgoing).where(MailOutgoing.purpose == "ack"))]
    engine.dispose()
    by_mail = Counter(row.mail for row in actions if row.accepted and row.mail)
    assert all(count == 1 for count in by_mail.values()), by_mail
    assert set(by_mail) == {row.key for row in received if row.outcome == "accepted"}, (by_mail, received)
    versions = [row.version for row in actions]
    assert len(versions) == len(set(versions)), versions  # one arrival order, no action twice
    assert len(acks) <= len(received)
    return Counter(row.outcome for row in received)


def hostile_mails() -> list[tuple[bytes, str]]:
    """Action mails as the attack sent them, each with what its refusal says."""
    utf16 = action_mail("ann", "{claim: 4}", "<u16@ann>").replace(b"Content-Type: text/plain; charset=\"utf-8\"",
                                                                  b"Content-Type: text/plain; charset=\"utf-16\"")
    huge = action_mail("bob", "{claim: 3}", "<huge@bob>") + b"\r\n" + b"# padding\r\n" * 120_000
    return [(b"\xff\xfe\x00garbage\r\n\r\n\x1b[2J" * 40, "no single valid From address"),
            (action_mail("ann", "{claim: 4}", "<s@ann>", secret="guess"), "secret"),
            (action_mail("carol", "{claim: 4}", "<c@carol>"), "carol@example.org is not the address of any player"),
            (action_mail("bob", "{claim: 4}", "<p@bob>").replace(b"player: bob", b"player: carol"),
             "carol does not play ice by mail"),
            (action_mail("ann", "{claim: 4}", "<m@ann>", match="nice"), "ann does not play nice by mail"),
            (huge, "the message is 1,"),
            (utf16, "no orders found")]  # UTF-8 bytes said to be UTF-16: nothing readable


def test_hostile_action_mails_are_refused_with_a_reason_archived_and_never_stop_the_next(tmp_path):
    url = new_match(tmp_path)
    inbox = mailbox.Maildir(str(tmp_path / "inbox"), create=True)
    hostile = hostile_mails()
    for data, _ in hostile:
        inbox.add(data)
    inbox.add(action_mail("ann", "{claim: 4}", "<honest@ann>"))
    result = run_pbem("--db", url, "--now", "2026-12-01T20:00:40Z", "mail", "fetch", "--maildir", "inbox", "--json",
                      cwd=tmp_path)
    handled = json.loads(result.stdout)
    assert len(handled) == len(hostile) + 1 and handled[-1]["outcome"] == "accepted", handled
    for (_, reason), outcome in zip(hostile, handled):
        assert outcome["outcome"] in ("refused", "unknown") and outcome["reasons"], outcome
        assert reason in " ".join(outcome["reasons"]), (reason, outcome)
    assert len(mailbox.Maildir(str(tmp_path / "mail-archive")).keys()) == len(hostile) + 1
    assert actions_once(url)["accepted"] == 1
    again = run_pbem("--db", url, "--now", "2026-12-01T20:00:50Z", "mail", "fetch", "--maildir", "inbox", "--json",
                     cwd=tmp_path)
    assert {h["outcome"] for h in json.loads(again.stdout)} == {"duplicate"}


def fuzz_actions(tmp_path, count: int, seed: int) -> Counter:
    url = new_match(tmp_path)
    outcomes = fuzz_messages(tmp_path, url, honest_actions(), count, seed, at=READ_AT, step=timedelta(seconds=20))
    assert actions_once(url) == Counter({k: v for k, v in outcomes.items() if k != "duplicate"})
    return outcomes


def test_mutated_action_mails_never_raise_nor_get_lost(tmp_path):
    outcomes = fuzz_actions(tmp_path, 300, 1)
    assert sum(outcomes.values()) == 300 and outcomes["refused"] and outcomes["accepted"]


@pytest.mark.slow
def test_the_attack_volume_of_action_mails(tmp_path):
    outcomes = fuzz_actions(tmp_path, MAIL_FUZZ, 2)
    print(dict(outcomes))
    assert sum(outcomes.values()) == MAIL_FUZZ


def match_by_mail(folder: Path, url: str | None) -> str:
    """The Ice match with its players' mails in folder/inbox: claims, a refusal by the rules, a wrong secret, a skip
    and a pass, received over the first hour; a run at RUN_AT reads them and lets every deadline since pass."""
    url = new_match(folder, url)
    inbox = mailbox.Maildir(str(folder / "inbox"), create=True)
    for number, (player, action, received, secret) in enumerate([
            ("ann", "{claim: 4}", "20:00:30", None), ("bob", "{claim: 3}", "20:00:35", None),
            ("bob", "{claim: 2}", "20:00:40", "guess"), ("bob", "{skip: true}", "20:03:00", None),
            ("ann", "{pass: true}", "20:20:00", None), ("bob", "{claim: 5}", "20:40:00", None)]):
        inbox.add(action_mail(player, action, f"<k{number}@{player}>", received, secret=secret))
    return url


RUN_AT = "2026-12-01T22:00:00+00:00"


def match_end_state(url: str) -> tuple:
    """What a run leaves: every action (accepted or refused, in arrival order), every mail's outcome, every message
    queued — and each accepted action once (`actions_once`)."""
    actions_once(url)
    engine = create_engine(url)
    with Session(engine) as session:
        actions = tuple(sorted((v.version, v.player_id, v.accepted, v.reason, v.submission, v.mail, v.actor)
                         for v in session.exec(select(OrderVersion)).all()))
        received = tuple(sorted((r.key, r.outcome, r.detail) for r in session.exec(select(MailReceived)).all()))
        queued = tuple(sorted(row.message_id for row in session.exec(select(MailOutgoing)).all()))
    engine.dispose()
    return actions, received, queued


class SentOnce:
    """The mail the SMTP server got since the last call, checked against the outbox at `url`: every queued message
    sent, each once but the one in flight when a run was killed, sent again with its Message-ID (README). The
    Message-IDs sent."""

    def __init__(self, smtp: SmtpServer):
        self.smtp, self.seen = smtp, 0

    def __call__(self, url: str) -> tuple:
        new = self.smtp.messages[self.seen:]
        self.seen += len(new)
        sent = Counter(message_from_bytes(data)["Message-ID"] for _, _, data in new)
        engine = create_engine(url)
        with Session(engine) as session:
            rows = session.exec(select(MailOutgoing)).all()
        engine.dispose()
        assert all(row.state == "sent" for row in rows), [(row.message_id, row.state) for row in rows]
        assert set(sent) == {row.message_id for row in rows}
        assert sum(sent.values()) - len(sent) <= 1, sent  # at most the one in flight, again
        return tuple(sorted(sent))


@pytest.mark.slow
@pytest.mark.parametrize("backend", ["sqlite", "postgresql"])
def test_kill_9_during_a_run_reading_match_actions_then_running_again_gives_the_uninterrupted_end_state(
        tmp_path, tmp_path_factory, request, monkeypatch, backend):
    """The run reads the actions from a Maildir and sends over the loopback SMTP server: after each kill and the
    run that follows, the database is the uninterrupted run's and every message went out once (the in-flight one
    aside)."""
    server = request.getfixturevalue("pg_server") if backend == "postgresql" else None
    cert, key = certificate(tmp_path_factory.mktemp("tls"))
    smtp = SmtpServer(cert, key).start()
    config = tmp_path / "mail.yaml"
    config.write_text(f"from: Game Master <gm@example.org>\nsmtp: {{host: {HOST}, port: {smtp.port}, tls: starttls, "
                      f"user: {USER}, cafile: {cert}, timeout: 20}}\n")
    monkeypatch.setenv("PBEM_SMTP_PASSWORD", PASSWORD)
    sent_once = SentOnce(smtp)
    try:
        actions, received, queued, sent = killed_runs(
            tmp_path, server, match_by_mail, RUN_AT, ("run", "--maildir", "inbox", "--config", str(config)),
            lambda url: (*match_end_state(url), sent_once(url)), codes=(0, 1))  # 1: a mail was refused
    finally:
        smtp.stop()
    assert len(received) == 6 and any(accepted for _, _, accepted, *_ in actions) and queued == sent


RACE_AT = "2026-12-01T20:30:00+00:00"  # the run lets the first rounds' deadlines pass (the buzz, the presenting)
READS = {"fetch": ["--now", RACE_AT, "mail", "fetch", "--maildir", "inbox"],  # ann's claim received at 20:00:30
         "act": ["--now", RACE_AT, "dm", "act", MATCH, "--player", "ann", "{claim: 4}", "--out", "."]}
PROCESS = ["--now", RACE_AT, "run"]


def one_claim(folder: Path, url: str | None, command: str) -> str:
    url = new_match(folder, url)
    mailbox.Maildir(str(folder / "inbox"), create=True).add(action_mail("ann", "{claim: 4}", "<r@ann>", "20:00:30"))
    return url


def in_turn(tmp_path: Path, command: str) -> dict[tuple, set[str]]:
    """The end state of a trial whose two sides ran one wholly before the other, either way round: which way round
    gives which state."""
    found: dict[tuple, set[str]] = {}
    for order in ("reads first", "process first"):
        folder = tmp_path / f"{command} {order}"
        folder.mkdir()
        url = one_claim(folder, None, command)
        sides = (READS[command], PROCESS) if order == "reads first" else (PROCESS, READS[command])
        for args in sides:
            assert run_pbem("--db", url, *args, cwd=folder).returncode in (0, 1)
        found.setdefault(match_end_state(url)[:2], set()).add(order)
    return found


def match_race(request, tmp_path: Path, backend: str, command: str, timing: str, trials: int) -> list[set[str]]:
    """`trials` races of ann's claim (by `command`) against a run passing the deadlines, timed as
    test_intake_race.race does: each ends as one of the two sides wholly first would have (never both, never an
    action or a deadline twice); which way round, per trial."""
    ends = in_turn(tmp_path, command)
    # a mail's claim counts when it was received (D5): before the deadlines it is taken, after them it is late;
    # `dm act` acts now, after the deadlines either way round
    assert len(ends) == (2 if command == "fetch" else 1), ends

    def outcome(url: str) -> dict:
        state = match_end_state(url)[:2]
        assert state in ends, state
        return {"orders": ends[state]}

    game = RaceGame(one_claim, READS, PROCESS, outcome)
    (tmp_path / "trials").mkdir()
    results = race(tmp_path / "trials", databases(request, backend, trials), command, timing, game)
    return [result["orders"] for result in results]


def test_a_claim_racing_a_run_that_passes_the_deadline_ends_as_one_side_first(request, tmp_path):
    """The fast variant: a few fetches of ann's claim racing the run, on SQLite."""
    assert len(match_race(request, tmp_path, "sqlite", "fetch", "race", 3)) == 3


@pytest.mark.slow
@pytest.mark.parametrize("backend", ["sqlite", "postgresql"])
@pytest.mark.parametrize("command", ["fetch", "act"])
@pytest.mark.parametrize("timing", ["before", "during", "after"])
def test_a_claim_timed_before_during_and_after_a_run_passing_the_deadline(request, tmp_path, backend, command,
                                                                         timing):
    orders = match_race(request, tmp_path, backend, command, timing, TIMED)
    print(f"{backend} {command} {timing}: {Counter(' or '.join(sorted(o)) for o in orders)}")
    if timing != "during":
        assert all(("reads first" if timing == "before" else "process first") in o for o in orders), orders


@pytest.mark.slow
@pytest.mark.parametrize("backend", ["sqlite", "postgresql"])
def test_a_dm_act_racing_a_run_passing_the_deadline(request, tmp_path, backend):
    orders = match_race(request, tmp_path, backend, "act", "race", SUBMIT_RACES)
    assert len(orders) == SUBMIT_RACES


def test_a_runs_step_for_a_match_takes_the_matchs_lock_before_it_writes(tmp_path):
    """Found by the dm act race on PostgreSQL (1 in 120): the run's step queued the opening mails and wrote the
    match's deadline before taking the match's lock, while `dm act` holds that lock and then writes the same rows —
    a deadlock, and the run refused. Every writer of a game takes its lock first (store.base.lock_game)."""
    from sqlalchemy import event

    from pbem.gm.matches import run_match
    from pbem.store.base import Store

    store = Store(new_match(tmp_path))
    writes: list[str] = []
    event.listen(store.engine, "before_cursor_execute",
                 lambda conn, cursor, statement, *_: writes.append(statement) if statement.split()[0] in (
                     "INSERT", "UPDATE", "DELETE") else None)
    try:
        with store.session() as session:
            opened, _ = run_match(session, MATCH, datetime.fromisoformat(RACE_AT), "gm@example.org")
            session.commit()
    finally:
        store.close()
    assert opened and writes[0].startswith("UPDATE games"), writes[:3]
