"""HTML pages from the report model, through the Jinja2 templates in `templates/` (autoescaped).

Templates are looked up first in the caller's folders (a campaign folder's own
`templates/`, so a GM can restyle the reports), then in the project's.
"""
from __future__ import annotations

from functools import lru_cache
from typing import Any, Iterable

from jinja2 import BytecodeCache, Environment, FileSystemLoader, StrictUndefined, select_autoescape
from jinja2.bccache import Bucket

from ..resources import resource_dir
from .shelf import shelved

TEMPLATE_DIR = resource_dir("templates")  # the bundled templates (a checkout's or an installed copy)


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


@lru_cache(maxsize=8)
def environment(extra_dirs: tuple[str, ...] = ()) -> Environment:
    return Environment(
        loader=FileSystemLoader([*extra_dirs, str(TEMPLATE_DIR)]),
        autoescape=select_autoescape(["html"], default_for_string=True, default=True),
        undefined=StrictUndefined,
        trim_blocks=False,
        keep_trailing_newline=True,
        bytecode_cache=_ShelfBytecode(),
    )


def source(name: str, extra_dirs: tuple[str, ...] = ()) -> str:
    """A template folder's file as it is (a style sheet, a script), the caller's folders first."""
    env = environment(extra_dirs)
    text, _, _ = env.loader.get_source(env, name)  # type: ignore[union-attr]
    return text


def css(extra_dirs: tuple[str, ...] = ()) -> str:
    return source("style.css", extra_dirs)


def render(name: str, extra_dirs: Iterable[str] = (), **context: Any) -> str:
    dirs = tuple(extra_dirs)
    return environment(dirs).get_template(name).render(css=css(dirs), **context)
