"""#28: no address blocks the outbox. An internationalised address (RFC 6531) is sent with SMTPUTF8 when the
server offers it, else that message is set aside with its reason; anything the outbox cannot send is set aside and
never stops the messages behind it. Real loopback SMTP (tests/mail_servers.py)."""
from __future__ import annotations

import json
from email import message_from_bytes, policy

import pytest
from mail_fixtures import mail
from mail_servers import SmtpServer, spring_game


@pytest.fixture
def gm(tmp_path, tmp_path_factory, monkeypatch):
    """A game with a player at jürgen@example.org, its turn sheets queued, and a mail config for loopback SMTP."""
    pbem, cert, key, smtp_port = spring_game(tmp_path, tmp_path_factory, monkeypatch, "jürgen@example.org")
    assert pbem("turn", "deal", "spring").exit_code == 0
    (tmp_path / "later.eml").write_bytes(mail("gm@example.org", "a later message", "<later@pbem>").replace(
        b"To: Game Master <gm@example.org>", b"To: carol@example.org"))
    return pbem, cert, key, smtp_port, tmp_path


def test_a_server_that_offers_smtputf8_gets_the_internationalised_address_as_it_is(gm):
    pbem, cert, key, port, _ = gm
    smtp = SmtpServer(cert, key, port=port, smtputf8=True).start()
    try:
        sent = pbem("mail", "send", "--game", "spring", "--json")
    finally:
        smtp.stop()
    assert sent.exit_code == 0, sent.output
    assert sorted(to[0] for _, to, _ in smtp.messages) == ["bob@example.org", "jürgen@example.org"]
    data = next(data for _, to, data in smtp.messages if to == ["jürgen@example.org"])
    assert message_from_bytes(data, policy=policy.default)["To"] == "jürgen@example.org"  # not an encoded word
    assert "=?utf-8?" not in data.split(b"\r\n\r\n")[0].decode("utf-8")


def test_without_smtputf8_that_message_is_set_aside_with_its_reason_and_the_rest_go_out(gm):
    pbem, cert, key, port, folder = gm
    smtp = SmtpServer(cert, key, port=port).start()
    try:
        first = pbem("mail", "send", "--game", "spring", "--json")
        again = pbem("mail", "send", folder / "later.eml", "--json")  # queued behind the set-aside one
    finally:
        smtp.stop()
    messages = json.loads(first.stdout)["messages"]
    assert first.exit_code == 1
    assert [(m["recipient"], m["state"]) for m in messages] == [("jürgen@example.org", "set-aside"),
                                                                 ("bob@example.org", "sent")]
    assert "needs SMTPUTF8 (RFC 6531), which the server 127.0.0.1 does not offer" in messages[0]["error"]
    assert again.exit_code == 0 and [m["state"] for m in json.loads(again.stdout)["messages"]] == ["sent"]
    assert sorted(to[0] for _, to, _ in smtp.messages) == ["bob@example.org", "carol@example.org"]
    listed = json.loads(pbem("mail", "outbox", "--json").stdout)
    assert [(m["recipient"], m["state"], m["attempts"]) for m in listed] == [("jürgen@example.org", "set-aside", 1)]
    assert "SMTPUTF8" in listed[0]["error"]
    plain = pbem("mail", "outbox")
    assert "SET-ASIDE jürgen@example.org" in plain.stdout and "SMTPUTF8" in plain.stdout


def test_a_message_that_breaks_the_transport_is_set_aside_and_the_next_goes_out(tmp_path):
    """Whatever one message raises (here a bug-like ValueError), the outbox records it and goes on."""
    from datetime import datetime, timezone

    from sqlmodel import select

    from pbem.gm.outgoing import deliver
    from pbem.mail.outbox import queue
    from pbem.store.games import Store
    from pbem.store.mail import MailOutgoing

    at = datetime(2026, 12, 1, 20, tzinfo=timezone.utc)

    class Breaking:
        sent: list[str] = []

        def send(self, row, data):
            if row.recipient.startswith("broken"):
                raise ValueError("cannot encode this")
            self.sent.append(row.recipient)

    store = Store(f"sqlite:///{tmp_path / 'pbem.db'}")
    try:
        with store.session() as session:
            for name in ("broken", "alice"):
                queue(session, mail("gm@example.org", "x", f"<{name}@pbem>").replace(
                    b"To: Game Master <gm@example.org>", f"To: {name}@example.org".encode()), "file", at)
            session.commit()
            results = deliver(session, Breaking(), at)
            states = [(r.recipient, r.state) for r in session.exec(select(MailOutgoing).order_by(MailOutgoing.id))]
    finally:
        store.close()
    assert [r.state for r in results] == ["set-aside", "sent"] and "ValueError: cannot encode this" in results[0].error
    assert states == [("broken@example.org", "set-aside"), ("alice@example.org", "sent")]


def test_a_stranger_answered_at_a_non_ascii_address_blocks_nothing(gm, monkeypatch):
    """The issue's spam case: `answer_unknown: true` and a stranger writing from a non-ASCII local part. Their
    reply is set aside on a server without SMTPUTF8; the players' mail behind it goes out, now and later."""
    import mailbox

    pbem, cert, key, port, folder = gm
    config = folder / "mail.yaml"
    config.write_text(config.read_text() + "answer_unknown: true\n")
    inbox = mailbox.Maildir(str(folder / "inbox"), create=True)
    inbox.add(mail("Spammer <zoë@example.org>", "buy now", "<spam@x>"))
    assert pbem("mail", "fetch", "--maildir", folder / "inbox").exit_code == 0
    smtp = SmtpServer(cert, key, port=port).start()
    try:
        sent = pbem("mail", "send", "--game", "spring", "--json")
    finally:
        smtp.stop()
    states = [(m["recipient"], m["state"]) for m in json.loads(sent.stdout)["messages"]]
    assert ("zoë@example.org", "set-aside") in states and states.count(("bob@example.org", "sent")) == 1
    assert len(smtp.messages) == len(states) - 2  # all but the stranger's reply and alice's (jürgen) sheet
