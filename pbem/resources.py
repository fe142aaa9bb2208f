"""Where the bundled data folders are: `rooms/`, `decks/`, `templates/`, `turns/` and `docs/` (the rulebook).

In a checkout they sit beside the `pbem` package; in an installed wheel the
build copies them into `pbem/_data/` (see setup.py), so both cases resolve here.
"""
from __future__ import annotations

from pathlib import Path

BUNDLED = ("rooms", "decks", "templates", "turns", "docs")
_PACKAGE = Path(__file__).resolve().parent


def resource_dir(name: str) -> Path:
    """The bundled folder `name` (one of BUNDLED), installed copy first, then the checkout's."""
    if name not in BUNDLED:
        raise ValueError(f"not a bundled folder: {name!r}")
    for candidate in (_PACKAGE / "_data" / name, _PACKAGE.parent / name):
        if candidate.is_dir():
            return candidate
    raise FileNotFoundError(f"the bundled folder {name}/ is missing from this installation")


def resource_path(relative: str | Path) -> Path:
    """A bundled file or folder named from the top of the data folders, e.g. `decks/geeko.yaml`."""
    parts = Path(relative).parts
    return resource_dir(parts[0]).joinpath(*parts[1:])


def find_file(name: str | Path, base: Path | None = None) -> Path:
    """A path relative to `base` (or the current folder when no base is given), else the bundled one of that name."""
    path = Path(name)
    candidate = base / path if base is not None and not path.is_absolute() else path
    if candidate.exists():
        return candidate
    if not path.is_absolute() and path.parts and path.parts[0] in BUNDLED:
        bundled = resource_path(path)
        if bundled.exists():
            return bundled
    raise FileNotFoundError(f"{name}: no such file here or among the bundled {'/'.join(BUNDLED)}")
