"""Reading an incoming message: who sent it, and the order text in it.

The orders are a YAML attachment when there is one (or a text attachment
holding an order file, whatever its name), else the plain-text body
with quoted lines (`> …`), everything below a client's reply separator
(`separators.py`: Outlook's original-message block, "On … wrote:", forwarded
messages), everything before the first `game:` (or, for a death match,
`match:`) line and after the YAML (a signature, "thanks") blanked too, so
line numbers in errors are still the body's. A message over the size limit
is not parsed at all; an attachment that is not text refuses the message. Attachment names are only ever shown (cleaned), never used as paths.
"""
from __future__ import annotations

import re
import unicodedata
from dataclasses import dataclass, field
from datetime import datetime, timezone
from email import policy
from email.message import EmailMessage, Message
from email.parser import BytesHeaderParser, BytesParser
from email.utils import getaddresses, parsedate_to_datetime
from enum import StrEnum
from typing import Iterator

from ..formats.names import valid_address, written_address
from ..formats.wrapped import open_after
from .identity import header_of, letter_key, parse_message_id, stub_keys

YAML_TYPES = {"application/yaml", "application/x-yaml", "text/yaml", "text/x-yaml"}
_FIRST = re.compile(r"^(game|match)\s*:", re.MULTILINE)
_TOP_KEY = re.compile(r"^[A-Za-z_][\w-]*\s*:")
_COMMENT = re.compile(r"(^|\s)#")  # a YAML comment (a card's `FWD1#500` is not one)
MAX_NESTING = 20
# Parts that ride along with a message and are never orders: skipped without a word.
PASSENGERS = {"application/pkcs7-signature", "application/x-pkcs7-signature", "application/pgp-signature",
              "application/pgp-keys", "application/ms-tnef", "text/vcard", "text/x-vcard", "text/directory",
              "text/calendar"}


class LetterKind(StrEnum):
    """What a message holds, by its first field (`game:` orders, `match:` a death-match action), or a player's
    mail command (orders with `command:`, `address:` or `press:`); NONE: nothing pbem reads."""

    ORDERS = "orders"
    DM = "dm"
    COMMAND = "command"
    NONE = ""


@dataclass
class Letter:
    key: str  # see letter_key
    size: int
    sender: str | None  # the From address (lower case), None when missing or malformed
    subject: str
    message_id: str | None
    received_at: datetime  # when the GM's server received it (RULES D5)
    orders: str | None = None  # the order text (attachment or cleaned body)
    source: str = "your message"  # how errors name where the orders were
    problems: list[str] = field(default_factory=list)  # reasons to refuse before reading any orders
    ignored: list[str] = field(default_factory=list)  # attachments not read (not text), named for the reply
    automatic: bool = False  # an auto-reply or a bounce: never answered, so two robots cannot mail each other forever

    @property
    def kind(self) -> LetterKind:
        match = _FIRST.search(self.orders or "")
        return {"game": LetterKind.ORDERS, "match": LetterKind.DM}.get(match.group(1) if match else "", LetterKind.NONE)


def clean(text: str, limit: int = 100) -> str:
    """One line of printable text, for a header or a message: no control characters, no line breaks."""
    text = "".join(" " if unicodedata.category(c)[0] in "CZ" else c for c in str(text))
    text = " ".join(text.split())
    return text if len(text) <= limit else text[:limit - 1] + "…"


def sender_address(value: object) -> str | None:
    addresses = [address for _, address in getaddresses([str(value or "")]) if address]
    if len(addresses) != 1 or not valid_address(addresses[0]):
        return None
    return written_address(addresses[0]).lower()  # an IDNA domain (xn--…) in its own script, as players are kept


def read_letter(data: bytes, max_bytes: int, read_at: datetime, size: int | None = None) -> Letter:
    """Parse one message (`data` may be only the head of a message of `size` bytes over the limit: its headers
    are read, never its body). Anything the parser raises is the caller's to catch (`gm.intake.handle` guards each
    message); `letter_key` works on any bytes, so even a message that cannot be parsed is recorded and never read
    twice."""
    size = len(data) if size is None else size
    too_big = size > max_bytes
    parser = BytesHeaderParser if too_big else BytesParser
    message = parser(policy=policy.default).parsebytes(data)
    message_id = parse_message_id(_header(message, "Message-ID"))
    letter = Letter(stub_keys(data, size)[0] if too_big else letter_key(data), size, sender_address(_header(message, "From")),
                    clean(_header(message, "Subject")), message_id, received_at=received_time(message, read_at))
    letter.automatic = _header(message, "Auto-Submitted").strip().lower() not in ("", "no") \
        or _header(message, "Precedence").strip().lower() in ("bulk", "junk", "list") \
        or _header(message, "Return-Path").strip() == "<>"
    if too_big:
        letter.problems.append(f"the message is {size:,} bytes; the limit is {max_bytes:,}: "
                               "please send only the order file, as text")
        return letter
    _read_parts(message, letter)
    return letter


def stub(head: bytes, size: int) -> bytes:
    """What the archive keeps of a message over the size limit: its headers and a line saying how big it was."""
    return header_of(head).rstrip(b"\r\n") + f"\n\n(pbem kept only the headers of this message: {size:,} bytes, " \
        "over the size limit)\n".encode("ascii")


def received_time(message: EmailMessage, read_at: datetime) -> datetime:
    """When the GM's server received the message (RULES D5): the topmost `Received:` header's date, else `Date:`,
    never later than `read_at` (the time the CLI read its clock)."""
    for text in (_header(message, "Received").rpartition(";")[2], _header(message, "Date")):
        try:
            stamp = parsedate_to_datetime(text.strip())
        except (TypeError, ValueError, IndexError, OverflowError):
            continue
        if stamp is None:
            continue
        stamp = stamp if stamp.tzinfo else stamp.replace(tzinfo=timezone.utc)
        return min(stamp.astimezone(timezone.utc), read_at)
    return read_at


def _header(message: EmailMessage, name: str) -> str:
    try:
        return str(message.get(name) or "")
    except Exception:  # a header too broken to parse reads as absent
        return ""


def _leaves(message: Message, depth: int = 0) -> Iterator[Message]:
    """The message's non-multipart parts, in order; nesting deeper than MAX_NESTING is refused (no client nests
    more than a few levels, and the standard library recurses per level)."""
    if depth > MAX_NESTING:
        raise ValueError(f"parts nested more than {MAX_NESTING} levels deep")
    if message.is_multipart():
        for part in message.get_payload():
            if isinstance(part, Message):
                yield from _leaves(part, depth + 1)
    else:
        yield message


def _read_parts(message: EmailMessage, letter: Letter) -> None:
    from .decode import html_text, part_text  # only where a letter is read: the outbox's `clean` needs neither

    bodies: list[str] = []
    html: list[str] = []
    attachments: list[tuple[str, str]] = []
    for number, part in enumerate(_leaves(message)):
        content_type, name = part.get_content_type(), clean(part.get_filename() or "", 60)
        is_attachment = part.get_content_disposition() == "attachment" or bool(name)
        is_yaml = content_type in YAML_TYPES or name.lower().endswith((".yaml", ".yml"))
        if content_type in PASSENGERS or (part.get_content_maintype() == "image" and not is_attachment):
            continue  # a signature's logo, a vCard, a cryptographic signature, Outlook's winmail.dat
        if part.get_content_maintype() != "text" and not is_yaml:
            letter.ignored.append(f"{name or f'part {number}'} ({content_type})")
            continue
        text = part_text(part)
        if is_yaml or (is_attachment and _FIRST.search(text)):  # an order file, whatever its name
            attachments.append((name or f"attachment {number}", text))
        elif not is_attachment and content_type == "text/plain":
            bodies.append(text)
        elif not is_attachment and content_type == "text/html":
            html.append(text)
    attachments = [(name, plain_typing(text)) for name, text in attachments]
    bodies, html = [plain_typing(text) for text in bodies], [plain_typing(page) for page in html]
    if len(attachments) > 1:
        letter.problems.append(f"{len(attachments)} YAML attachments: send one order file per message")
    elif attachments:
        letter.source, letter.orders = f"attachment {attachments[0][0]}", from_first_line(attachments[0][1])
    else:
        texts = bodies or [html_text(page) for page in html]  # a webmail's HTML-only message, read as text
        body = next((text for text in texts if _FIRST.search(text)), texts[0] if texts else None)
        if body is not None:
            letter.source, letter.orders = "your message", orders_in_body(body)
    if not letter.problems and not letter.kind:
        not_read = f" (not read: {', '.join(letter.ignored)}; only text is read)" if letter.ignored else ""
        letter.problems.append("no orders found: send the order file from your turn sheet, "
                               f"from its `game:` line on (quoted text is ignored){not_read}")


# What a mail program types for the player: curly quotes, non-breaking and zero-width spaces, tabs.
_TYPOGRAPHY = str.maketrans({**dict.fromkeys("\u201c\u201d\u201e\u201f\u2033", '"'),
                             **dict.fromkeys("\u2018\u2019\u201a\u201b\u2032", "'"),
                             **dict.fromkeys("\u00a0\u2007\u202f", " "), "\t": "  ",
                             **dict.fromkeys("\u200b\u2060\ufeff", "")})


def plain_typing(text: str) -> str:
    """The text as the player typed it, before their mail program "improved" it: “secret” is "secret", a
    non-breaking space a space, a tab two spaces (YAML indents with spaces). Lines stay where they were."""
    return text.translate(_TYPOGRAPHY)


def orders_in_body(body: str) -> str:
    """The YAML in a mail body, other lines blanked (so line numbers stay the body's). A line that a client's
    hard wrap cut from the end of a comment (`# … share it` / `with nobody`) is blanked too, not taken as the end,
    and one that continues a flow list left open is kept (`formats.wrapped` joins them)."""
    lines = body.replace("\r\n", "\n").split("\n")
    kept = ["" if line.lstrip().startswith(">") else line for line in lines]
    start = next((i for i, line in enumerate(kept) if _FIRST.match(line)), None)
    if start is None:
        return ""
    from .separators import reply_ends  # only where a body is read (its patterns take ~5 ms to compile)

    # below a client's reply separator under the orders is the message it quotes (Outlook's has no `>`); orders
    # written into a forwarded sheet, under its marker, are read up to the next one
    ends = start + 1 + reply_ends(kept[start + 1:])
    kept[ends:] = [""] * (len(kept) - ends)
    end, open_ = start + 1, open_after(kept[start]) or ""
    while end < len(kept):
        if not open_ and not _yaml_line(kept[end]):  # an open flow list's line a client wrapped is kept
            if not _wrapped_comment(kept[end - 1], kept[end]):
                break
            kept[end] = ""
        open_ = (open_after(kept[end], open_) or "") if kept[end].strip() else ""  # a blank line ends a wrap
        end += 1
    return "\n".join([""] * start + kept[start:end]) + "\n"


def _wrapped_comment(previous: str, line: str) -> bool:
    """`line` is the tail of a comment a mail client wrapped: it follows a line with a comment and is plain words."""
    return bool(_COMMENT.search(previous)) and line.rstrip() != "--" and ":" not in line and bool(line.strip())


def from_first_line(text: str) -> str:
    """Everything before the first `game:` / `match:` line blanked (a pasted turn sheet)."""
    found = _FIRST.search(text)
    return text if found is None else "\n" * text.count("\n", 0, found.start()) + text[found.start():]


def _yaml_line(line: str) -> bool:
    """Still part of the order file: blank, indented, a comment, a list item or a `key:` line."""
    if line.rstrip() == "--":  # a signature follows
        return False
    return not line.strip() or line[0] in " \t#-" or bool(_TOP_KEY.match(line))
