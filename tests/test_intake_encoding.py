"""Message identity ignores the transport's encoding (#37): one order mail of alice's (Thunderbird-shaped) read
first with CRLF from a Maildir or an IMAP folder, then with LF from an mbox — with a trailing newline more, or its
unchanged body sent quoted-printable or base64 — is one message: accepted once, one order version, one
acknowledgement, and the second read is a duplicate. A real edit of the body under the same Message-ID is a new
message. Through the real paths: `pbem mail fetch` in a child process, the IMAP folder on the loopback server."""
from __future__ import annotations

import hashlib
import json
import mailbox
from datetime import datetime, timezone
from email.message import EmailMessage
from email.policy import SMTP

import pytest
from cli_process import run_pbem
from mail_fixtures import new_campaign, orders_text
from mail_servers import PASSWORD, USER, ImapServer, certificate
from sqlmodel import Session, create_engine
from test_intake_identity import counts

from pbem.store.mail import MailReceived

MESSAGE_ID = "<3f2a9c1e-77b1-4c3e-9d0a-5b1e2c9f4a10@example.org>"


def thunderbird(body: str, encoding: str | None = None) -> bytes:
    """Alice's orders as Thunderbird sends them (CRLF on the wire), the body in `encoding` (default: 7bit)."""
    message = EmailMessage(policy=SMTP)
    message["From"] = "Alice <alice@example.org>"
    message["To"] = "Game Master <gm@example.org>"
    message["Subject"] = "orders turn 1"
    message["Message-ID"] = MESSAGE_ID
    message["User-Agent"] = "Mozilla/5.0 (X11; Linux x86_64; rv:128.0) Gecko/20100101 Thunderbird/128.5.0"
    message.set_content(body, cte=encoding) if encoding else message.set_content(body)
    return message.as_bytes()


def body(hand: list[str], edited: bool = False) -> str:
    cards = [hand[1], hand[0], hand[2], hand[3]] if edited else hand[:4]
    return f"Hi GM,\n\nhere are mine — wish me luck:\n\n{orders_text('alice', cards)}\nAlice\n"


def as_lf(data: bytes) -> bytes:
    return data.replace(b"\r\n", b"\n")


READ_AGAIN = {  # the second read, from an mbox (LF): the same message, or (edited) a new one
    "lf": lambda hand: as_lf(thunderbird(body(hand))),
    "lf-trailing-newline": lambda hand: as_lf(thunderbird(body(hand))) + b"\n\n",
    "no-trailing-newline": lambda hand: as_lf(thunderbird(body(hand))).rstrip(b"\n"),
    "quoted-printable": lambda hand: as_lf(thunderbird(body(hand), "quoted-printable")),
    "base64": lambda hand: as_lf(thunderbird(body(hand), "base64")),
    "edited": lambda hand: as_lf(thunderbird(body(hand, edited=True))),
}


def fetch(url: str, tmp_path, source: list, environment: dict) -> list[dict]:
    result = run_pbem("--db", url, "mail", "fetch", *source, "--json", cwd=tmp_path, env=environment)
    return json.loads(result.stdout)


def read_again_from_mbox(url: str, tmp_path, data: bytes) -> list[dict]:
    box = mailbox.mbox(str(tmp_path / "in.mbox"))
    box.add(data)
    box.close()
    return fetch(url, tmp_path, ["--mbox", tmp_path / "in.mbox"], {})


def expect(second: list[dict], variant: str, url: str) -> None:
    assert [h["outcome"] for h in second] == ["accepted" if variant == "edited" else "duplicate"], second
    assert counts(url) == ((2, 2) if variant == "edited" else (1, 1))  # order versions, acknowledgements


@pytest.mark.parametrize("variant", list(READ_AGAIN))
def test_a_maildir_message_read_again_from_an_mbox_is_one_message(tmp_path, variant):
    url, hands = new_campaign(tmp_path)
    first = thunderbird(body(hands["alice"]))
    assert b"\r\n" in first
    mailbox.Maildir(str(tmp_path / "inbox"), create=True).add(first)
    assert [h["outcome"] for h in fetch(url, tmp_path, ["--maildir", tmp_path / "inbox"], {})] == ["accepted"]
    again = READ_AGAIN[variant](hands["alice"])
    assert b"\r\n" not in again
    expect(read_again_from_mbox(url, tmp_path, again), variant, url)


@pytest.mark.parametrize("variant", ["lf", "base64", "edited"])
def test_an_imap_message_read_again_from_an_mbox_is_one_message(tmp_path, tmp_path_factory, variant):
    url, hands = new_campaign(tmp_path)
    cert, key = certificate(tmp_path_factory.mktemp("tls"))
    server = ImapServer(cert, key)
    (tmp_path / "mail.yaml").write_text(f"imap: {{host: 127.0.0.1, port: {server.port}, tls: starttls, "
                                        f"user: {USER}, cafile: {cert}, timeout: 20}}\n")
    environment = {"PBEM_MAIL_CONFIG": str(tmp_path / "mail.yaml"), "PBEM_IMAP_PASSWORD": PASSWORD}
    try:
        server.deliver(thunderbird(body(hands["alice"]), "quoted-printable"))
        assert [h["outcome"] for h in fetch(url, tmp_path, ["--imap"], environment)] == ["accepted"]
        expect(read_again_from_mbox(url, tmp_path, READ_AGAIN[variant](hands["alice"])), variant, url)
        server.deliver(thunderbird(body(hands["alice"])))  # the same message again, 7bit, in the IMAP folder
        assert [h["outcome"] for h in fetch(url, tmp_path, ["--imap"], environment)] == ["duplicate", "duplicate"]
    finally:
        server.stop()
    expect([{"outcome": "accepted" if variant == "edited" else "duplicate"}], variant, url)


def test_a_message_handled_before_the_new_identity_is_still_a_duplicate(tmp_path):
    """A database from before #37 names a message by its raw body's digest; after the upgrade, the same message
    still in the Maildir is not handled again."""
    url, hands = new_campaign(tmp_path)
    data = thunderbird(body(hands["alice"]))
    raw_body = data.split(b"\r\n\r\n", 1)[1]
    old_key = f"{MESSAGE_ID} sha256:{hashlib.sha256(raw_body).hexdigest()[:32]}"
    engine = create_engine(url)
    with Session(engine) as session:
        session.add(MailReceived(key=old_key, message_id=MESSAGE_ID, received_at=datetime(2026, 11, 2,
                                                                                         tzinfo=timezone.utc),
                                 origin="maildir", archived="x", sender="alice@example.org", size=len(data),
                                 outcome="accepted", kind="orders", detail="[]"))
        session.commit()
    engine.dispose()
    mailbox.Maildir(str(tmp_path / "inbox"), create=True).add(data)
    assert [h["outcome"] for h in fetch(url, tmp_path, ["--maildir", tmp_path / "inbox"], {})] == ["duplicate"]
