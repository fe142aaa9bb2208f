"""A message's bodies encoded as Python's `email` package encodes them (`email.contentmanager.raw_data_manager`: the
same transfer encoding, chosen by the same rule, and the same bytes), in fewer passes over each byte (#36).

The standard quoted-printable encoder escapes a body through a 256-entry table one character at a time (~70 % of
its time; a due game's report and sheet mails are ~200 KB of HTML and text, ~3 ms), and its base64 encoder makes a
call for every 57 bytes. Here each unsafe byte value a body holds is escaped by one `bytes.replace`, the soft line
breaks are the standard library's own loop (`email.quoprimime.body_encode`), and base64 is encoded in one call and
cut into its lines. The headers are still the standard library's: its handler sets them for an empty body, then
the body encoded here takes its place. `CONTENT` is the content manager of pbem's messages' policy.
"""
from __future__ import annotations

import binascii
from email import contentmanager as standard
from email.contentmanager import ContentManager, raw_data_manager
from email.message import Message
from typing import Any

# what quoted-printable leaves as it is in a body (`email.quoprimime`'s safe body bytes), and the line ends
_SAFE = (b" !\"#$%&'()*+,-./0123456789:;<>?@ABCDEFGHIJKLMNOPQRSTUVWXYZ[\\]^_`abcdefghijklmnopqrstuvwxyz{|}~\t"
         b"\r\n")


def escaped(data: bytes) -> str:
    """`data` with every byte quoted-printable must quote written `=XX`, in a `bytes.replace` for each such byte value
    it holds (`=` first: every other byte's quote starts with one)."""
    unsafe = set(data.translate(None, _SAFE))
    if ord("=") in unsafe:
        data = data.replace(b"=", b"=3D")
        unsafe.discard(ord("="))
    for byte in unsafe:
        data = data.replace(bytes((byte,)), b"=%02X" % byte)
    return data.decode("ascii")


def quoted_printable(data: bytes, most: int) -> str:
    """`email.quoprimime.body_encode(data.decode("latin-1"), most)`: the body escaped, each line longer than `most`
    broken with soft line breaks (never inside a quote), a space or tab ending a line quoted."""
    if not data:
        return ""
    body = escaped(data)
    pieces: list[str] = []
    for line in body.splitlines():  # the standard library's loop, as it is
        start, last = 0, len(line) - 1 - most
        while start <= last:
            stop = start + most - 1
            if line[stop - 2] == "=":
                pieces.append(line[start:stop - 1])
                start = stop - 2
            elif line[stop - 1] == "=":
                pieces.append(line[start:stop])
                start = stop - 1
            else:
                pieces.append(line[start:stop] + "=")
                start = stop
        if line and line[-1] in " \t":
            room = start - last
            quote = "=%02X" % ord(line[-1])
            pieces.append(line[start:-1] + (quote if room >= 3 else line[-1] + "=\n" if room == 2 else "=\n" + quote))
        else:
            pieces.append(line[start:])
    if body[-1] in "\r\n":
        pieces.append("")
    return "\n".join(pieces)


def base64_lines(data: bytes, most: int) -> str:
    """`data` in base64, in lines of at most `most` characters (each a whole number of 4-character groups), each
    ending in a newline: what `email.contentmanager` writes, 57 bytes a call, in one call."""
    width = most // 4 * 4
    encoded = binascii.b2a_base64(data, newline=False).decode("ascii")
    lines = map(slice, range(0, len(encoded), width), range(width, len(encoded) + width, width))
    return "".join(map("{}\n".format, map(encoded.__getitem__, lines)))  # no Python frame a line: ~40,000 a tick


def encoded_text(text: str, charset: str, cte: str | None, linesep: str, most: int, eight_bit: bool) -> tuple[str, str]:
    """The transfer encoding and body `email.contentmanager` gives `text` (its `_encode_text`): as it is when every
    line fits (7bit, or 8bit where the policy allows), else quoted-printable or base64, whichever writes the first
    ten lines shorter. `linesep`, `most` (the longest line) and `eight_bit` (8bit allowed) are the policy's."""
    lines = text.encode(charset).splitlines()
    end = linesep.encode("ascii")
    plain = b"\n".join(lines) + b"\n"
    if cte is None:
        if max(map(len, lines), default=0) <= most:
            if plain.isascii():
                return "7bit", plain.decode("ascii")
            if eight_bit:
                return "8bit", plain.decode("ascii", "surrogateescape")
        sniff = end.join(lines[:10]) + end
        sniff_qp = quoted_printable(sniff, most)
        if len(sniff_qp) > len(binascii.b2a_base64(sniff)):
            cte = "base64"
        else:
            cte = "quoted-printable"
            if len(lines) <= 10:
                return cte, sniff_qp
    if cte == "7bit":
        return cte, plain.decode("ascii")
    if cte == "8bit":
        return cte, plain.decode("ascii", "surrogateescape")
    if cte == "quoted-printable":
        return cte, quoted_printable(plain, most)
    if cte == "base64":
        return cte, base64_lines(end.join(lines) + end, most)
    raise ValueError(f"Unknown content transfer encoding {cte}")


def _set_text(message: Message, text: str, subtype: str = "plain", charset: str = "utf-8", cte: str | None = None,
              *more: Any, **named: Any) -> None:
    policy = message.policy
    most = getattr(policy, "max_line_length", None)
    if most is None:  # no longest line: the standard library's own rule
        standard.set_text_content(message, text, subtype, charset, cte, *more, **named)  # type: ignore[attr-defined]
        return
    cte, body = encoded_text(text, charset, cte, policy.linesep, most, getattr(policy, "cte_type", "") == "8bit")
    standard.set_text_content(message, "", subtype, charset, cte, *more, **named)  # type: ignore[attr-defined]
    message.set_payload(body)  # in place of the empty body the standard library set its headers for


def _set_bytes(message: Message, data: bytes, maintype: str, subtype: str, cte: str = "base64", *more: Any,
               **named: Any) -> None:
    most = getattr(message.policy, "max_line_length", None)
    if cte != "base64" or most is None:
        standard.set_bytes_content(message, data, maintype, subtype, cte, *more, **named)  # type: ignore[attr-defined]
        return
    standard.set_bytes_content(message, b"", maintype, subtype, cte, *more, **named)  # type: ignore[attr-defined]
    message.set_payload(base64_lines(data, most))  # in place of the empty body the standard library set its headers for


CONTENT = ContentManager()
CONTENT.get_handlers.update(raw_data_manager.get_handlers)  # type: ignore[attr-defined]
CONTENT.set_handlers.update(raw_data_manager.set_handlers)  # type: ignore[attr-defined]
CONTENT.add_set_handler(str, _set_text)
CONTENT.add_set_handler(bytes, _set_bytes)
