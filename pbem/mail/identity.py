"""What makes an incoming message the same message, wherever it is read from (issue #37).

A message with a Message-ID is named by it and by a digest of its content: each part's type, file name and
decoded bytes, with line endings made `\\n` and trailing blank space dropped. So the transport's encoding does
not make a new message: CRLF from a Maildir or IMAP and LF from an mbox, a trailing newline more or less, the
same text sent 7bit, quoted-printable or base64, or headers a relay added; a real edit of any part does. A
message without a usable Message-ID is named by a digest of all its bytes, line endings made `\\n`. The key an
older pbem gave (by the raw body's bytes) is still recognised, so a message handled before an upgrade is not
handled again.
"""
from __future__ import annotations

import hashlib
import re
from email import policy
from email.parser import BytesHeaderParser, BytesParser

_MESSAGE_ID = re.compile(r"^<[!-;=?-~]{1,250}>$")  # printable ASCII without < > or spaces
_LINE_END = re.compile(rb"\r+\n")  # CRLF (and a broken client's CR CR LF, which an mbox keeps as CR LF): LF
_HEADERS_NAMING = 32 * 1024  # of an over-size message's headers (LF line ends): within any head read, CRLF or LF


def parse_message_id(value: object) -> str | None:
    text = str(value or "").strip()
    return text if _MESSAGE_ID.match(text) else None


def letter_keys(data: bytes) -> tuple[str, str]:
    """The message's key, and the key pbem gave it before issue #37 (a message handled then is known still)."""
    text = _LINE_END.sub(b"\n", data)
    message_id = _header_message_id(text)
    if message_id is None:
        return "sha256:" + _sha256(text.rstrip()), "sha256:" + _sha256(data)
    split = min((i for i in (data.find(b"\r\n\r\n"), data.find(b"\n\n")) if i >= 0), default=len(data))
    body = data[split:].lstrip(b"\r\n")
    return f"{message_id} content:{_content_digest(text)[:32]}", f"{message_id} sha256:{_sha256(body)[:32]}"


def letter_key(data: bytes) -> str:
    """The key the store records a message under (see the module's docstring)."""
    return letter_keys(data)[0]


def _header_message_id(data: bytes) -> str | None:
    try:
        return parse_message_id(BytesHeaderParser(policy=policy.default).parsebytes(data).get("Message-ID"))
    except Exception:  # a header too broken to read: the bytes alone identify the message
        return None


def _content_digest(data: bytes) -> str:
    """A digest of what the message says (`data` with LF line ends): each leaf part's type, file name and decoded
    content, line ends made LF and trailing blank space dropped."""
    digest = hashlib.sha256()
    try:
        for part in BytesParser(policy=policy.compat32).parsebytes(data).walk():
            if part.is_multipart():
                continue
            payload = part.get_payload(decode=True)
            content = payload if isinstance(payload, bytes) else b""
            for piece in (part.get_content_type(), str(part.get_filename() or "")):
                digest.update(piece.encode("utf-8", "replace") + b"\0")
            digest.update(_LINE_END.sub(b"\n", content).rstrip() + b"\0")
    except Exception:  # too broken to walk: its body's bytes
        return _sha256((data.partition(b"\n\n")[2] or data).rstrip())
    return digest.hexdigest()


def _sha256(data: bytes) -> str:
    return hashlib.sha256(data).hexdigest()


def header_of(data: bytes) -> bytes:
    """The header section of a message (or of its head), up to and with the blank line that ends it."""
    ends = [i + len(gap) for gap in (b"\r\n\r\n", b"\n\n") if (i := data.find(gap)) >= 0]
    return data[:min(ends, default=len(data))]


def stub_keys(head: bytes, size: int) -> tuple[str, str]:
    """The key of a message over the size limit, which is never read whole, and the key pbem gave it before. Its
    raw header section names it: the Message-ID, if any, with a digest of the headers, line ends made `\\n` — not
    its size nor where the head was cut, which line ends change: the same message read from a Maildir, an mbox or
    IMAP (CRLF or LF) is one message, refused once."""
    message_id = _header_message_id(head)
    named = f"{message_id} " if message_id else ""
    headers = header_of(_LINE_END.sub(b"\n", head))[:_HEADERS_NAMING].rstrip()
    before = f"{named}sha256:{_sha256(header_of(head))[:32]} size:{size}"
    return f"{named}oversize sha256:{_sha256(headers)[:32]}", before
