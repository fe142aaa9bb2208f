"""Safe YAML reading that remembers where everything came from.

Mappings load as `LinedDict` and sequences as `LinedList`, which know the line
of each key or item, so every error can name the file, the line and the field.
Tags, anchors/aliases, binary or non-UTF-8 input and oversized files are
refused before anything is built, and so is nesting deeper than `MAX_DEPTH`:
they are how hostile input hurts a parser. Every whole number, in any spelling
YAML 1.1 reads as one (decimal, 0x hex, 0o or 0 octal, 0b binary, underscores,
sexagesimal 1:30, a sign), is bounded here, where it enters, by `MAX_INT`: no
reader downstream meets a number it cannot print or store.
"""
from __future__ import annotations

from pathlib import Path
from typing import Any

from .bounded import MAX_BYTES as MAX_BYTES  # readers import these from here
from .bounded import decode as decode
from .bounded import read_limited as read_limited
from .problems import FormatError as FormatError  # readers import these from here
from .problems import LinedDict as LinedDict
from .problems import LinedList as LinedList
from .problems import Problem as Problem
from .problems import line_of as line_of

MAX_DEPTH = 50  # deeper nesting is refused: no format needs it, and the YAML composer recurses per level
MAX_INT = 2**63 - 1  # the largest whole number a file may hold (a database's BIGINT); any bound of a field is smaller


def read_yaml_file(path: str | Path, max_bytes: int = MAX_BYTES) -> Any:
    return load_yaml(decode(read_limited(path, max_bytes), str(path), max_bytes), str(path))


def load_yaml(text: str, source: str = "<input>") -> Any:
    """Parse one YAML document into LinedDict/LinedList/scalars."""
    from .yamlparse import parse  # PyYAML is loaded by the first document read, not by every reader's import (#34)

    return parse(text, source)
