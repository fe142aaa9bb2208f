"""The code of the dataclasses' generated methods, kept in the cache folder between pbem processes (#36).

`dataclasses` writes each class's methods (`__init__`, `__repr__`, `__eq__`; a frozen class's `__hash__`,
`__setattr__`, `__delattr__`) as source text and runs it with `exec`, compiling it: the ~190 dataclasses a due tick
defines (the engine's events and states, the store's rows, Typer's, pydantic's…) spent ~70 ms of CPU, ~40 of it
compiling. The same text always compiles to the same code, so the pbem process gives `dataclasses` an `exec` that
compiles a text only the first time: the code is kept per module that defines dataclasses (the text is the key,
so a class changed since is compiled anew, and the file is written again with only the texts in use), in the
cache folder (`shelf.cache_root`) under the Python build, as Jinja's compiled templates are kept beside it.
"""
from __future__ import annotations

import atexit
import dataclasses
import marshal
import sys
from pathlib import Path
from types import CodeType
from typing import Any

from .shelf import cache_root, put_whole


class KeptCode:
    """Compiled texts by module: those read from the folder, and those this process used."""

    def __init__(self, folder: Path):
        self.folder = folder
        self.kept: dict[str, dict[str, CodeType]] = {}
        self.used: dict[str, dict[str, CodeType]] = {}
        self.missed: set[str] = set()

    def exec(self, source: Any, globals: Any = None, locals: Any = None, /) -> None:
        """`exec`, with a text compiled as `exec` would (no `__future__` flag of this module inherited), once."""
        if isinstance(source, str) and isinstance(globals, dict) and isinstance(globals.get("__name__"), str):
            module = globals["__name__"]
            code = self._kept(module).get(source)
            if code is None:
                code = compile(source, "<string>", "exec", dont_inherit=True)
                self.missed.add(module)
            self.used.setdefault(module, {})[source] = code
            source = code
        exec(source, globals, locals)

    def _kept(self, module: str) -> dict[str, CodeType]:
        if module not in self.kept:
            try:
                codes = marshal.loads((self.folder / module).read_bytes())
            except (OSError, EOFError, ValueError, TypeError):
                codes = {}
            valid = isinstance(codes, dict) and all(isinstance(code, CodeType) for code in codes.values())
            self.kept[module] = codes if valid else {}
        return self.kept[module]

    def write(self) -> None:
        """Write the file of every module that compiled a text: the texts it uses now, and no other."""
        for module in sorted(self.missed):
            put_whole(self.folder / module, marshal.dumps(self.used[module]))
        self.missed.clear()


def keep_dataclass_code() -> None:
    """From now on in this process, dataclasses compile a method's text only when the cache folder does not keep
    its code yet (no cache folder: every time, as before); what was compiled is written when the process ends."""
    try:
        root = cache_root()
    except RuntimeError:  # no home folder to hold it: every command would otherwise refuse to start
        return
    if root is None:
        return
    kept = KeptCode(root / "dataclasses" / f"{sys.implementation.cache_tag}-{sys.hexversion:x}")
    dataclasses.exec = kept.exec  # type: ignore[attr-defined]  # found before the builtin by dataclasses' code
    atexit.register(kept.write)
