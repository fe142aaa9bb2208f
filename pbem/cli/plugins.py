"""Mechanisms a GM loads without editing pbem (RULES G9): an installed package's entry points (group
`pbem.mechanisms`, each a module that registers its classes or a `Mechanism` class) and the `.py` files of the
campaign folder's `mechanisms/`. Loaded the first time a command reads the mechanism registry; a plug-in that
fails to load ends the command naming it."""
from __future__ import annotations

import importlib.util
import os
import sys
from functools import cache, partial
from pathlib import Path
from typing import Any, Callable

from .common import refuse

ENTRY_POINT_GROUP = "pbem.mechanisms"
FOLDER = "mechanisms"


def plugin_loader(campaign: Path) -> Callable[[], None]:
    """The loader for the installed plug-ins and those in `campaign`/mechanisms/."""

    def load() -> None:
        for point in _installed_points():
            _loaded(f"entry point {point.name} = {point.value}", point.load)
        folder = campaign / FOLDER
        for path in sorted(folder.glob("*.py")) if folder.is_dir() else []:
            _loaded(str(path), partial(_import_file, path))

    return load


@cache
def _installed_points() -> list[Any]:
    """The installed packages' entry points, by name: read once per process (a scan of every installed
    distribution, ~3 ms, that each command run in the same process, as the tests run hundreds, paid again). That none
    is installed is kept in the cache folder beside a stamp of the installed distributions, so a run that finds them
    as they were imports no `importlib.metadata` and reads no distribution (~15 ms a `pbem` process)."""
    from .shelf import cache_root, put_whole

    root, stamp = cache_root(), _distributions_stamp()
    kept = root / "entry-points" / ENTRY_POINT_GROUP if root is not None and stamp is not None else None
    if kept is not None:
        try:
            if kept.read_text(encoding="utf-8") == stamp:
                return []
        except OSError:
            pass
    from importlib.metadata import entry_points

    points = sorted(entry_points(group=ENTRY_POINT_GROUP), key=lambda p: p.name)
    if kept is not None and stamp is not None and not points:
        put_whole(kept, stamp.encode())
    return points


def _distributions_stamp() -> str | None:
    """A hash of what `importlib.metadata` would read: each folder on sys.path, the names of its distributions'
    metadata (`*.dist-info`, `*.egg-info`) and their `entry_points.txt`'s size, inode and times; a package installed,
    removed, upgraded or given an entry point changes it. None (scan every run) when a folder cannot be listed."""
    import hashlib

    from .shelf import file_stamp

    seen = []
    try:
        for folder in sys.path:
            where = folder or "."
            if not os.path.isdir(where):  # a zip file, or nothing
                seen.append(f"{os.path.abspath(where)}\0{file_stamp(where)}")
                continue
            seen.append(os.path.abspath(where))
            with os.scandir(where) as entries:
                seen += sorted(f"{entry.name}\0{file_stamp(os.path.join(entry.path, 'entry_points.txt'))}"
                               for entry in entries if entry.name.lower().endswith((".dist-info", ".egg-info")))
    except OSError:
        return None
    return hashlib.sha256("\n".join(seen).encode()).hexdigest()


def _loaded(what: str, load: Callable[[], Any]) -> None:
    from ..engine.mechanism import Mechanism, register

    try:
        found = load()
        if isinstance(found, type) and issubclass(found, Mechanism):
            register(found)
    except Exception as err:  # any fault in a GM's plug-in is reported, never a traceback
        refuse([f"mechanism plug-in {what}: {type(err).__name__}: {err}"])


def _import_file(path: Path) -> Any:
    """Run a campaign's plug-in file as a module (its `@register` classes register themselves)."""
    name = f"pbem_campaign_mechanisms.{path.stem}"
    spec = importlib.util.spec_from_file_location(name, path)
    if spec is None or spec.loader is None:
        raise ImportError(f"cannot import {path}")
    module = importlib.util.module_from_spec(spec)
    sys.modules[name] = module
    spec.loader.exec_module(module)
    return module
