"""Reading an incoming message: who sent it, and the order text in it.

The orders are a YAML attachment when there is one (or a text attachment
holding an order file, whatever its name), else the plain-text body
with quoted lines (`> …`) blanked and everything before the first `game:` (or,
for a death match, `match:`) line and after the YAML (a signature, "thanks")
blanked too, so line numbers in errors are still the body's. A message over
the size limit is not parsed at all; an attachment that is not text refuses
the message. Attachment names are only ever shown (cleaned), never used as paths.
"""
from __future__ import annotations

import hashlib
import re
import unicodedata
from dataclasses import dataclass, field
from email import policy
from email.message import EmailMessage
from email.parser import BytesHeaderParser, BytesParser
from email.utils import getaddresses

YAML_TYPES = {"application/yaml", "application/x-yaml", "text/yaml", "text/x-yaml"}
_FIRST = re.compile(r"^(game|match)\s*:", re.MULTILINE)
_TOP_KEY = re.compile(r"^[A-Za-z_][\w-]*\s*:")
_ADDRESS = re.compile(r"^[^@\s<>()\[\],;:\"\\]+@[A-Za-z0-9.-]+$")
_MESSAGE_ID = re.compile(r"^<[!-;=?-~]{1,250}>$")  # printable ASCII without < > or spaces


@dataclass
class Letter:
    key: str  # the Message-ID, or a digest of the bytes when it has none
    size: int
    sender: str | None  # the From address (lower case), None when missing or malformed
    subject: str
    message_id: str | None
    orders: str | None = None  # the order text (attachment or cleaned body)
    source: str = "your message"  # how errors name where the orders were
    problems: list[str] = field(default_factory=list)  # reasons to refuse before reading any orders
    automatic: bool = False  # an auto-reply or a bounce: never answered, so two robots cannot mail each other forever

    @property
    def kind(self) -> str:
        match = _FIRST.search(self.orders or "")
        return {"game": "orders", "match": "dm"}.get(match.group(1) if match else "", "")


def clean(text: str, limit: int = 100) -> str:
    """One line of printable text, for a header or a message: no control characters, no line breaks."""
    text = "".join(" " if unicodedata.category(c)[0] in "CZ" else c for c in str(text))
    text = " ".join(text.split())
    return text if len(text) <= limit else text[:limit - 1] + "…"


def message_key(message_id: str | None, data: bytes) -> str:
    return message_id or "sha256:" + hashlib.sha256(data).hexdigest()


def parse_message_id(value: object) -> str | None:
    text = str(value or "").strip()
    return text if _MESSAGE_ID.match(text) else None


def sender_address(value: object) -> str | None:
    addresses = [address for _, address in getaddresses([str(value or "")]) if address]
    if len(addresses) != 1 or not _ADDRESS.match(addresses[0]):
        return None
    return addresses[0].lower()


def read_letter(data: bytes, max_bytes: int) -> Letter:
    too_big = len(data) > max_bytes
    parser = BytesHeaderParser if too_big else BytesParser
    message = parser(policy=policy.default).parsebytes(data)
    message_id = parse_message_id(_header(message, "Message-ID"))
    letter = Letter(message_key(message_id, data), len(data), sender_address(_header(message, "From")),
                    clean(_header(message, "Subject")), message_id)
    letter.automatic = _header(message, "Auto-Submitted").strip().lower() not in ("", "no") \
        or _header(message, "Precedence").strip().lower() in ("bulk", "junk", "list") \
        or _header(message, "Return-Path").strip() == "<>"
    if too_big:
        letter.problems.append(f"the message is {len(data):,} bytes; the limit is {max_bytes:,}: "
                               "please send only the order file, as text")
        return letter
    _read_parts(message, letter)
    return letter


def _header(message: EmailMessage, name: str) -> str:
    try:
        return str(message.get(name) or "")
    except (ValueError, TypeError, IndexError):  # a header too broken to parse
        return ""


def _read_parts(message: EmailMessage, letter: Letter) -> None:
    body: str | None = None
    attachments: list[tuple[str, str]] = []
    for number, part in enumerate(message.walk()):
        if part.is_multipart():
            continue
        content_type, name = part.get_content_type(), clean(part.get_filename() or "", 60)
        is_attachment = part.get_content_disposition() == "attachment" or bool(name)
        is_yaml = content_type in YAML_TYPES or name.lower().endswith((".yaml", ".yml"))
        if part.get_content_maintype() != "text" and not is_yaml:
            letter.problems.append(f"attachment {name or number} ({content_type}) refused: "
                                   "only text is read; send the order file as text")
            continue
        try:
            text = _text_of(part)
        except (LookupError, UnicodeError, ValueError):
            letter.problems.append(f"part {name or number} ({content_type}) is not readable text")
            continue
        if is_yaml or (is_attachment and _FIRST.search(text)):  # an order file, whatever its name
            attachments.append((name or f"attachment {number}", text))
        elif not is_attachment and content_type == "text/plain" and body is None:
            body = text
    if letter.problems:
        return
    if len(attachments) > 1:
        letter.problems.append(f"{len(attachments)} YAML attachments: send one order file per message")
    elif attachments:
        letter.source, letter.orders = f"attachment {attachments[0][0]}", from_first_line(attachments[0][1])
    elif body is not None:
        letter.source, letter.orders = "your message", orders_in_body(body)
    if not letter.problems and not letter.kind:
        letter.problems.append("no orders found: send the order file from your turn sheet, "
                               "from its `game:` line on (quoted text is ignored)")


def _text_of(part: EmailMessage) -> str:
    content = part.get_content()
    return content.decode("utf-8") if isinstance(content, bytes) else content


def orders_in_body(body: str) -> str:
    """The YAML in a mail body, other lines blanked (so line numbers stay the body's)."""
    lines = body.replace("\r\n", "\n").split("\n")
    kept = ["" if line.lstrip().startswith(">") else line for line in lines]
    start = next((i for i, line in enumerate(kept) if _FIRST.match(line)), None)
    if start is None:
        return ""
    end = start + 1
    while end < len(kept) and _yaml_line(kept[end]):
        end += 1
    return "\n".join([""] * start + kept[start:end]) + "\n"


def from_first_line(text: str) -> str:
    """Everything before the first `game:` / `match:` line blanked (a pasted turn sheet)."""
    found = _FIRST.search(text)
    return text if found is None else "\n" * text.count("\n", 0, found.start()) + text[found.start():]


def _yaml_line(line: str) -> bool:
    """Still part of the order file: blank, indented, a comment, a list item or a `key:` line."""
    if line.rstrip() == "--":  # a signature follows
        return False
    return not line.strip() or line[0] in " \t#-" or bool(_TOP_KEY.match(line))
