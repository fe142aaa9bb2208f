"""Sending is at least once: a crash after the server accepted a message but before pbem recorded it sends the
message again on the next run, with the same Message-ID and bytes, so a mail reader shows it once."""
from __future__ import annotations

import json
from dataclasses import asdict
from datetime import datetime, timezone
from email.message import EmailMessage

import pytest
from sqlalchemy import text
from sqlmodel import select

from pbem.gm.outgoing import deliver
from pbem.mail.outbox import PermanentFailure, queue
from pbem.store.games import Store
from pbem.store.mail import MailOutgoing, OutboxState

AT = datetime(2026, 12, 1, 20, 0, tzinfo=timezone.utc)


class Recording:
    def __init__(self):
        self.sent: list[tuple[str, bytes]] = []

    def send(self, row, data: bytes) -> None:
        self.sent.append((row.message_id, data))


def message(number: int) -> EmailMessage:
    message = EmailMessage()
    message["From"], message["To"] = "gm@example.org", "alice@example.org"
    message["Subject"], message["Message-ID"] = f"report {number}", f"<r{number}@pbem>"
    message.set_content("the turn")
    return message


def test_a_crash_between_acceptance_and_record_resends_the_same_message(tmp_path):
    store = Store(f"sqlite:///{tmp_path / 'pbem.db'}")
    try:
        with store.session() as session:
            for number in (1, 2):
                queue(session, message(number), "report", AT)
            session.commit()
        transport = Recording()
        with store.session() as session:
            commit = session.commit

            def crash():
                if transport.sent:
                    raise KeyboardInterrupt  # kill -9 between the server's "250 OK" and the commit
                commit()  # the claim before sending is committed
            session.commit = crash
            with pytest.raises(KeyboardInterrupt):
                deliver(session, transport, AT)
        with store.session() as session:
            deliver(session, transport, AT)
            again = deliver(session, transport, AT)  # everything recorded as sent now: nothing more goes out
            states = [row.state for row in session.exec(select(MailOutgoing).order_by(MailOutgoing.id))]
    finally:
        store.close()
    assert [message_id for message_id, _ in transport.sent] == ["<r1@pbem>", "<r1@pbem>", "<r2@pbem>"]
    assert transport.sent[0][1] == transport.sent[1][1] and b"Date: Tue, 01 Dec 2026 20:00:00 +0000" in \
        transport.sent[0][1]
    assert again == [] and states == [OutboxState.SENT, OutboxState.SENT]


class Refusing:
    def send(self, row, data: bytes) -> None:
        raise PermanentFailure("550 no such mailbox")


def test_the_outbox_states_are_stored_as_their_plain_words(tmp_path):
    """The states are a StrEnum in the code, the same words in the table (a script reading it sees no change)."""
    store = Store(f"sqlite:///{tmp_path / 'pbem.db'}")
    try:
        with store.session() as session:
            queue(session, message(1), "report", AT)
            session.commit()
            stored = [session.execute(text("SELECT state FROM mail_outbox")).scalar_one()]
            [refused] = deliver(session, Refusing(), AT)
            stored.append(session.execute(text("SELECT state FROM mail_outbox")).scalar_one())
    finally:
        store.close()
    assert stored == ["pending", "refused"] and all(type(word) is str for word in stored)
    assert refused.state is OutboxState.REFUSED and json.loads(json.dumps(asdict(refused)))["state"] == "refused"


@pytest.mark.parametrize("line_end", [b"\r\n", b"\n"])
def test_a_message_is_queued_from_its_header_block_alone_whatever_its_line_ends(tmp_path, line_end):
    """#36: the outbox reads only the header block of a message (a report mail is ~150 KB): the addressee, the
    subject and the Message-ID as before, from .eml files with CRLF (as pbem writes them) or LF line ends, even
    when the body holds a line that looks like a header, and the whole message is kept."""
    head = [b"From: gm@example.org", b"To: Bob <bob@example.org>", b"Subject: turn 3", b"Message-ID: <t3@pbem>"]
    data = line_end.join([*head, b"", b"To: not@example.org", b"Subject: not this", b""])
    store = Store(f"sqlite:///{tmp_path / 'pbem.db'}")
    with store.session() as session:
        row = queue(session, data, "file", AT)
        assert row is not None
        assert (row.recipient, row.subject, row.message_id, row.data) == ("bob@example.org", "turn 3", "<t3@pbem>",
                                                                          data)


def test_a_games_mails_are_queued_asking_the_outbox_once(tmp_path):
    """#36: a game's mails (its reports and sheets, ~8 a turn) asked the outbox one query each whether their
    Message-ID was queued already; `queue_all` asks once, and queues each as `queue` does: a message queued before,
    or twice in the same batch, once."""
    from sqlalchemy import event

    from pbem.mail.outbox import queue_all

    statements: list[str] = []

    def counting(conn, cursor, statement, *args):
        statements.append(statement)
    store = Store(f"sqlite:///{tmp_path / 'pbem.db'}")
    with store.session() as session:
        queue(session, message(1), "report", AT)
        session.commit()
        event.listen(store.engine, "before_cursor_execute", counting)
        new = queue_all(session, [("report", message(n)) for n in (1, 2, 3, 2)], AT)
        session.commit()
        event.remove(store.engine, "before_cursor_execute", counting)
        queued = session.exec(select(MailOutgoing.message_id).order_by(MailOutgoing.id)).all()
    store.close()
    assert new == 2 and queued == ["<r1@pbem>", "<r2@pbem>", "<r3@pbem>"]
    assert len([s for s in statements if s.startswith("SELECT")]) == 1, statements
