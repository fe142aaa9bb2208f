"""Turning a MIME part into the text a mail reader would show.

Real clients send orders in shapes a plain `get_content()` misreads:
Thunderbird and Apple Mail send `format=flowed` (RFC 3676: a line ending in a
space continues on the next), webmails send HTML only (indentation as
`&nbsp;`, lines as `<div>` or `<br>`), and some declare a charset the bytes do
not follow. Each function here returns text and never raises on such input.
The HTML reader is the standard library's parser with a small block-aware
writer: converters such as html2text write Markdown, escaping `#`, `_` and
`[` — exactly the characters an order file needs as they are.
"""
from __future__ import annotations

from email.message import Message
from html.parser import HTMLParser

BLOCKS = {"address", "article", "aside", "blockquote", "dd", "div", "dl", "dt", "fieldset", "figure", "footer",
          "form", "h1", "h2", "h3", "h4", "h5", "h6", "header", "hr", "li", "main", "nav", "ol", "p", "pre",
          "section", "table", "tr", "ul"}
SKIPPED = {"script", "style", "head", "title", "template"}


def part_text(part: Message) -> str:
    """The part's text: charset decoded (a wrong or unknown charset falls back to UTF-8, then Latin-1, never an
    error), line ends made `\\n`, and a `format=flowed` body joined as its reader would show it."""
    payload = part.get_payload(decode=True)
    if not isinstance(payload, bytes):
        payload = str(part.get_payload() or "").encode("utf-8", "replace")
    text = _decoded(payload, part.get_content_charset() or "utf-8")
    text = text.replace("\r\n", "\n").replace("\r", "\n")
    if part.get_content_subtype() == "plain" and str(part.get_param("format", "")).lower() == "flowed":
        text = unflow(text, str(part.get_param("delsp", "")).lower() == "yes")
    return text


def _decoded(payload: bytes, charset: str) -> str:
    for name in (charset, "utf-8"):
        try:
            return payload.decode(name)
        except (LookupError, UnicodeDecodeError):
            continue
    return payload.decode("latin-1")  # every byte is a character: windows-1252 and friends read as near as can be


def unflow(text: str, delsp: bool) -> str:
    """RFC 3676: join soft-broken lines (ending in a space) of the same quote depth; drop space-stuffing."""
    out: list[str] = []
    pending: tuple[int, str] | None = None  # quote depth and text of a paragraph still being joined
    for raw in text.split("\n"):
        depth = len(raw) - len(raw.lstrip(">"))
        line = raw[depth:]
        if line.startswith(" "):
            line = line[1:]  # space-stuffed (or the space after quote marks)
        if pending is not None and pending[0] != depth:
            out.append(_quoted(*pending))
            pending = None
        soft = line.endswith(" ") and line != "-- "
        if soft and delsp:
            line = line[:-1]
        joined = (pending[1] if pending else "") + line
        if soft:
            pending = (depth, joined)
        else:
            out.append(_quoted(depth, joined))
            pending = None
    if pending is not None:
        out.append(_quoted(*pending))
    return "\n".join(out)


def _quoted(depth: int, line: str) -> str:
    return ">" * depth + (" " if depth and line else "") + line


def html_text(html: str) -> str:
    """The text of an HTML body as a mail reader lays it out: one line per block or `<br>`, `&nbsp;` kept as
    spaces (webmail's indentation), other whitespace collapsed outside `<pre>`, quoted blocks as `> ` lines."""
    writer = _TextWriter()
    try:
        writer.feed(html)
        writer.close()
    except (AssertionError, ValueError):  # html.parser gives up on some broken markup: keep what it read
        pass
    return writer.text()


class _TextWriter(HTMLParser):
    def __init__(self) -> None:
        super().__init__(convert_charrefs=True)
        self.lines: list[str] = []
        self.line = ""
        self.skip = 0
        self.pre = 0
        self.quote = 0

    def handle_starttag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        if tag in SKIPPED:
            self.skip += 1
        elif tag == "br":
            self._end_line(force=True)
        elif tag in BLOCKS:
            self._end_line()
            self.pre += tag == "pre"
            self.quote += tag == "blockquote"

    def handle_startendtag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        if tag == "br":
            self._end_line(force=True)
        elif tag in BLOCKS:
            self._end_line()

    def handle_endtag(self, tag: str) -> None:
        if tag in SKIPPED:
            self.skip = max(0, self.skip - 1)
        elif tag in BLOCKS:
            self._end_line()
            if tag == "pre":
                self.pre = max(0, self.pre - 1)
            if tag == "blockquote":
                self.quote = max(0, self.quote - 1)

    def handle_data(self, data: str) -> None:
        if self.skip:
            return
        if self.pre:
            first, *rest = data.split("\n")
            self.line += first
            for piece in rest:
                self._end_line(force=True)
                self.line += piece
            return
        text = " ".join(data.replace("\u00a0", "\x00").split())  # collapse ordinary whitespace only
        if data[:1].isspace() and data[:1] != "\u00a0" and self.line and not self.line.endswith(" "):
            text = " " + text
        if data[-1:].isspace() and data[-1:] != "\u00a0" and text.strip():
            text += " "
        self.line += text.replace("\x00", " ")

    def _end_line(self, force: bool = False) -> None:
        if self.line.strip() or force:
            prefix = "> " * self.quote
            self.lines.append(prefix + self.line.rstrip(" ") if self.line.strip() else prefix.rstrip())
        self.line = ""

    def text(self) -> str:
        self._end_line()
        return "\n".join(self.lines) + "\n"
