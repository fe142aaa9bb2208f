"""A GM's desk for death matches by mail in tests: the database, a Maildir inbox, the outbox, and `pbem` run at a
given time. Players' mails carry a `Received:` stamp (RULES D5: an action counts when the server received it)."""
from __future__ import annotations

import json
import os
import re
from contextlib import contextmanager
from datetime import datetime, timezone
from email import message_from_bytes, policy
from email.utils import format_datetime
from pathlib import Path
from typing import Any, Iterator

from mail_fixtures import mail
from sqlmodel import Session, create_engine, select
from typer.testing import CliRunner

from pbem.cli import app
from pbem.store.mail import MailOutgoing

RUNNER = CliRunner()
DAY = "2026-12-01T"


class Desk:
    """With `imap` and `smtp` (tests/mail_servers.py, their config in force) mail goes through the loopback servers;
    without, through a Maildir. Either way `new_mail` reads what the outbox queued, in order."""

    def __init__(self, folder: Path, imap=None, smtp=None):
        self.folder, self.imap, self.smtp = folder, imap, smtp
        self.url = f"sqlite:///{folder / 'pbem.db'}"
        self.inbox = folder / "inbox"
        for sub in ("new", "cur", "tmp"):
            (self.inbox / sub).mkdir(parents=True, exist_ok=True)
        self.delivered = 0
        self.seen = 0  # the last outbox row read by new_mail

    def pbem(self, *args, now: str | None = None):
        stamp = ["--now", moment(now).isoformat()] if now else []
        result = RUNNER.invoke(app, ["--db", self.url, *stamp, *[str(a) for a in args]])
        if result.exception is not None and not isinstance(result.exception, SystemExit):
            raise result.exception
        return result

    def send(self, player: str, body: str, received: str) -> None:
        """A player's mail, received by the GM's server at `received` (a time of DAY), in the Maildir."""
        self.deliver(mail(f"{player} <{player}@example.org>", body, f"<m{self.delivered + 1}-{player}@example.org>"),
                     received)

    def deliver(self, data: bytes, received: str) -> None:
        """A whole message as a mail program sent it, received by the GM's server at `received` (a time of DAY, or a
        whole ISO 8601 time in UTC)."""
        self.delivered += 1
        stamp = f"Received: from mx.example.org by gm.example.org; {format_datetime(moment(received))}\r\n".encode()
        if self.imap is not None:
            self.imap.deliver(stamp + data)
            return
        path = self.inbox / "new" / f"{self.delivered:05d}.mail"
        path.write_bytes(stamp + data)
        os.utime(path, ns=(self.delivered * 10**9, self.delivered * 10**9))  # delivery order

    def run(self, now: str) -> list[dict]:
        result = self.pbem("run", *self.reading(), "--json", now=now)
        assert result.exit_code in (0, 1), result.output
        return json.loads(result.stdout)["done"]

    def gm(self, *args, now: str):
        """A GM command that reads the inbox first (the same Maildir as the run)."""
        return self.pbem("dm", *args, *self.reading(), "--out", self.folder, now=now)

    def reading(self) -> list:
        """Where `pbem run` and GM commands read mail: the Maildir, or (no option) the configured IMAP server."""
        return [] if self.imap is not None else ["--maildir", self.inbox]

    def all_sent(self) -> bool:
        """Every queued mail went out, and the SMTP server has exactly those."""
        with Session(create_engine(self.url)) as session:
            rows = session.exec(select(MailOutgoing)).all()
        return all(row.state == "sent" for row in rows) and len(self.smtp.messages) == len(rows)

    def position(self, match: str) -> dict:
        return json.loads(self.pbem("dm", "show", match, "--json", "--out", self.folder).stdout)

    def new_mail(self, with_time: bool = False) -> list[tuple]:
        """(recipient, subject, plain text[, the time it was queued, as HH:MM:SS]) of every mail queued since the
        last call, in order."""
        with Session(create_engine(self.url)) as session:
            rows = session.exec(select(MailOutgoing).where(MailOutgoing.id > self.seen).order_by(MailOutgoing.id)).all()
        found = []
        for row in rows:
            self.seen = row.id
            message = message_from_bytes(row.data, policy=policy.default)
            text = message.get_body(("plain",)).get_content().replace("\r\n", "\n")
            found.append((row.recipient, message["Subject"], text)
                         + ((row.queued_at.strftime("%H:%M:%S"),) if with_time else ()))
        return found


@contextmanager
def loopback_desk(folder: Path, tmp_path_factory: Any, monkeypatch: Any) -> Iterator[Desk]:
    """The GM's desk in `folder` on the loopback servers: `pbem run` reads the IMAP inbox and sends over SMTP; on
    leaving, every queued mail went out over SMTP, none twice."""
    from mail_servers import ImapServer, SmtpServer, certificate, use_loopback_servers

    monkeypatch.chdir(folder)
    cert, key = certificate(tmp_path_factory.mktemp("tls"))
    imap, smtp = ImapServer(cert, key), SmtpServer(cert, key).start()
    use_loopback_servers(monkeypatch, folder, cert, imap.port, smtp.port)
    try:
        desk = Desk(folder, imap, smtp)
        yield desk
        assert desk.all_sent()
    finally:
        imap.stop()
        smtp.stop()


def moment(when: str) -> datetime:
    """A time of DAY (`20:00:00`), or a whole ISO 8601 time (`2026-12-08T21:00:00`), in UTC."""
    return datetime.fromisoformat(when if "T" in when else DAY + when).replace(tzinfo=timezone.utc)


def reply_block(text: str) -> str | None:
    """The lines a mail offers under "Reply with these lines", as the player copies them (None: nothing offered)."""
    found = re.search(r"Reply with these lines \(one action\):\n((?:  .*\n?)+)", text)
    if found is None:
        return None
    return "".join(line[2:] + "\n" for line in found.group(1).splitlines())


def text_board(text: str) -> list[str]:
    """The text board of a mail: the lines between the headline and the first blank line after it."""
    return text.split("\n\n")[1].splitlines()
