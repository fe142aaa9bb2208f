"""Where messages come from (a Maildir, an mbox file, an IMAP folder) and the archive they all go to.

Each inbox yields `Incoming` messages in a stable order; `done()` marks one as
read where the inbox allows it (Maildir: moved to `cur/` and flagged seen;
IMAP: flagged \\Seen; an mbox file is left as it is). Which messages were
handled is remembered in the database, not in the inbox, so a message read in
a mail client meanwhile is still processed, and one seen before is skipped.
IMAP asks for the Message-ID first and downloads only messages not seen before.
"""
from __future__ import annotations

import imaplib
import mailbox
import os
import re
from dataclasses import dataclass
from email import policy
from email.parser import BytesHeaderParser
from functools import partial
from pathlib import Path
from typing import Callable, Iterator

from .config import Server
from .connect import connect
from .letters import parse_message_id

_SIZE = re.compile(rb"RFC822\.SIZE (\d+)")


@dataclass
class Incoming:
    origin: str
    data: bytes
    done: Callable[[], object] = lambda: None  # marks it read where it came from
    seen: str | None = None  # the key of a message handled before, known without downloading it


def archive(folder: Path, data: bytes) -> str:
    """Keep the message in the archive Maildir; its file name there (made by `mailbox`, never from the message).
    A folder the GM made beforehand (empty, or holding only some of new/ cur/ tmp/) is completed, not refused."""
    for sub in ("tmp", "new", "cur"):
        (folder / sub).mkdir(parents=True, exist_ok=True)
    return mailbox.Maildir(str(folder), create=False).add(data)


def maildir_messages(folder: Path) -> Iterator[Incoming]:
    """Messages in new/ and cur/ in order of delivery (the file's time, then its name: a later version of a
    player's orders must come later); done() moves one from new/ to cur/ as seen."""
    if not (folder / "new").is_dir() or not (folder / "cur").is_dir():
        raise FileNotFoundError(f"{folder} is not a Maildir (no new/ and cur/ folders)")
    listed = sorted((entry.stat().st_mtime_ns, entry.name, sub) for sub in ("new", "cur")  # before any moves
                    for entry in os.scandir(folder / sub) if entry.is_file() and not entry.name.startswith("."))
    for _, name, sub in listed:
        path = folder / sub / name
        try:
            data = path.read_bytes()
        except FileNotFoundError:  # moved meanwhile (by a mail client): it is found again next time
            continue
        yield Incoming(f"maildir {folder}", data,
                       partial(_mark_seen, path) if sub == "new" else _nothing)


def _nothing() -> None:
    pass


def _mark_seen(path: Path) -> None:
    if path.exists():
        path.rename(path.parent.parent / "cur" / (path.name.split(":")[0] + ":2,S"))


def mbox_messages(path: Path) -> Iterator[Incoming]:
    if not path.is_file():
        raise FileNotFoundError(f"{path}: no such mbox file")
    box = mailbox.mbox(str(path), create=False)
    try:
        for key in box.keys():
            yield Incoming(f"mbox {path}", box.get_bytes(key))
    finally:
        box.close()


def imap_messages(server: Server, known: Callable[[str, int], bool]) -> Iterator[Incoming]:
    """Every message in the folder not handled before (`known(message_id, size)` asks, so a handled message is
    not downloaded again); done() flags it \\Seen."""
    connection = connect(server, imaplib.IMAP4, imaplib.IMAP4_SSL, "ssl_context")
    origin = f"imap {server.host}:{server.port}/{server.folder}"
    try:
        _ok(connection.select(_quoted(server.folder)), f"cannot open folder {server.folder}")
        uids = _ok(connection.uid("SEARCH", None, "ALL"), "search failed")[0].split()
        for uid in uids:
            envelope, header = _fetched(connection, uid, "(RFC822.SIZE BODY.PEEK[HEADER.FIELDS (MESSAGE-ID)])")
            size = _SIZE.search(envelope)
            message_id = _message_id(header)
            seen = message_id if message_id and size and known(message_id, int(size.group(1))) else None
            data = b"" if seen else _fetched(connection, uid, "(BODY.PEEK[])")[1]
            yield Incoming(origin, data, partial(connection.uid, "STORE", uid.decode(), "+FLAGS", "(\\Seen)"), seen)
    finally:
        try:
            connection.logout()
        except (OSError, imaplib.IMAP4.error):
            pass


def _quoted(folder: str) -> str:
    return '"' + folder.replace("\\", "\\\\").replace('"', '\\"') + '"'


def _ok(reply: tuple, what: str) -> list:
    status, data = reply
    if status != "OK":
        raise imaplib.IMAP4.error(f"{what}: {data!r}")
    return data


def _message_id(header: bytes) -> str | None:
    try:
        return parse_message_id(BytesHeaderParser(policy=policy.default).parsebytes(header).get("Message-ID"))
    except Exception:  # unreadable: the message is downloaded and judged like any other
        return None


def _fetched(connection: imaplib.IMAP4, uid: bytes, items: str) -> tuple[bytes, bytes]:
    """The FETCH response's item line and its literal (the requested bytes)."""
    for part in _ok(connection.uid("FETCH", uid.decode(), items), f"cannot fetch message {uid.decode()}"):
        if isinstance(part, tuple):
            return part[0], part[1]
    raise imaplib.IMAP4.error(f"message {uid.decode()} came back empty")
