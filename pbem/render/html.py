"""HTML pages from the report model, through the Jinja2 templates in `templates/` (autoescaped).

Templates are looked up first in the caller's folders (a campaign folder's own
`templates/`, so a GM can restyle the reports), then in the project's. Each is read
bounded, as `formats/bounded.py` reads any file a command is given (#37).
"""
from __future__ import annotations

import errno
import os
import posixpath
from functools import lru_cache
from typing import Any, Callable, Iterable

from jinja2 import BytecodeCache, Environment, FileSystemLoader, StrictUndefined, TemplateNotFound, select_autoescape
from jinja2.bccache import Bucket
from jinja2.loaders import split_template_path

from ..formats.bounded import decode, read_within
from ..formats.problems import FormatError
from ..resources import resource_dir
from .shelf import shelved

TEMPLATE_DIR = resource_dir("templates")  # the bundled templates (a checkout's or an installed copy)


def campaign_templates() -> tuple[str, ...]:
    """A campaign folder's own templates/ (from `pbem init`), which override the bundled ones."""
    return ("templates",) if os.path.isdir("templates") else ()


class _ShelfBytecode(BytecodeCache):
    """Compiled templates kept on the shelf (`shelf.py`): compiling the report templates takes ~0.1 s a process.
    Jinja checks each entry against the template's source and the Python version."""

    def load_bytecode(self, bucket: Bucket) -> None:
        shelf = shelved()
        data = shelf.get("jinja-" + bucket.key) if shelf is not None else None
        if data is not None:
            bucket.bytecode_from_string(data)

    def dump_bytecode(self, bucket: Bucket) -> None:
        shelf = shelved()
        if shelf is not None:
            shelf.put("jinja-" + bucket.key, bucket.bytecode_to_string())


class TemplateRefused(OSError):
    """A template file that is no bounded regular file in its folder: its path and why, as the CLI says any file
    it cannot read."""


class _BoundedLoader(FileSystemLoader):
    """A template's file, whatever lies in the folder under its name, is read as `read_within` reads: a regular
    file (never a FIFO, which would block, nor a device), in the folder (a link out of it is refused), no bigger
    than MAX_BYTES, UTF-8 text."""

    def get_source(self, environment: Environment, template: str) -> tuple[str, str, Callable[[], bool]]:
        pieces = split_template_path(template)
        for folder in self.searchpath:
            path = posixpath.join(folder, *pieces)
            if os.path.lexists(path):
                break
        else:
            raise TemplateNotFound(template)
        try:
            text = decode(read_within(folder, path, limit="a template's limit"), path)
        except FormatError as err:
            raise TemplateRefused(errno.EINVAL, err.problems[0].message, path) from None
        changed = os.path.getmtime(path)
        return text, os.path.normpath(path), lambda: _modified(path) == changed


def _modified(path: str) -> float | None:
    try:
        return os.path.getmtime(path)
    except OSError:
        return None


@lru_cache(maxsize=8)
def environment(extra_dirs: tuple[str, ...] = ()) -> Environment:
    return Environment(
        loader=_BoundedLoader([*extra_dirs, str(TEMPLATE_DIR)]),
        autoescape=select_autoescape(["html"], default_for_string=True, default=True),
        undefined=StrictUndefined,
        trim_blocks=False,
        keep_trailing_newline=True,
        bytecode_cache=_ShelfBytecode(),
    )


def source(name: str, extra_dirs: tuple[str, ...] = ()) -> str:
    """A template folder's file as it is (a style sheet, a script), the caller's folders first: read once per
    process while its file is unchanged (every page carries the style sheet: a due tick renders ~20 a game)."""
    kept = _sources.get((name, extra_dirs))
    if kept is None or not kept[1]():
        env = environment(extra_dirs)
        assert isinstance(env.loader, _BoundedLoader)
        text, _, uptodate = env.loader.get_source(env, name)
        kept = _sources[(name, extra_dirs)] = (text, uptodate)
    return kept[0]


_sources: dict[tuple[str, tuple[str, ...]], tuple[str, Callable[[], bool]]] = {}


def css(extra_dirs: tuple[str, ...] = ()) -> str:
    return source("style.css", extra_dirs)


def pieces(extra_dirs: Iterable[str] = ()) -> Any:
    """The macros of `_site.html` (a turn's line on its game's index, its entry in the feed), called as functions:
    each returns its text, safe to put in a page."""
    return environment(tuple(extra_dirs)).get_template("_site.html").module


def render(name: str, extra_dirs: Iterable[str] = (), **context: Any) -> str:
    dirs = tuple(extra_dirs)
    return environment(dirs).get_template(name).render(css=css(dirs), **context)
