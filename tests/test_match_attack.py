"""The reliability attack for death-match actions (#37, "after the one-table work, the same for death-match
actions"): the campaign attack's helpers, given the Ice match `ice` (tests/match_fixtures.py) instead of the halls.

Hostile action mails (garbage, a wrong secret, player or match, a huge one, odd encodings) are each refused with
a reason, archived, and never stop the next; MAIL_FUZZ mutated action mails never raise and are each recorded and
kept once; the database holds every accepted action once, carried by the one mail recorded as accepted."""
from __future__ import annotations

import json
import mailbox
from collections import Counter
from datetime import datetime, timezone

import pytest
from cli_process import run_pbem
from match_fixtures import action_mail, honest_actions, new_match
from sqlmodel import Session, create_engine, select
from test_intake_fuzz import MAIL_FUZZ, fuzz_messages

from pbem.store.mail import MailOutgoing, MailReceived
from pbem.store.tables import OrderVersion

READ_AT = datetime(2026, 12, 1, 20, 0, 40, tzinfo=timezone.utc)  # the first buzz window is open


def actions_once(url: str) -> Counter:
    """Each accepted action is stored once, carried by a mail recorded as accepted, and each mail recorded as
    accepted carries one accepted action; every recorded mail but a stranger's is answered once. The outcomes."""
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
    outcomes = fuzz_messages(tmp_path, url, honest_actions(), count, seed, at=READ_AT)
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
