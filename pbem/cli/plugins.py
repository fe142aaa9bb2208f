"""Mechanisms a GM loads without editing pbem (RULES G9): an installed package's entry points (group
`pbem.mechanisms`, each a module that registers its classes or a `Mechanism` class) and the `.py` files of the
campaign folder's `mechanisms/`. Loaded the first time a command reads the mechanism registry; a plug-in that
fails to load ends the command naming it."""
from __future__ import annotations

import importlib.util
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
    distribution, ~3 ms, that each command run in the same process, as the tests run hundreds, paid again)."""
    from importlib.metadata import entry_points

    return sorted(entry_points(group=ENTRY_POINT_GROUP), key=lambda p: p.name)


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
