"""The folder where commands keep pictures between runs (see `pbem.render.shelf`).

PBEM_CACHE_DIR names it (empty: keep nothing); else $XDG_CACHE_HOME/pbem, else ~/.cache/pbem. Entries sit in a
subfolder named by a hash of pbem's drawing code and fonts, so a changed drawing never reads an old picture.
A folder that cannot be read or written only costs the time to draw again.
"""
from __future__ import annotations

import hashlib
import os
import tempfile
from functools import cached_property
from pathlib import Path

PACKAGE = Path(__file__).resolve().parent.parent


def files_digest(*folders: Path) -> str:
    """A short hash of every file under `folders` (bytecode aside): what a kept picture or page was made by. Each
    is read bounded (a GM's template folder may hold anything): an over-size file or a link out of its folder is
    refused, naming it."""
    from ..formats.bounded import read_within

    digest = hashlib.sha256()
    for folder in folders:
        for path in sorted(folder.rglob("*")):
            if path.is_file() and "__pycache__" not in path.parts:
                data = read_within(folder, path, limit="a template's limit")
                digest.update(f"{path.relative_to(folder)}\0".encode() + data + b"\0")
    return digest.hexdigest()[:16]


class FolderShelf:
    def __init__(self, root: Path):
        self.root = root

    @cached_property
    def folder(self) -> Path:
        return self.root / "pictures" / files_digest(PACKAGE / "render")

    def get(self, key: str) -> bytes | None:
        try:
            return (self.folder / key).read_bytes()
        except OSError:
            return None

    def put(self, key: str, data: bytes) -> None:
        try:
            self.folder.mkdir(parents=True, exist_ok=True)
            with tempfile.NamedTemporaryFile(dir=self.folder, delete=False) as part:
                part.write(data)
            os.replace(part.name, self.folder / key)  # never a half-written entry, even with concurrent runs
        except OSError:
            pass


def cache_root() -> Path | None:
    given = os.environ.get("PBEM_CACHE_DIR")
    if given is not None:
        return Path(given) if given else None
    return Path(os.environ.get("XDG_CACHE_HOME") or Path.home() / ".cache") / "pbem"


def lend_shelf() -> None:
    """Let the render layer keep pictures in the cache folder for this process."""
    from ..render.shelf import lend

    root = cache_root()
    lend(FolderShelf(root) if root is not None else None)
