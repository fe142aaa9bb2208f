"""What is wrong with an input file, as every reader reports it, and the lines its values came from: in a module of
its own, without YAML, so a command that only catches a refusal (`pbem game list` opening the store) or checks
settings that came from no file (`pbem run` without a mail config) does not import the parser."""
from __future__ import annotations

from dataclasses import dataclass
from typing import Any, Callable


@dataclass(frozen=True)
class Problem:
    """One thing wrong with an input file."""

    source: str
    line: int | None
    field: str
    message: str

    def __str__(self) -> str:
        where = f"{self.source}:{self.line}" if self.line else self.source
        return f"{where}: {self.field}: {self.message}" if self.field else f"{where}: {self.message}"


class LinedDict(dict[Any, Any]):
    line: int | None = None
    lines: dict[Any, int | None]

    def line_of(self, key: Any) -> int | None:
        return self.lines.get(key, self.line)


class LinedList(list[Any]):
    line: int | None = None
    lines: list[int | None]

    def line_of(self, index: int) -> int | None:
        return self.lines[index] if 0 <= index < len(self.lines) else self.line


def line_of(container: Any, key: Any) -> int | None:
    """The line of `container[key]`, or of the container, or None for plain data."""
    if isinstance(container, (LinedDict, LinedList)):
        return container.line_of(key)
    return None


class FormatError(Exception):
    """Input refused, with every problem found."""

    def __init__(self, problems: list[Problem]):
        self.problems = list(problems)
        super().__init__("\n".join(str(p) for p in self.problems))


# A reader's way of noting a problem: (the mapping or list, the key in it whose line is meant, the field, why).
Complain = Callable[[Any, Any, str, str], None]
