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
from typing import Any, BinaryIO, Callable, Iterator

from ..formats.bounded import check_regular
from ..formats.problems import FormatError
from .config import Server
from .connect import connect
from .identity import letter_keys, parse_message_id, stub_keys

_SIZE = re.compile(rb"RFC822\.SIZE (\d+)")
HEAD_BYTES = 64 * 1024  # what is read of a message over the size limit: enough for any honest header


@dataclass
class Incoming:
    origin: str
    data: bytes  # the message; for one over the size limit, only its head
    done: Callable[[], None] = lambda: None
    seen: str | None = None  # the key of a message handled before, known without downloading it
    size: int = -1  # the message's size in bytes (-1: len(data), the whole message)
    keys: tuple[str, ...] = ()  # a message over the size limit: its key, and an older pbem's (identity.stub_keys)

    def __post_init__(self) -> None:
        self.size = len(self.data) if self.size < 0 else self.size

    @property
    def whole(self) -> bool:
        return self.size == len(self.data)


class ArchiveError(OSError):
    """The archive could not keep a message (a full disk, no permission): said as the archive's fault, with its
    path and the fix, not as an inbox that cannot be read. The message stays in the inbox, unhandled."""

    def __init__(self, folder: Path, err: OSError) -> None:
        super().__init__(err.errno, err.strerror)
        self.folder = folder

    def __str__(self) -> str:
        return (f"cannot keep a message in the archive {self.folder}: {self.strerror}. Nothing was lost: the "
                "message stays in the inbox, unhandled. Free space there (or give --archive another folder) "
                "and fetch again.")


def archive(folder: Path, data: bytes) -> str:
    """Keep the message in the archive Maildir; its file name there (made by `mailbox`, never from the message).
    A folder the GM made beforehand (empty, or holding only some of new/ cur/ tmp/) is completed, not refused."""
    try:
        for sub in ("tmp", "new", "cur"):
            (folder / sub).mkdir(parents=True, exist_ok=True)
        return mailbox.Maildir(str(folder), create=False).add(data)
    except OSError as err:
        raise ArchiveError(folder, err) from err


def bounded(origin: str, stream: BinaryIO, max_bytes: int, done: Callable[[], None] = lambda: None,
            size: int | None = None) -> Incoming:
    """The message in `stream` from where it stands (seekable; `size` bytes, else to its end): whole when within
    `max_bytes`, else its head and size."""
    data = stream.read(max_bytes + 1 if size is None else min(size, max_bytes + 1))
    if len(data) <= max_bytes:
        return Incoming(origin, data, done)
    if size is None:
        stream.seek(0, os.SEEK_END)
        size = stream.tell()
    return Incoming(origin, data[:HEAD_BYTES], done, size=size, keys=stub_keys(data[:HEAD_BYTES], size))


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
    """The messages of an mbox file, each the lines after its `From ` line up to the next one (the blank line
    before it aside). The file is scanned in bounded pieces and each message read as `bounded` reads it, so
    neither a huge message nor a huge file without line breaks is held in memory; a file that is not regular,
    or does not begin with a `From ` line, is refused unread."""
    if not path.exists():
        raise FileNotFoundError(f"{path}: no such mbox file")
    try:
        check_regular(path)
    except FormatError as err:
        raise OSError("; ".join(str(problem) for problem in err.problems)) from None
    origin = f"mbox {path}"
    with path.open("rb") as file:
        if file.read(5) not in (b"", b"From "):
            raise OSError(f"{path}: not an mbox file (it does not begin with a `From ` line): not read")
        file.seek(0)
        spans = list(_mbox_spans(file))
        for start, stop in spans:
            file.seek(start)
            yield bounded(origin, file, max_bytes, size=stop - start)


def _mbox_spans(file: BinaryIO) -> Iterator[tuple[int, int]]:
    """Where each message of an mbox lies, read in lines of at most HEAD_BYTES (a longer one in pieces)."""
    start: int | None = None
    position, at_line_start, in_from_line, last_was_empty = 0, True, False, False
    for line in iter(lambda: file.readline(HEAD_BYTES), b""):
        if at_line_start and line.startswith(b"From "):
            if start is not None:
                yield start, position - last_was_empty
            start, in_from_line = None, True
        last_was_empty = at_line_start and line == b"\n"
        at_line_start = line.endswith(b"\n")
        position += len(line)
        if in_from_line and at_line_start:
            start, in_from_line = position, False
    if start is not None:
        yield start, position - last_was_empty


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
                keys = stub_keys(header, size)
                yield Incoming(origin, header, done, keys[0] if any(map(known, keys)) else None, size, keys)
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


def _ok(reply: tuple[str, list[Any]], what: str) -> list[Any]:
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
