"""One identity for a message in every inbox kind (#29): its Message-ID with a digest of its body. A broken mail
program reusing one Message-ID for three different messages (the first two of equal size) gets three versions
stored and three acknowledgements, from a Maildir, an mbox and an IMAP folder alike; a message handled before is
named as a duplicate in the plain output of `pbem mail fetch`, and over IMAP is not downloaded again."""
from __future__ import annotations

import json
import mailbox

import pytest
from cli_process import run_pbem
from mail_fixtures import mail, new_campaign, orders_text
from mail_servers import PASSWORD, USER, ImapServer, certificate
from sqlmodel import Session, create_engine, select

from pbem.store.mail import MailOutgoing
from pbem.store.tables import OrderVersion


def three_versions(hand: list[str], trial: int) -> list[bytes]:
    """Three order mails of alice's under one Message-ID: the same four cards in three orders (equal sizes)."""
    first, second, third = ([hand[0], hand[1], hand[2], hand[3]], [hand[1], hand[0], hand[3], hand[2]],
                            [hand[2], hand[3], hand[0], hand[1]])
    bodies = [orders_text("alice", cards) for cards in (first, second, third)]
    assert len(bodies[0]) == len(bodies[1]) and bodies[0] != bodies[1]
    return [mail("alice@example.org", body, f"<reused-{trial}@broken.example>") for body in bodies]


def counts(url: str) -> tuple[int, int]:
    engine = create_engine(url)
    with Session(engine) as session:
        versions = len(session.exec(select(OrderVersion)).all())
        acks = len(session.exec(select(MailOutgoing).where(MailOutgoing.purpose == "ack")).all())
    engine.dispose()
    return versions, acks


@pytest.mark.parametrize("kind, trials", [("maildir", 9), ("mbox", 9), ("imap", 1),
                                          pytest.param("imap", 9, marks=pytest.mark.slow)])  # ~50 s on 2 cores
def test_a_reused_message_id_with_new_bodies_is_three_messages_in_every_inbox_kind(tmp_path, tmp_path_factory,
                                                                                   kind, trials):
    url, hands = new_campaign(tmp_path)
    environment = {}
    server = None
    if kind == "imap":
        cert, key = certificate(tmp_path_factory.mktemp("tls"))
        server = ImapServer(cert, key)
        (tmp_path / "mail.yaml").write_text(f"imap: {{host: 127.0.0.1, port: {server.port}, tls: starttls, "
                                            f"user: {USER}, cafile: {cert}, timeout: 20}}\n")
        environment = {"PBEM_MAIL_CONFIG": str(tmp_path / "mail.yaml"), "PBEM_IMAP_PASSWORD": PASSWORD}
    source = {"maildir": ["--maildir", tmp_path / "inbox"], "mbox": ["--mbox", tmp_path / "in.mbox"],
              "imap": ["--imap"]}[kind]
    try:
        for trial in range(trials):
            messages = three_versions(hands["alice"], trial)
            if kind == "maildir":
                box = mailbox.Maildir(str(tmp_path / "inbox"), create=True)
                for data in messages:
                    box.add(data)
            elif kind == "mbox":
                box = mailbox.mbox(str(tmp_path / "in.mbox"))
                for data in messages:
                    box.add(data)
                box.close()
            else:
                server.deliver(*messages)
            result = run_pbem("--db", url, "mail", "fetch", *source, "--json", cwd=tmp_path, env=environment)
            handled = json.loads(result.stdout)
            new = [h for h in handled if h["outcome"] != "duplicate"]
            assert [h["outcome"] for h in new] == ["accepted"] * 3, (trial, handled)
            assert len({h["key"] for h in new}) == 3
            assert counts(url) == (3 * (trial + 1), 3 * (trial + 1))  # every version stored, every one answered
        again = run_pbem("--db", url, "mail", "fetch", *source, cwd=tmp_path, env=environment)
    finally:
        if server is not None:
            server.stop()
    duplicates = [line for line in again.stdout.splitlines() if line.startswith("DUPLICATE")]
    assert len(duplicates) == 3 * trials and all("<reused-" in line for line in duplicates), again.stdout
    assert counts(url) == (3 * trials, 3 * trials)
