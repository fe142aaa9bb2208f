"""Order lines a mail client hard-wrapped, kept for YAML to read as the player wrote them (issue #35).

A Geek-o program is one long line (`Zapper: {program: [FWD1#500, …]}`); many mail programs break a line longer
than 72 columns at a space and send the pieces as lines of their own, the later ones often unindented. YAML
reads a flow list continued on the next lines, indented or not, with each card on its own line; what broke
was the mail layer, which took the first unindented line for the end of the orders. `open_after` says which
flow brackets a line leaves open, so `mail.letters` keeps the lines that close them. It is a scanner of the
YAML a player writes, not a parser: a quote left open or a bracket closing the wrong kind stops it, and YAML
then refuses the file on the player's own line.
"""
from __future__ import annotations

import re

# where a line's value starts: after any `- ` and a `key: ` (a key ends in a non-space: linear, no backtracking)
_VALUE_START = re.compile(r"""^[ \t]*(?:-[ \t]+)*(?:(?:"[^"]*"|'[^']*'|[^\s\[\]{}#'",:](?:[^#:]*[^\s#:])?)[ \t]*:[ \t]+)?"""
                          r"(?=[\[{])")
_PAIRS = {"]": "[", "}": "{"}


def open_after(line: str, open_: str = "") -> str | None:
    """The flow brackets still open after `line`, innermost last, given those `open_` before it ("" when none);
    None when the line closes a bracket it did not open or leaves a quote open (a real error, for YAML)."""
    start = 0
    if not open_:
        found = _VALUE_START.match(line)
        if found is None:
            return ""
        start = found.end()
    stack = list(open_)
    column = start
    while column < len(line):
        char = line[column]
        if char in "\"'" and (column == start or line[column - 1] in " \t[{,:"):
            end = _closing_quote(line, column)
            if end is None:
                return None
            column = end
        elif char == "#" and (column == 0 or line[column - 1] in " \t"):
            break  # a comment
        elif char in "[{":
            stack.append(char)
        elif char in "]}" and stack:
            if stack.pop() != _PAIRS[char]:
                return None
            if not stack:
                return ""  # closed on this line: what follows is YAML's to judge
        column += 1
    return "".join(stack)


def _closing_quote(line: str, start: int) -> int | None:
    """The column of the quote closing the one at `start` ('' escapes ', \\ escapes in "), or None."""
    quote, column = line[start], start + 1
    while column < len(line):
        if quote == '"' and line[column] == "\\":
            column += 2
            continue
        if line[column] == quote:
            if quote == "'" and line[column + 1:column + 2] == "'":
                column += 2
                continue
            return column
        column += 1
    return None
