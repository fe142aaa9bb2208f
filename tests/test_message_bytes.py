"""#36: a due tick's mails are built and written with less of Python's `email` package work, and the same bytes: each
header value is parsed once and each parsed header folded once however many messages carry it, and a body's line
ends are changed without a pattern. Each cut is counted here, and its bytes compared with the standard library's."""
from __future__ import annotations

import email.message
import email.policy
import io
import random
import re
from email.generator import BytesGenerator
from email.headerregistry import HeaderRegistry

import pytest

from pbem.mail.outbox import _pending
from pbem.render.message import line_ends, message_bytes, readdressed, report_message

LONG = "halls of the mountain king, the long way round: turn 12 report for Ännchen, in bob's seat, again and again"
READERS = ["ann@example.org", "Bob Bäcker <bob@example.org>", "cy@bücher.example", "dée <dée@example.org>",
           '"Long, Display Name With Many Words In It Indeed" <someone.with.a.long.address@a-long-domain.example.org>']


def mail(recipient: str, subject: str = "halls: turn 1 report"):
    return report_message(sender="GM <gm@example.org>", recipient=recipient, subject=subject,
                          text="Turn 1 — ann’s robot moved.\n" + "x" * 90 + "\n", html="<p>Turn 1 — ann</p>",
                          images={"turn.gif": b"GIF89a" + bytes(range(256))},
                          attachments={"ann-sheet.html": "<p>é</p>\n" * 40})


def standard_bytes(message) -> bytes:
    """The message as the standard library writes it with SMTP's policy (nothing kept, every line end written one
    by one), with pbem's one change: a header value that fits beside its name is not moved below it."""
    buffer = io.BytesIO()
    utf8 = not all(a.addr_spec.isascii() for a in message["To"].addresses)
    BytesGenerator(buffer, policy=email.policy.SMTP.clone(utf8=utf8)).flatten(message)
    return re.sub(rb"(?m)^([!-9;-~]+):\r\n ", rb"\1: ", buffer.getvalue())


@pytest.mark.parametrize("subject", ["halls: turn 1 report", LONG])
def test_messages_written_with_their_headers_kept_are_the_standard_librarys_bytes(subject):
    for _ in range(2):  # the second time, every header parsed and folded is one kept from the first
        for recipient in READERS:
            message = mail(recipient, subject)
            assert message_bytes(message) == standard_bytes(message)


def test_each_header_value_is_parsed_once_however_many_messages_carry_it(monkeypatch):
    """Building a mail, writing it, readdressing its body and reading its headers back for the outbox parsed ~25
    headers a message, most of them the same values again (every message's Content-Type, its own To and Subject
    built, written and read back)."""
    def build_and_queue():
        message = mail("Bob Bäcker <bob@example.org>")
        data = message_bytes(message)
        _pending(readdressed(message, data.split(b"\r\n\r\n", 1)[1], "ann@example.org", "halls: for ann"),
                 "report", None)  # type: ignore[arg-type]
        _pending(message, "report", None)  # type: ignore[arg-type]

    build_and_queue()
    parsed = []
    standard = HeaderRegistry.__call__
    monkeypatch.setattr(HeaderRegistry, "__call__", lambda self, name, value: (parsed.append(name),
                                                                               standard(self, name, value))[1])
    build_and_queue()
    assert parsed == []


def test_each_parsed_header_is_folded_once_however_often_it_is_written(monkeypatch):
    message = mail("Bob Bäcker <bob@example.org>", LONG)
    first = message_bytes(message)
    folded = []
    standard = email.policy.EmailPolicy.fold_binary
    monkeypatch.setattr(email.policy.EmailPolicy, "fold_binary",
                        lambda self, name, value: (folded.append(name), standard(self, name, value))[1])
    assert message_bytes(message) == first
    assert folded == []


def test_line_ends_are_what_the_standard_generators_line_splitting_writes():
    lines = re.compile(r"\r\n|\r|\n")
    pieces = random.Random(36)
    for _ in range(2000):
        text = "".join(pieces.choice(["\r", "\n", "\r\n", "a", "é", " "]) for _ in range(pieces.randrange(12)))
        for end in ("\r\n", "\n"):
            assert line_ends(text, end) == lines.sub(end, text), repr(text)


def _body_parts(policy, content, *args, **kwargs) -> bytes:
    """A part holding `content`, set by `policy`'s content manager and written by the standard generator."""
    part = email.message.EmailMessage(policy=policy)
    part.set_content(content, *args, **kwargs)
    buffer = io.BytesIO()
    BytesGenerator(buffer, policy=email.policy.SMTP).flatten(part)
    return buffer.getvalue()


def test_bodies_are_encoded_as_the_standard_library_encodes_them():
    """#36: pbem's messages encode their text and bytes bodies in fewer passes (`render.mimebody`); the transfer
    encoding chosen and every byte are the standard library's, for texts with long lines, quotes at the soft line
    breaks, spaces and tabs ending lines, every kind of line end and character, and any given encoding."""
    from pbem.render.message import SMTP

    pieces = random.Random(36)
    alphabet = ["a", "=", " ", "\t", "é", "—", "→", "\r", "\n", "\r\n", "\x0b", "\x0c", "\x85", "\u2028", "\x00",
                "a" * 70, "=" * 30, "x" * 200, ".", "From "]
    for _ in range(1500):
        text = "".join(pieces.choice(alphabet) for _ in range(pieces.randrange(40)))
        cte = pieces.choice([None, None, None, "quoted-printable", "base64", "8bit"])
        kwargs = {"subtype": pieces.choice(["plain", "html"]), **({"cte": cte} if cte else {})}
        assert _body_parts(SMTP, text, **kwargs) == _body_parts(email.policy.SMTP, text, **kwargs), (text, kwargs)
    for size in [*range(0, 130), 1000, 4096, 65537]:
        data = bytes(pieces.randrange(256) for _ in range(size))
        for args in (("image", "png"), ("text", "html")):
            assert _body_parts(SMTP, data, *args, filename="x.png") == \
                _body_parts(email.policy.SMTP, data, *args, filename="x.png")
        assert _body_parts(SMTP, data, "application", "x", cte="quoted-printable") == \
            _body_parts(email.policy.SMTP, data, "application", "x", cte="quoted-printable")


def test_a_report_mails_bodies_are_not_escaped_one_character_at_a_time(monkeypatch):
    """#36: the standard quoted-printable encoder escapes through a table, a character at a time (most of a mail's
    encoding); pbem's escapes each unsafe byte value in one pass."""
    import email.quoprimime

    escaped = []
    standard = email.quoprimime.body_encode
    monkeypatch.setattr(email.quoprimime, "body_encode", lambda body, *a: (escaped.append(len(body)),
                                                                           standard(body, *a))[1])
    message = mail("ann@example.org", LONG)
    assert message_bytes(message) == standard_bytes(message)
    assert b"Content-Transfer-Encoding: quoted-printable" in message_bytes(message)
    assert set(escaped) <= {1}  # the standard encoder sees only the empty bodies its headers are set for ("\n")


def test_the_outboxs_header_block_ends_at_the_first_blank_line_crlf_or_lf():
    """#36: the outbox reads a message's headers from its header block; the bare-LF blank line is looked for only
    before the CRLF one (a report mail's ~150 KB body was scanned for it), and the block is the same."""
    from pbem.mail.outbox import header_block

    def first_blank_line(data: bytes) -> bytes:
        ends = [end + len(blank) for blank in (b"\r\n\r\n", b"\n\n") if (end := data.find(blank)) >= 0]
        return data[:min(ends)] if ends else data
    pieces = random.Random(36)
    for _ in range(20000):
        data = bytes(pieces.choice(b"\r\nab:") for _ in range(pieces.randrange(14)))
        assert header_block(data) == first_blank_line(data), data
