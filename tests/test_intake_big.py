"""A message over `max_bytes` is never read whole (#29): refused from its headers, archived as a stub with its
headers and size, in a child process whose address space is capped at 500 MB while the Maildir holds a 300 MB
message (the sparse file costs no disk)."""
from __future__ import annotations

import json
import mailbox
import os
import subprocess
import sys
from pathlib import Path

import pytest
from cli_process import run_pbem
from mail_fixtures import mail, new_campaign, order_mail
from mail_servers import PASSWORD, USER, ImapServer, certificate
from sqlmodel import Session, create_engine, select

from pbem.store.mail import MailOutgoing, MailReceived

ROOT = Path(__file__).resolve().parent.parent
CAP = 500 * 1024 * 1024
BIG = 300 * 1024 * 1024
CHILD = """import atexit, os, resource, sys
resource.setrlimit(resource.RLIMIT_AS, (int(sys.argv[1]), int(sys.argv[1])))
def peak():  # VmHWM: this address space's own peak (ru_maxrss keeps the parent's across exec, siblings' too)
    line = next(l for l in open("/proc/self/status") if l.startswith("VmHWM:"))
    return int(line.split()[1]) * 1024
atexit.register(lambda: open(os.environ["PEAK_FILE"], "w").write(str(peak())))
from pbem.cli import main
sys.argv = ["pbem", *sys.argv[2:]]
main()
"""


def test_a_300_mb_message_is_refused_from_its_headers_and_archived_as_a_stub_under_a_500_mb_cap(tmp_path):
    url, hands = new_campaign(tmp_path)
    box = mailbox.Maildir(str(tmp_path / "inbox"), create=True)
    box.add(order_mail("alice", hands["alice"], "<small@alice>"))
    head = b"From: bob@example.org\nMessage-ID: <huge@bob>\nSubject: my orders, and a film\n\ngame: halls\n"
    path = tmp_path / "inbox" / "new" / "1.huge"
    with path.open("wb") as file:
        file.write(head)
        file.truncate(BIG)  # sparse: the rest reads as NUL bytes
    environment = {**os.environ, "PYTHONPATH": str(ROOT), "PBEM_MAIL_CONFIG": "", "PEAK_FILE": str(tmp_path / "peak")}
    child = subprocess.run([sys.executable, "-c", CHILD, str(CAP), "--db", url, "mail", "fetch", "--maildir",
                            str(tmp_path / "inbox"), "--json"], cwd=tmp_path, env=environment, capture_output=True,
                           text=True, timeout=300)
    assert child.returncode == 1, child.stderr  # refused, not killed, no MemoryError
    handled = {h["key"].split()[0]: h for h in json.loads(child.stdout)}
    assert handled["<small@alice>"]["outcome"] == "accepted"
    big = handled["<huge@bob>"]
    assert big["outcome"] == "refused" and f"the message is {BIG:,} bytes; the limit is 1,000,000" in big["reasons"][0]
    archive = mailbox.Maildir(str(tmp_path / "mail-archive"))
    [stub] = [archive.get_bytes(key) for key in archive.keys() if b"<huge@bob>" in archive.get_bytes(key)]
    assert stub.startswith(b"From: bob@example.org\nMessage-ID: <huge@bob>\nSubject: my orders, and a film")
    assert f"{BIG:,} bytes".encode() in stub and len(stub) < 1000
    engine = create_engine(url)
    with Session(engine) as session:
        assert session.exec(select(MailReceived.size).where(MailReceived.message_id == "<huge@bob>")).one() == BIG
    engine.dispose()
    assert int((tmp_path / "peak").read_text()) < CAP
    again = subprocess.run([sys.executable, "-c", CHILD, str(CAP), "--db", url, "mail", "fetch", "--maildir",
                            str(tmp_path / "inbox"), "--json"], cwd=tmp_path, env=environment, capture_output=True,
                           text=True, timeout=300)
    assert [h["outcome"] for h in json.loads(again.stdout)] == ["duplicate", "duplicate"]  # named the same again


@pytest.mark.parametrize("message_id", ["<film@bob>", None])
def test_an_over_size_message_read_from_a_maildir_an_mbox_and_imap_is_refused_once(tmp_path, tmp_path_factory,
                                                                                    message_id):
    """#37: its identity comes from its raw headers (line ends aside), not its size, which CRLF (a Maildir, IMAP)
    and LF (an mbox) change: refused, archived and answered once, a duplicate in the other two inboxes."""
    url, hands = new_campaign(tmp_path)
    data = mail("bob@example.org", "my orders are attached", message_id or "<dropped@bob>",
                attachments=(("film.yaml", "application/yaml", b"# a film\n" * 250_000),))  # 2.5 MB, CRLF
    if message_id is None:
        data = data.replace(b"Message-ID: <dropped@bob>\r\n", b"", 1)
    mailbox.Maildir(str(tmp_path / "inbox"), create=True).add(data)
    box = mailbox.mbox(str(tmp_path / "in.mbox"))
    box.add(data.replace(b"\r\n", b"\n"))  # as a mail server delivers to an mbox: LF line ends
    box.close()
    cert, key = certificate(tmp_path_factory.mktemp("tls"))
    server = ImapServer(cert, key)
    server.deliver(data)
    (tmp_path / "mail.yaml").write_text(f"imap: {{host: 127.0.0.1, port: {server.port}, tls: starttls, "
                                        f"user: {USER}, cafile: {cert}, timeout: 20}}\n")
    environment = {"PBEM_MAIL_CONFIG": str(tmp_path / "mail.yaml"), "PBEM_IMAP_PASSWORD": PASSWORD}
    outcomes = []
    try:
        for source in (["--maildir", "inbox"], ["--mbox", "in.mbox"], ["--imap"]):
            result = run_pbem("--db", url, "mail", "fetch", *source, "--json", cwd=tmp_path, env=environment)
            outcomes += [(h["outcome"], h["key"]) for h in json.loads(result.stdout)]
    finally:
        server.stop()
    assert [outcome for outcome, _ in outcomes] == ["refused", "duplicate", "duplicate"], outcomes
    assert len({key for _, key in outcomes}) == 1
    engine = create_engine(url)
    with Session(engine) as session:
        assert len(session.exec(select(MailReceived)).all()) == 1
        assert len(session.exec(select(MailOutgoing).where(MailOutgoing.purpose == "ack")).all()) == 1
    engine.dispose()
    assert len(mailbox.Maildir(str(tmp_path / "mail-archive")).keys()) == 1
