"""Acknowledgements: the reply each incoming message gets, accepted or refused (death matches: `dmpost`).

Only cleaned text reaches a header (one line, no control characters), the
recipient is the bare address the message came from, and the Message-ID comes
from the incoming message's key (and the recipient), so one message can never
be acknowledged, or announced, twice.
"""
from __future__ import annotations

from email.message import EmailMessage
from email.policy import SMTP

from ..render.message import message_id
from .letters import Letter, clean


def acknowledgement(letter: Letter, sender: str, verdict: str, lines: list[str]) -> EmailMessage:
    """A plain-text reply to `letter` headed by `verdict` (e.g. "orders accepted"), one item per line."""
    message = EmailMessage(policy=SMTP)
    message["From"] = sender
    message["To"] = letter.sender
    message["Subject"] = clean(f"[pbem: {verdict}] {letter.subject or 'your message'}", 120)
    message["Message-ID"] = message_id("ack", letter.key)
    if letter.message_id:
        message["In-Reply-To"] = letter.message_id
        message["References"] = letter.message_id
    message["Auto-Submitted"] = "auto-replied"
    body = [f"Your message {letter.message_id or ''} ({letter.size:,} bytes): {verdict}.".replace("  ", " "), ""]
    message.set_content("\n".join(body + lines) + "\n")
    return message

