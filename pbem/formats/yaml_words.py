"""PyYAML's syntax errors said in a player's words: which line, and what to type there.

The parser says "did not find expected ',' or ']'" on the line after the one that
needs the `]`; a player needs to hear "line 8: a `]` is missing at the end of the
list". Anything not recognised keeps the parser's own words.
"""
from __future__ import annotations

import yaml


def in_words(err: yaml.YAMLError, text: str) -> tuple[int | None, str]:
    """(line from 1, what is wrong there) for a YAML syntax error in `text`."""
    problem = str(getattr(err, "problem", None) or err)
    mark = getattr(err, "problem_mark", None)
    start = getattr(err, "context_mark", None)
    line = mark.line + 1 if mark else None
    opened = start.line + 1 if start else line
    lines = text.splitlines()
    if "',' or ']'" in problem:
        return opened, "a `]` is missing at the end of the list (a list is `[CARD, CARD, …]`)"
    if "',' or '}'" in problem:
        return opened, "a `}` is missing at the end of the braces (write `NAME: {program: [CARD, …]}`)"
    if "'\\t'" in problem or (line and "\t" in "".join(lines[line - 1:line])):
        return line, "a tab: indent with spaces"
    if "mapping values are not allowed" in problem:
        return line, ("a second `key:` on one line: put a space after each colon and write a robot's program "
                      "as `NAME: {program: [CARD, …]}`")
    if "could not find expected ':'" in problem:
        return opened, "a `:` is missing after the name at the start of this line (`name: value`)"
    if "end of stream" in problem and "quoted scalar" in str(getattr(err, "context", "")):
        return opened, "a quote opened on this line is never closed"
    if "expected <block end>" in problem or "did not find expected key" in problem:
        return line, "this line is not indented like the lines above it (indent with spaces, as the turn sheet does)"
    return line, f"not valid YAML: {problem}"
