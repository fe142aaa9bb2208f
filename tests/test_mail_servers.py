"""Against real servers on 127.0.0.1: `pbem mail send` over SMTP (STARTTLS, login) with retries, and a whole
turn by mail — orders fetched over IMAP (STARTTLS, login), the turn processed, reports, turn sheets and
acknowledgements sent — with a forged sender, a wrong secret, a duplicate and a 20 MB attachment."""
from __future__ import annotations

import json
import mailbox
import re
from email import message_from_bytes, policy

import pytest
from mail_fixtures import mail, new_campaign, order_mail
from mail_servers import PASSWORD, ImapServer, SmtpServer, TlsTunnel, certificate, reserved_port, use_loopback_servers
from typer.testing import CliRunner

from pbem.cli import app

RUNNER = CliRunner()


@pytest.fixture
def tls(tmp_path_factory):
    return certificate(tmp_path_factory.mktemp("tls"))


@pytest.fixture
def campaign(tmp_path, monkeypatch, tls):
    """A dealt halls game; `pbem …` runs in its folder with a mail config for loopback servers."""
    monkeypatch.chdir(tmp_path)
    url, hands = new_campaign(tmp_path)
    cert, _ = tls
    smtp_port, imap_port = reserved_port(), reserved_port()
    use_loopback_servers(monkeypatch, tmp_path, cert, imap_port, smtp_port)

    def pbem(*args):
        result = RUNNER.invoke(app, ["--db", url, *[str(a) for a in args]])
        return result.exit_code, result.stdout, result.stderr
    return pbem, hands, smtp_port, imap_port


@pytest.fixture
def servers():
    started = []
    yield started
    for server in reversed(started):
        server.stop()


def received(smtp) -> list[tuple[str, str, str]]:
    """(envelope recipient, To, Subject) of each message the SMTP server got."""
    return [(to[0], (m := message_from_bytes(data, policy=policy.default))["To"], m["Subject"])
            for _, to, data in smtp.messages]


def test_a_failed_send_is_retried_on_the_next_run_and_nothing_is_sent_twice(campaign, servers, tls, tmp_path):
    pbem, _, smtp_port, _ = campaign
    code, out, _ = pbem("mail", "send", "--game", "halls", "--json")  # no server listening yet
    result = json.loads(out)
    assert code == 1 and result["queued"] == 2
    assert [m["state"] for m in result["messages"]] == ["pending", "pending"]
    assert "ConnectionRefusedError" in result["messages"][0]["error"]
    waiting = json.loads(pbem("mail", "outbox", "--json")[1])
    assert [(m["state"], m["attempts"]) for m in waiting] == [("pending", 1), ("pending", 1)]

    code, out, _ = pbem("mail", "send", "--game", "halls", "--dry-run", "--out", tmp_path / "dry", "--json")
    assert code == 0 and json.loads(out)["queued"] == 0  # queued once already (same Message-IDs)
    assert len(list((tmp_path / "dry").glob("*.eml"))) == 2

    smtp = SmtpServer(*tls, port=smtp_port).start()
    servers.append(smtp)
    code, out, _ = pbem("mail", "send", "--json")
    assert code == 0 and [m["state"] for m in json.loads(out)["messages"]] == ["sent", "sent"]
    assert received(smtp) == [("alice@example.org", "alice@example.org", "halls: turn 1 cards for alice"),
                              ("bob@example.org", "bob@example.org", "halls: turn 1 cards for bob")]
    first = message_from_bytes(smtp.messages[0][2], policy=policy.default)
    assert first["Date"] and "secret: \"s-alice\"" in first.get_body(("plain",)).get_content()

    code, out, _ = pbem("mail", "send", "--game", "halls", "--json")
    assert code == 0 and json.loads(out) == {"dry_run": False, "messages": [], "queued": 0}
    assert len(smtp.messages) == 2  # never sent twice
    assert json.loads(pbem("mail", "outbox", "--json")[1]) == []
    assert [(m["state"], m["attempts"]) for m in json.loads(pbem("mail", "outbox", "--all", "--json")[1])] == [
        ("sent", 2), ("sent", 2)]


def test_a_recipient_refused_for_good_is_marked_refused_and_not_retried(campaign, servers, tls, tmp_path):
    pbem, _, smtp_port, _ = campaign
    smtp = SmtpServer(*tls, port=smtp_port).start()
    servers.append(smtp)
    for name in ("nobody", "alice"):
        (tmp_path / f"{name}.eml").write_bytes(mail("gm@example.org", "report", f"<{name}@pbem>").replace(
            b"To: Game Master <gm@example.org>", f"To: {name}@example.org".encode()))
    code, out, _ = pbem("mail", "send", tmp_path / "nobody.eml", tmp_path / "alice.eml", "--json")
    messages = json.loads(out)["messages"]
    assert code == 1 and [(m["recipient"], m["state"]) for m in messages] == [
        ("nobody@example.org", "refused"), ("alice@example.org", "sent")]
    assert messages[0]["error"] == "550 5.1.1 no such user"
    code, out, _ = pbem("mail", "send", "--json")
    assert code == 0 and json.loads(out)["messages"] == [] and len(smtp.messages) == 1


def test_a_wrong_smtp_password_leaves_the_messages_pending(campaign, servers, tls, monkeypatch):
    pbem, _, smtp_port, _ = campaign
    smtp = SmtpServer(*tls, port=smtp_port).start()
    servers.append(smtp)
    monkeypatch.setenv("PBEM_SMTP_PASSWORD", "wrong")
    code, out, _ = pbem("mail", "send", "--game", "halls", "--json")
    assert code == 1 and {m["state"] for m in json.loads(out)["messages"]} == {"pending"}
    assert "SMTPAuthenticationError" in json.loads(out)["messages"][0]["error"] and smtp.messages == []


@pytest.mark.filterwarnings("ignore:Requiring AUTH while not requiring TLS")  # the TLS is implicit: aiosmtpd cannot tell
def test_smtp_over_implicit_tls(campaign, servers, tls, tmp_path, monkeypatch):
    pbem, _, smtp_port, _ = campaign
    smtp = SmtpServer(*tls, port=smtp_port, implicit_tls=True).start()
    servers.append(smtp)
    monkeypatch.setenv("PBEM_SMTP_TLS", "ssl")
    code, out, _ = pbem("mail", "send", "--game", "halls", "--json")
    assert code == 0 and len(smtp.messages) == 2


def test_an_untrusted_certificate_is_refused(campaign, servers, tls, tmp_path, monkeypatch):
    pbem, _, smtp_port, _ = campaign
    smtp = SmtpServer(*tls, port=smtp_port).start()
    servers.append(smtp)
    other, _ = certificate(tmp_path)  # not the server's
    monkeypatch.setenv("PBEM_SMTP_CAFILE", str(other))
    code, out, _ = pbem("mail", "send", "--game", "halls", "--json")
    assert code == 1 and "CERTIFICATE_VERIFY_FAILED" in json.loads(out)["messages"][0]["error"]
    assert smtp.messages == []


@pytest.mark.slow  # end to end: real IMAP and SMTP servers for a whole turn
def test_a_whole_turn_by_mail_over_imap_and_smtp(campaign, servers, tls, tmp_path):
    pbem, hands, smtp_port, imap_port = campaign
    imap = ImapServer(*tls)
    servers.append(imap)
    smtp = SmtpServer(*tls, port=smtp_port).start()
    servers.append(smtp)
    (tmp_path / "mail.yaml").write_text((tmp_path / "mail.yaml").read_text().replace(str(imap_port), str(imap.port)))

    alice = order_mail("alice", hands["alice"], "<t1@alice>")
    imap.deliver(
        alice,
        order_mail("bob", hands["bob"], "<t1@forger>", sender="alice@example.org"),  # alice's address, bob's orders
        order_mail("bob", hands["bob"], "<t2@forger>", secret="s-alice"),  # bob's address, a wrong secret
        alice,  # the same message again
        mail("bob@example.org", "my orders are attached", "<t3@bob>",
             attachments=(("orders.yaml", "application/yaml", b"#" * 20_000_000),)),  # 20 MB
        order_mail("bob", hands["bob"], "<t4@bob>"),
    )
    code, out, _ = pbem("mail", "fetch", "--imap", "--json")
    handled = [(h["key"].split()[0], h["outcome"]) for h in json.loads(out)]
    assert code == 1 and handled == [("<t1@alice>", "accepted"), ("<t1@forger>", "refused"),
                                     ("<t2@forger>", "refused"), ("<t1@alice>", "duplicate"),
                                     ("<t3@bob>", "refused"), ("<t4@bob>", "accepted")]
    code, out, _ = pbem("turn", "status", "halls", "--json")
    assert [p["latest"] for p in json.loads(out)["players"]] == [1, 1]
    archive = mailbox.Maildir(str(tmp_path / "mail-archive"))  # the 20 MB message: never downloaded, kept as a stub
    [stub] = [archive.get_bytes(key) for key in archive.keys() if b"<t3@bob>" in archive.get_bytes(key)]
    assert len(stub) < 10_000 and b"over the size limit" in stub

    assert pbem("turn", "process", "halls")[0] == 0
    assert pbem("turn", "deal", "halls")[0] == 0
    code, out, err = pbem("mail", "send", "--game", "halls", "--json")
    assert code == 0, err
    got = received(smtp)
    acks = [(to, subject) for to, _, subject in got if subject.startswith("[pbem")]
    assert acks == [("alice@example.org", "[pbem: orders accepted] orders"),
                    ("alice@example.org", "[pbem: orders refused] orders"),
                    ("bob@example.org", "[pbem: orders refused] orders"),
                    ("bob@example.org", "[pbem: message refused] orders"),
                    ("bob@example.org", "[pbem: orders accepted] orders")]
    assert [(to, subject) for to, _, subject in got if not subject.startswith("[pbem")] == [
        ("alice@example.org", "halls: turn 1 report for alice"), ("bob@example.org", "halls: turn 1 report for bob"),
        ("alice@example.org", "halls: turn 2 cards for alice"), ("bob@example.org", "halls: turn 2 cards for bob")]
    report = message_from_bytes(smtp.messages[5][2], policy=policy.default)
    assert report["Date"] and {part.get_content_type() for part in report.walk()} >= {"text/plain", "text/html",
                                                                                        "image/gif"}  # the turn
    big = message_from_bytes(smtp.messages[3][2], policy=policy.default).get_content()
    size = int(re.search(r"the message is ([\d,]+) bytes; the limit is 1,000,000", big).group(1).replace(",", ""))
    assert size > 20_000_000  # the 20 MB attachment, base64-encoded

    code, out, _ = pbem("mail", "fetch", "--imap", "--json")  # everything there was handled already
    assert code == 0 and {h["outcome"] for h in json.loads(out)} == {"duplicate"}
    with imap.client() as client:
        client.select("INBOX")
        assert len(client.search(None, "UNSEEN")[1][0].split()) == 0  # all marked read


def test_imap_over_implicit_tls_the_default(campaign, servers, tls, monkeypatch):
    pbem, hands, _, _ = campaign
    imap = ImapServer(*tls)
    servers.append(imap)
    tunnel = TlsTunnel(*tls, imap.port)
    servers.append(tunnel)
    imap.deliver(order_mail("alice", hands["alice"], "<s1@alice>"))
    monkeypatch.setenv("PBEM_IMAP_TLS", "ssl")
    monkeypatch.setenv("PBEM_IMAP_PORT", str(tunnel.port))
    monkeypatch.setenv("PBEM_IMAP_PASSWORD", "wrong")
    code, _, err = pbem("mail", "fetch", "--imap")
    assert code == 1 and "cannot read the inbox" in err
    monkeypatch.setenv("PBEM_IMAP_PASSWORD", PASSWORD)
    code, out, _ = pbem("mail", "fetch", "--imap", "--json")
    assert code == 0 and [h["outcome"] for h in json.loads(out)] == ["accepted"]
