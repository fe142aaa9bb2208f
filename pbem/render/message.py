"""A report as an email: text part, HTML part (CSS inlined) with the board pictures inline by Content-ID.

Deterministic: the MIME boundaries and the Message-ID are derived from the
content, and no Date header is written (the sender adds one when it sends).
"""
from __future__ import annotations

import hashlib
from email.message import EmailMessage
from email.policy import SMTP
from typing import Mapping

import css_inline

_INLINER = css_inline.CSSInliner(keep_style_tags=False, load_remote_stylesheets=False)


def cid(name: str) -> str:
    """The Content-ID (without angle brackets) of an inline picture file name."""
    return f"{name}@pbem"


def report_message(*, sender: str, recipient: str, subject: str, text: str, html: str,
                   images: Mapping[str, bytes]) -> EmailMessage:
    """`html` refers to each picture as `cid:<cid(name)>`; `images` maps those names to PNG bytes."""
    message = EmailMessage(policy=SMTP)
    message["From"] = sender
    message["To"] = recipient
    message["Subject"] = subject
    digest = hashlib.sha256()
    for part in (sender, recipient, subject, text, html):
        digest.update(part.encode("utf-8") + b"\0")
    for name in sorted(images):
        digest.update(name.encode("utf-8") + b"\0" + hashlib.sha256(images[name]).digest())
    token = digest.hexdigest()
    message["Message-ID"] = f"<{token[:32]}@pbem>"
    message["MIME-Version"] = "1.0"
    message.set_content(text)
    message.add_alternative(_INLINER.inline(html), subtype="html")
    html_part = message.get_payload()[1]
    for name in sorted(images):
        html_part.add_related(images[name], "image", "png", cid=f"<{cid(name)}>", filename=name,
                              disposition="inline")
    for i, part in enumerate(p for p in message.walk() if p.is_multipart()):
        part.set_boundary(f"=_pbem_{token[:24]}_{i}")
    return message


def message_bytes(message: EmailMessage) -> bytes:
    """The message as an `.eml` file (CRLF line ends, as on the wire)."""
    return message.as_bytes(policy=SMTP)
