"""Deadlines mean deadlines (RULES B4.7 ruling, #22), through `pbem run --now` over a Maildir: orders stamped (by
the GM's server, `Received:`) after the turn's deadline are refused with the deadline named, even when fetched
before the turn is processed, and during a review hold; orders stored during a hold make the next run preview the
turn again at once."""
from __future__ import annotations

import json
import mailbox
from datetime import datetime, timedelta, timezone
from email import message_from_bytes, policy

import pytest
from cli_process import run_pbem
from mail_fixtures import new_campaign, order_mail
from sqlmodel import Session, create_engine, select

from pbem.store.mail import MailOutgoing
from pbem.store.tables import Turn

T0 = datetime(2026, 12, 1, 18, 0, tzinfo=timezone.utc)  # a Tuesday
DUE = T0 + timedelta(days=1)  # --deadline 1d from the first run
DUE_TEXT = "due Wednesday 2 December, 18:00 UTC"


def stamped(data: bytes, moment: datetime) -> bytes:
    """The message as the GM's server files it: a Received: header on top, stamped `moment`."""
    return f"Received: from mx.example.org by gm.example.org; {moment:%a, %d %b %Y %H:%M:%S +0000}\n".encode() + data


@pytest.fixture
def campaign(tmp_path):
    url, hands = new_campaign(tmp_path)
    inbox = mailbox.Maildir(str(tmp_path / "inbox"), create=True)

    def pbem(now: datetime, *args):
        result = run_pbem("--db", url, "--now", now.isoformat(), *args, cwd=tmp_path)
        assert "Traceback" not in result.stderr, result.stderr
        return result

    def run(now: datetime):
        return pbem(now, "run", "--maildir", tmp_path / "inbox", "--json")

    return url, hands, inbox, pbem, run


def mailed(url: str, purpose: str) -> list[tuple[str, str]]:
    engine = create_engine(url)
    with Session(engine) as session:
        rows = session.exec(select(MailOutgoing).where(MailOutgoing.purpose == purpose).order_by(MailOutgoing.id)).all()
    engine.dispose()
    return [(row.recipient, message_from_bytes(row.data, policy=policy.default).get_body(("plain",)).get_content())
            for row in rows]


def used(url: str) -> dict:
    engine = create_engine(url)
    with Session(engine) as session:
        orders = json.loads(session.exec(select(Turn).where(Turn.number == 1)).one().orders)
    engine.dispose()
    return orders


def done(result) -> list[tuple[str, str]]:
    return [(d["what"], d["detail"]) for d in json.loads(result.stdout)["done"]]


def test_orders_received_after_the_deadline_are_refused_naming_it_though_the_turn_is_not_processed(campaign):
    url, hands, inbox, pbem, run = campaign
    assert pbem(T0, "game", "set", "halls", "--deadline", "1d").returncode == 0
    assert run(T0).returncode == 0  # the clock starts: due a day later
    inbox.add(stamped(order_mail("bob", hands["bob"], "<in-time@bob>"), DUE - timedelta(minutes=1)))
    inbox.add(stamped(order_mail("alice", hands["alice"], "<late@alice>"), DUE + timedelta(minutes=30)))
    result = run(DUE + timedelta(hours=2))  # both fetched after the deadline, before the turn is processed
    assert ("fetched", "accepted bob@example.org bob") in done(result)
    assert ("fetched", "refused alice@example.org alice") in done(result)
    assert ("processed", "missing: alice") in done(result)
    assert used(url) == {"alice": None, "bob": 1}  # the late orders never counted
    [(to, text)] = [ack for ack in mailed(url, "ack") if ack[0] == "alice@example.org"]
    text = " ".join(text.split())  # the acknowledgement wraps each problem at 78 columns
    assert "orders refused" in text and "late: your mail server received this message at 2026-12-02 18:30 UTC" in text
    assert f"after the deadline of turn 1 of halls ({DUE_TEXT})" in text and "RULES B4.7" in text
    # #38: the whole mail is late, not its `turn:` line: no caret under it, no "Expected: `turn: 1`"; and the
    # reply ends saying the deadline passed, never that a new order file still replaces these orders
    assert "^" not in text and "Expected" not in text
    passed = f"were {DUE_TEXT}: the deadline has passed, and no order file received after it counts for this turn."
    [(_, accepted)] = [ack for ack in mailed(url, "ack") if ack[0] == "bob@example.org"]
    for reply in (text, " ".join(accepted.split())):
        assert reply.endswith(passed) and "until then" not in reply, reply


def test_a_review_hold_refuses_late_orders_and_a_change_in_time_previews_again_at_once(campaign):
    url, hands, inbox, pbem, run = campaign
    assert pbem(T0, "game", "set", "halls", "--deadline", "1d", "--process", "all-in", "--review").returncode == 0
    assert run(T0).returncode == 0
    inbox.add(stamped(order_mail("alice", hands["alice"], "<a1@alice>"), T0 + timedelta(hours=1)))
    inbox.add(stamped(order_mail("bob", hands["bob"], "<b1@bob>"), T0 + timedelta(hours=1)))
    first = run(T0 + timedelta(hours=2))  # everyone is in: previewed to the GM and held
    assert [what for what, _ in done(first)].count("held") == 1 and len(mailed(url, "review")) == 1
    assert [what for what, _ in done(run(T0 + timedelta(hours=3)))] == []  # held: nothing to do

    changed = order_mail("alice", hands["alice"][::-1], "<a2@alice>")
    inbox.add(stamped(changed, T0 + timedelta(hours=4)))  # before the deadline: a new version counts
    second = run(T0 + timedelta(hours=5))
    assert ("fetched", "accepted alice@example.org alice") in done(second)
    assert [what for what, _ in done(second)].count("held") == 1  # previewed again in the same run
    assert len(mailed(url, "review")) == 2

    inbox.add(stamped(order_mail("bob", hands["bob"][::-1], "<b2@bob>"), DUE + timedelta(minutes=5)))
    third = run(DUE + timedelta(hours=1))  # during the hold, after the deadline: late
    assert ("fetched", "refused bob@example.org bob") in done(third)
    assert "held" not in [what for what, _ in done(third)] and len(mailed(url, "review")) == 2
    late = [text for to, text in mailed(url, "ack") if to == "bob@example.org" and "refused" in text]
    assert len(late) == 1 and DUE_TEXT in late[0]

    approved = pbem(DUE + timedelta(hours=2), "turn", "approve", "halls", "--json")
    assert approved.returncode == 0, approved.stdout
    assert used(url) == {"alice": 2, "bob": 1}  # alice's second version, bob's first: what the GM saw
