"""A report as an email: text part, HTML part (CSS inlined) with the board pictures inline by Content-ID.

Deterministic: the MIME boundaries come from the content, the Message-ID from the content and
the addressee, and no Date header is written (the sender adds one when it sends). Players who
get the same boards get the same body, so `readdressed` reuses a body's bytes for each of them.
"""
from __future__ import annotations

import hashlib
import io
from email.generator import BytesGenerator
from email.headerregistry import Address, BaseHeader, HeaderRegistry
from email.message import EmailMessage, Message
from email.policy import SMTP as STANDARD
from email.policy import EmailPolicy
from functools import lru_cache
from typing import Mapping

import css_inline

from ..formats.names import DEFAULT_SENDER as DEFAULT_SENDER  # the render layer's readers import it from here
from ..formats.names import ascii_domain
from .mimebody import CONTENT

_INLINER = css_inline.CSSInliner(keep_style_tags=False, keep_at_rules=True, load_remote_stylesheets=False,
                                 minify_css=True)  # @media kept: a phone shows what only a phone needs
_ADDRESSING = ("From", "To", "Subject", "Message-ID")


class _Headers(HeaderRegistry):
    """The standard header classes, each made once, and each header parsed once: the standard registry makes a new
    class (`type(...)`) for every header it parses, ~50 a message (#36), and parses the same values again and again
    (a due game's mails parse ~230 headers, ~40 of them distinct: a message built, read back by the outbox, its body
    readdressed). A header's class holds nothing of its own and a header is never changed once parsed (a new value
    makes a new header), so sharing either changes no byte."""

    KEPT = 4096  # parsed headers kept (the oldest let go first): a due tick's common ones, not every Message-ID
    LONGEST = 998  # the longest header value kept (RFC 5322's line): a hostile letter's giant header is not

    def __init__(self) -> None:
        super().__init__()
        self._made: dict[str, type[BaseHeader]] = {}
        self._parsed: dict[tuple[str, str], BaseHeader] = {}

    def __getitem__(self, name: str) -> type[BaseHeader]:
        made = self._made.get(name.lower())
        if made is None:
            made = self._made[name.lower()] = super().__getitem__(name)
        return made

    def __call__(self, name: str, value: str) -> BaseHeader:
        if type(value) is not str or len(value) > self.LONGEST:
            return super().__call__(name, value)
        parsed = self._parsed.get((name, value))
        if parsed is None:
            if len(self._parsed) >= self.KEPT:
                del self._parsed[next(iter(self._parsed))]
            parsed = self._parsed[(name, value)] = super().__call__(name, value)
        return parsed


# the standard SMTP policy, its headers kept and its bodies encoded faster (the same bytes): every message's policy
SMTP = STANDARD.clone(header_factory=_Headers(), content_manager=CONTENT)


def cid(name: str) -> str:
    """The Content-ID (without angle brackets) of an inline picture file name."""
    return f"{name}@pbem"


def message_id(*parts: str) -> str:
    """A Message-ID made from `parts` alone (the same parts, the same ID: a message is never queued twice)."""
    digest = hashlib.sha256("\0".join(parts).encode("utf-8")).hexdigest()
    return f"<{digest[:32]}@pbem>"


def bare_page(body: str) -> str:
    """A page without the style sheet (a short mail's HTML part), shown at the reader's own width on a phone."""
    return ('<html><head><meta charset="utf-8"><meta name="viewport" content="width=device-width, initial-scale=1">'
            f"</head><body>{body}</body></html>")


def _headers(message: EmailMessage, sender: str, recipient: str, subject: str, token: str) -> None:
    message["From"] = sender
    message["To"] = recipient
    message["Subject"] = subject
    message["Message-ID"] = message_id(token, sender, recipient, subject)
    message["MIME-Version"] = "1.0"


def report_message(*, sender: str, recipient: str, subject: str, text: str, html: str,
                   images: Mapping[str, bytes], attachments: Mapping[str, str] = {}) -> EmailMessage:
    """`html` refers to each picture as `cid:<cid(name)>`; `images` maps those names to PNG (or, for a name
    ending in .gif, GIF) bytes; `attachments` maps file names to text sent along: HTML pages (the sheet to open in
    a browser) and `.ics` calendar entries (the deadline)."""
    digest = hashlib.sha256()
    for part in (text, html, *(f"{name}\0{page}" for name, page in sorted(attachments.items()))):
        digest.update(part.encode("utf-8") + b"\0")
    for name in sorted(images):
        digest.update(name.encode("utf-8") + b"\0" + _digest(images[name]))
    token = digest.hexdigest()[:24]
    message = EmailMessage(policy=SMTP)
    _headers(message, sender, recipient, subject, token)
    message.set_content(text)
    message.add_alternative(_INLINER.inline(html), subtype="html")
    _, html_part = message.iter_parts()  # the text and the HTML alternatives
    if images:
        html_part.make_related()
    for name in sorted(images):
        html_part.attach(_image_part(name, images[name]))
    for name, page in sorted(attachments.items()):
        subtype = "calendar" if name.endswith(".ics") else "html"
        message.add_attachment(page.encode("utf-8"), maintype="text", subtype=subtype, filename=name)
    for i, multipart in enumerate(p for p in message.walk() if p.is_multipart()):
        multipart.set_boundary(f"=_pbem_{token}_{i}")
    return message


@lru_cache(maxsize=64)
def _digest(data: bytes) -> bytes:
    """A picture's SHA-256, once however many players' messages carry it."""
    return hashlib.sha256(data).digest()


class _Picture(EmailMessage):
    """An inline picture's part, serialised once: every player's message of a turn carries the same pictures."""

    wire: bytes = b""


@lru_cache(maxsize=64)
def _image_part(name: str, data: bytes) -> EmailMessage:
    """One inline picture as a MIME part, encoded once however many players' messages carry it (parts are
    never changed after this, so messages can share them)."""
    part = _Picture(policy=SMTP)
    part.set_content(data, "image", "gif" if name.endswith(".gif") else "png", cid=f"<{cid(name)}>",
                     filename=name, disposition="inline")
    part.wire = message_bytes(part)
    return part


class _Generator(BytesGenerator):
    """The standard generator, but a picture part is written from its stored bytes (a turn's report mails
    carry the same pictures: base64 line by line for each of eight players was most of the time), and a body's
    line ends are changed in one pass rather than one write per line (the same bytes: ~40,000 writes a turn)."""

    # The generator's internals (_write, _fp, _NL) are not in its published types.
    def _write(self, msg: Message) -> None:
        if isinstance(msg, _Picture) and msg.wire:
            self._fp.write(msg.wire)  # type: ignore[attr-defined]
        else:
            super()._write(msg)  # type: ignore[misc]

    def _write_lines(self, lines: str) -> None:
        if lines:
            self.write(line_ends(lines, self._NL))  # type: ignore[attr-defined]


def line_ends(text: str, end: str) -> str:
    """Every line end of `text` (CRLF, CR or LF, as the standard generator splits lines) written as `end`: in
    `str.replace`'s passes, ~8 times faster than a pattern (a turn's mails are ~5 MB of lines)."""
    if "\r" in text:
        text = text.replace("\r\n", "\n").replace("\r", "\n")
    return text.replace("\n", end) if end != "\n" else text


class _Folding(EmailPolicy):
    """SMTP's policy, but a header value that fits on one line of its own stays beside its name: CPython moves
    it below (`Subject:` CRLF SP value), and mail readers then show a subject with an empty first line. A parsed
    header is folded once for each name and policy's settings (kept on the header, which `_Headers` shares among
    messages: folding walks its whole parse tree, ~20 times a message; the generator clones its policy for every
    part, so the settings are the key, not the policy)."""

    def fold_binary(self, name: str, value: str) -> bytes:
        folds: dict[tuple[object, ...], bytes] | None = getattr(value, "_pbem_folds", None)
        key = (name, *sorted(vars(self).items()))
        if folds is not None and key in folds:
            return folds[key]
        folded = super().fold_binary(name, value)
        below = name.encode("ascii") + b":" + self.linesep.encode("ascii") + b" "
        folded = name.encode("ascii") + b": " + folded[len(below):] if folded.startswith(below) else folded
        if isinstance(value, BaseHeader):
            if folds is None:
                folds = value._pbem_folds = {}  # type: ignore[attr-defined]
            folds[key] = folded
        return folded


_WIRE = _Folding(linesep="\r\n", header_factory=SMTP.header_factory)
_WIRE_UTF8 = _WIRE.clone(utf8=True)  # SMTPUTF8 (RFC 6531): headers in UTF-8


def message_bytes(message: EmailMessage) -> bytes:
    """The message as an `.eml` file (CRLF line ends, as on the wire). A domain in another script is written in
    ASCII (IDNA), which any server takes; an address whose local part is not ASCII (RFC 6531) cannot be written as
    an encoded word, so such a message's headers are written in UTF-8, to be sent with SMTPUTF8 (the outbox sets
    it aside when the server does not offer that)."""
    for name in ("From", "To"):
        _ascii_domains(message, name)
    buffer = io.BytesIO()
    plain = all(a.addr_spec.isascii() for name in ("From", "To") for a in getattr(message.get(name), "addresses", ()))
    _Generator(buffer, policy=_WIRE if plain else _WIRE_UTF8).flatten(message)
    return buffer.getvalue()


def _ascii_domains(message: EmailMessage, name: str) -> None:
    """The header's addresses with their domains in ASCII (IDNA); a header already ASCII is left alone."""
    header = message.get(name)
    if header is None or str(header).isascii():
        return
    addresses = [Address(a.display_name, a.username, ascii_domain(a.domain) or a.domain)
                 for a in getattr(header, "addresses", ())]
    if addresses:
        del message[name]
        message[name] = ", ".join(map(str, addresses))


def readdressed(message: EmailMessage, body: bytes, recipient: str, subject: str) -> bytes:
    """`message_bytes` of `message` sent to `recipient` under `subject` instead, without serialising
    the body again: `body` is what follows the header block in `message_bytes(message)`."""
    boundary = message.get_boundary()
    if boundary is None:
        raise ValueError("not a message of report_message: it has no boundary")
    token = boundary.split("_")[2]  # the body's content hash (see report_message)
    head = EmailMessage(policy=SMTP)
    _headers(head, message["From"], recipient, subject, token)
    for name, value in message.items():
        if name not in _ADDRESSING and name != "MIME-Version":
            head[name] = value
    return message_bytes(head).split(b"\r\n\r\n", 1)[0] + b"\r\n\r\n" + body


def body_of(data: bytes) -> bytes:
    """What follows the header block of a serialised message."""
    return data.split(b"\r\n\r\n", 1)[1]
