"""The folder where commands keep pictures between runs (see `pbem.render.shelf`).

PBEM_CACHE_DIR names it (empty: keep nothing); else $XDG_CACHE_HOME/pbem, else ~/.cache/pbem. Entries sit in a
subfolder named by a hash of pbem's drawing code and fonts, so a changed drawing never reads an old picture.
A folder that cannot be read or written only costs the time to draw again.
"""
from __future__ import annotations

import os
from functools import cached_property
from pathlib import Path

PACKAGE = Path(__file__).resolve().parent.parent
# hashlib and tempfile are imported where used: every command asks for the cache folder (cli/dataclass_code.py)


def files_digest(*folders: Path, memo: Path | None = None) -> str:
    """A short hash of every file under `folders` (bytecode aside): what a kept picture or page was made by. Each
    is read bounded (a GM's template folder may hold anything): an over-size file or a link out of its folder is
    refused, naming it. With a `memo` folder (the cache's), the hash is kept there beside the files' sizes and
    times, and a run that finds them all as they were reads no file (hashing ~4 MB took ~0.05 s a run)."""
    import hashlib

    stamp = _stamp(folders) if memo is not None else None
    kept = memo / "digests" / hashlib.sha256("\0".join(map(os.path.abspath, folders)).encode()).hexdigest()[:16] \
        if memo is not None and stamp is not None else None
    if kept is not None:
        try:
            made, digest = kept.read_text(encoding="utf-8").split("\n")
            if made == stamp:
                return digest
        except (OSError, ValueError):
            pass
    digest = _hashed(folders)
    if kept is not None:
        put_whole(kept, f"{stamp}\n{digest}".encode())
    return digest


def _hashed(folders: tuple[Path, ...]) -> str:
    import hashlib

    from ..formats.bounded import read_within

    digest = hashlib.sha256()
    for folder in folders:
        for path in sorted(folder.rglob("*")):
            if path.is_file() and "__pycache__" not in path.parts:
                data = read_within(folder, path, limit="a template's limit")
                digest.update(f"{path.relative_to(folder)}\0".encode() + data + b"\0")
    return digest.hexdigest()[:16]


def _stamp(folders: tuple[Path, ...]) -> str | None:
    """A hash of every file's name, size, inode and modification and change times under `folders` (bytecode
    aside): a file edited, replaced, added or removed changes it (the change time even when the modification time
    is set back). None (hash every run) for a folder holding a link to a folder, or one that cannot be listed."""
    import hashlib

    seen: list[str] = []

    def walk(folder: str) -> bool:
        with os.scandir(folder) as entries:
            for entry in entries:
                if entry.name == "__pycache__":
                    continue
                if entry.is_dir(follow_symlinks=False):
                    if not walk(entry.path):
                        return False
                elif entry.is_dir():
                    return False
                else:
                    seen.append(f"{entry.path}\0{file_stamp(entry.path)}")  # through a link, as the hash reads
        return True

    try:
        if not all(walk(str(folder)) for folder in folders):
            return None
    except OSError:
        return None
    return hashlib.sha256("\n".join(sorted(seen)).encode()).hexdigest()


def file_stamp(path: str) -> str:
    """A file's size, inode and modification and change times ("-" when it is not there): any edit, replacement or
    removal changes it, the change time even when the modification time is set back."""
    try:
        info = os.stat(path)
    except OSError:
        return "-"
    return f"{info.st_size}\0{info.st_ino}\0{info.st_mtime_ns}\0{info.st_ctime_ns}"


def put_whole(path: Path, data: bytes) -> None:
    """Write a cache entry whole (never half-written, even with concurrent runs); a folder that cannot be written
    only costs the work again."""
    import tempfile

    try:
        path.parent.mkdir(parents=True, exist_ok=True)
        with tempfile.NamedTemporaryFile(dir=path.parent, delete=False) as part:
            part.write(data)
        os.replace(part.name, path)
    except OSError:
        pass


class FolderShelf:
    """Entries in `root`/`kind`/ in a folder named by a hash of the `code` that makes them."""

    def __init__(self, root: Path, kind: str = "pictures", code: tuple[Path, ...] = (PACKAGE / "render",)):
        self.root, self.kind, self.code = root, kind, code

    @cached_property
    def folder(self) -> Path:
        return self.root / self.kind / files_digest(*self.code, memo=self.root)

    def get(self, key: str) -> bytes | None:
        try:
            return (self.folder / key).read_bytes()
        except OSError:
            return None

    def put(self, key: str, data: bytes) -> None:
        put_whole(self.folder / key, data)


def cache_root() -> Path | None:
    given = os.environ.get("PBEM_CACHE_DIR")
    if given is not None:
        return Path(given) if given else None
    return Path(os.environ.get("XDG_CACHE_HOME") or Path.home() / ".cache") / "pbem"


def lend_shelf() -> None:
    """Let the render layer keep pictures, and the store decoded setups, in the cache folder for this process."""
    from ..render.shelf import lend
    from ..store.shelf import lend as lend_setups

    root = cache_root()
    lend(FolderShelf(root) if root is not None else None)
    lend_setups(FolderShelf(root, "setups", (PACKAGE / "engine", PACKAGE / "formats", PACKAGE / "store"))
                if root is not None else None)
