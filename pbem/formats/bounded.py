"""Reading a file or stream the user names, bounded before anything is read (issue #37).

Every command that reads a file it is given comes here: the file must be a regular file (a FIFO would block
until somebody writes to it, /dev/zero never ends, a folder is no file), no bigger than the limit by its size
on disk, and is then read no further than one byte past the limit (a file growing meanwhile is refused too).
A stream (standard input) is read no further than one byte past the limit; a file that must lie in a folder (a
template) is refused when it is a link pointing out of it. What is refused says what and why.
"""
from __future__ import annotations

import os
import stat
from pathlib import Path
from typing import BinaryIO

from .problems import FormatError, Problem

MAX_BYTES = 1_000_000
_KINDS = ((stat.S_ISFIFO, "a named pipe (FIFO)"), (stat.S_ISCHR, "a character device"),
          (stat.S_ISBLK, "a block device"), (stat.S_ISDIR, "a folder"), (stat.S_ISSOCK, "a socket"))


def _refused(source: str, message: str) -> FormatError:
    return FormatError([Problem(source, None, "", message)])


def check_regular(path: str | Path, max_bytes: int | None = None, limit: str = "the limit") -> int:
    """The size of the regular file at `path`, refused (FormatError) unopened when it is anything else or, with
    `max_bytes`, bigger than that (`limit` names what the bound is, for the message)."""
    try:
        info = os.stat(path)
    except OSError as err:
        raise _refused(str(path), f"cannot read: {err.strerror}") from None
    _check(str(path), info, max_bytes, limit)
    return info.st_size


def _check(source: str, info: os.stat_result, max_bytes: int | None, limit: str = "the limit") -> None:
    kind = next((name for test, name in _KINDS if test(info.st_mode)), None)
    if kind is not None or not stat.S_ISREG(info.st_mode):
        raise _refused(source, f"{kind or 'a special file'}, not a regular file: not read")
    if max_bytes is not None and info.st_size > max_bytes:
        raise _refused(source, f"{info.st_size:,} bytes, more than {limit} ({max_bytes:,} bytes): not read")


def read_limited(path: str | Path, max_bytes: int = MAX_BYTES, limit: str = "the limit") -> bytes:
    """The bytes of the regular file at `path`, at most `max_bytes` (see the module's docstring). The file is
    opened without waiting (a FIFO swapped in after the check cannot block) and checked again once open."""
    source = str(path)
    try:
        descriptor = os.open(path, os.O_RDONLY | os.O_NONBLOCK | getattr(os, "O_NOCTTY", 0))
    except OSError as err:
        raise _refused(source, f"cannot read: {err.strerror}") from None
    with os.fdopen(descriptor, "rb") as file:
        _check(source, os.fstat(descriptor), max_bytes, limit)
        os.set_blocking(descriptor, True)
        return _limited(source, file, max_bytes)


def read_within(folder: str | Path, path: str | Path, max_bytes: int = MAX_BYTES, limit: str = "the limit") -> bytes:
    """`read_limited` for a file that must lie in `folder` (a template, say): a link pointing out of it is refused
    unread, naming where it points."""
    real, root = os.path.realpath(path), os.path.realpath(folder)
    if os.path.commonpath([real, root]) != root:
        raise _refused(str(path), f"a link to {real}, outside {folder}: not read")
    return read_limited(path, max_bytes, limit)


def read_stream(stream: BinaryIO, source: str, max_bytes: int = MAX_BYTES) -> bytes:
    """What `stream` holds (standard input, say), refused past `max_bytes` after reading one byte more."""
    return _limited(source, stream, max_bytes)


def _limited(source: str, stream: BinaryIO, max_bytes: int) -> bytes:
    data = stream.read(max_bytes + 1)
    if len(data) > max_bytes:
        raise _refused(source, f"more than the limit ({max_bytes:,} bytes): not read")
    return data


def decode(data: bytes, source: str, max_bytes: int = MAX_BYTES) -> str:
    """Bytes to text, refusing what is too large, binary or not UTF-8."""
    if len(data) > max_bytes:
        raise FormatError([Problem(source, None, "", f"more than {max_bytes} bytes; the limit is {max_bytes}")])
    if b"\x00" in data:
        raise FormatError([Problem(source, None, "", "binary data, not a text file")])
    try:
        return data.decode("utf-8-sig")
    except UnicodeDecodeError as err:
        raise FormatError([Problem(source, None, "", f"not UTF-8 text (byte {err.start})")]) from None
