"""Where messages come from (a Maildir, an mbox file, an IMAP folder) and the archive they all go to.

Each inbox yields `Incoming` messages in a stable order; `done()` marks one as
read where the inbox allows it (Maildir: moved to `cur/` and flagged seen;
IMAP: flagged \\Seen; an mbox file is left as it is). Which messages were
handled is remembered in the database, not in the inbox, so a message read in
a mail client meanwhile is still processed, and one seen before is skipped.
IMAP asks for the Message-ID first and downloads only messages not seen before
(a Message-ID seen before: only the body, to tell a new message that reuses it).
A message over the size limit is never read whole: only its head (headers) and
its size, which name it, so memory stays bounded whatever the inbox holds.
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
from typing import BinaryIO, Callable, Iterator

from .config import Server
from .connect import connect
from .identity import letter_keys, parse_message_id, stub_key

_SIZE = re.compile(rb"RFC822\.SIZE (\d+)")
HEAD_BYTES = 64 * 1024  # what is read of a message over the size limit: enough for any honest header


@dataclass
class Incoming:
    origin: str
    data: bytes  # the message; for one over the size limit, only its head
    done: Callable[[], None] = lambda: None
    seen: str | None = None  # the key of a message handled before, known without downloading it
    size: int = -1  # the message's size in bytes (-1: len(data), the whole message)
    key: str | None = None  # the key of a message over the size limit (mail.identity.stub_key)

    def __post_init__(self) -> None:
        self.size = len(self.data) if self.size < 0 else self.size

    @property
    def whole(self) -> bool:
        return self.size == len(self.data)


def archive(folder: Path, data: bytes) -> str:
    """Keep the message in the archive Maildir; its file name there (made by `mailbox`, never from the message).
    A folder the GM made beforehand (empty, or holding only some of new/ cur/ tmp/) is completed, not refused."""
    for sub in ("tmp", "new", "cur"):
        (folder / sub).mkdir(parents=True, exist_ok=True)
    return mailbox.Maildir(str(folder), create=False).add(data)


def bounded(origin: str, stream: BinaryIO, max_bytes: int, done: Callable[[], None] = lambda: None) -> Incoming:
    """The message in `stream` (at its start, seekable): whole when within `max_bytes`, else its head and size."""
    data = stream.read(max_bytes + 1)
    if len(data) <= max_bytes:
        return Incoming(origin, data, done)
    stream.seek(0, os.SEEK_END)
    size = stream.tell()
    return Incoming(origin, data[:HEAD_BYTES], done, size=size, key=stub_key(data[:HEAD_BYTES], size))


def maildir_messages(folder: Path, max_bytes: int) -> Iterator[Incoming]:
    """Messages in new/ and cur/ in order of delivery (the file's time, then its name: a later version of a
    player's orders must come later); done() moves one from new/ to cur/ as seen."""
    if not (folder / "new").is_dir() or not (folder / "cur").is_dir():
        raise FileNotFoundError(f"{folder} is not a Maildir (no new/ and cur/ folders)")
    listed = sorted((entry.stat().st_mtime_ns, entry.name, sub) for sub in ("new", "cur")  # before any moves
                    for entry in os.scandir(folder / sub) if entry.is_file() and not entry.name.startswith("."))
    for _, name, sub in listed:
        path = folder / sub / name
        try:
            with path.open("rb") as stream:
                incoming = bounded(f"maildir {folder}", stream, max_bytes,
                                   partial(_mark_seen, path) if sub == "new" else _nothing)
        except FileNotFoundError:  # moved meanwhile (by a mail client): it is found again next time
            continue
        yield incoming


def _nothing() -> None:
    pass


def _mark_seen(path: Path) -> None:
    if path.exists():
        path.rename(path.parent.parent / "cur" / (path.name.split(":")[0] + ":2,S"))


def mbox_messages(path: Path, max_bytes: int) -> Iterator[Incoming]:
    if not path.is_file():
        raise FileNotFoundError(f"{path}: no such mbox file")
    box = mailbox.mbox(str(path), create=False)
    try:
        for key in box.keys():
            stream = box.get_file(key)
            try:
                yield bounded(f"mbox {path}", stream, max_bytes)  # type: ignore[arg-type]
            finally:
                stream.close()
    finally:
        box.close()


def imap_messages(server: Server, max_bytes: int, known: Callable[[str], bool],
                  known_id: Callable[[str], bool]) -> Iterator[Incoming]:
    """Every message in the folder not handled before, named as Maildir and mbox messages are: `known(key)` asks
    the store; the body is downloaded to tell a message only when its Message-ID is `known_id`, and a message over
    `max_bytes` is never downloaded whole. done() flags it \\Seen."""
    connection = connect(server, imaplib.IMAP4, imaplib.IMAP4_SSL, "ssl_context")
    origin = f"imap {server.host}:{server.port}/{server.folder}"
    try:
        _ok(connection.select(_quoted(server.folder)), f"cannot open folder {server.folder}")
        uids = _ok(connection.uid("SEARCH", None, "ALL"), "search failed")[0].split()
        for uid in uids:
            envelope, header = _fetched(connection, uid, "(RFC822.SIZE BODY.PEEK[HEADER])")
            found = _SIZE.search(envelope)
            size = int(found.group(1)) if found else -1
            done = (lambda u=uid: connection.uid("STORE", u, "+FLAGS", "(\\Seen)"))
            if size > max_bytes:
                key = stub_key(header, size)
                yield Incoming(origin, header, done, key if known(key) else None, size, key)
                continue
            message_id = _message_id(header)
            if message_id and known_id(message_id):
                keys = letter_keys(header + _fetched(connection, uid, "(BODY.PEEK[TEXT])")[1])
                if any(known(key) for key in keys):
                    yield Incoming(origin, b"", done, keys[0])
                    continue
            yield Incoming(origin, _fetched(connection, uid, "(BODY.PEEK[])")[1], done)
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
    except Exception:
        return None


def _fetched(connection: imaplib.IMAP4, uid: bytes, items: str) -> tuple[bytes, bytes]:
    """The FETCH response's item line and its literal (the requested bytes)."""
    for part in _ok(connection.uid("FETCH", uid.decode(), items), f"cannot fetch message {uid.decode()}"):
        if isinstance(part, tuple):
            return part[0], part[1]
    raise imaplib.IMAP4.error(f"message {uid.decode()} came back empty")
