"""The option catalogue (RULES B11): data in `options.yaml`, effects in code.

The catalogue ships inside the package and is read once, like a constant
(it is not user input). Effects: `laser` (a robot beam, forward or backward)
and `absorb` (ablative coating: the next `points` of damage).
"""
from __future__ import annotations

from functools import lru_cache
from types import MappingProxyType
from typing import Any, Mapping

EFFECTS = ("laser", "absorb")


@lru_cache(maxsize=1)
def catalogue() -> Mapping[str, Mapping[str, Any]]:
    from importlib import resources  # imported when an option is asked about, not by every engine import

    import yaml

    text = resources.files(__package__).joinpath("options.yaml").read_text(encoding="utf-8")
    data = yaml.safe_load(text)
    for name, entry in data.items():
        if entry.get("effect") not in EFFECTS:
            raise ValueError(f"options.yaml: {name}: unknown effect {entry.get('effect')!r}")
    return MappingProxyType({name: MappingProxyType(dict(entry)) for name, entry in data.items()})


_NONE: Mapping[str, Any] = MappingProxyType({})


def option_effect(name: str) -> Mapping[str, Any]:
    """The catalogue entry of an option (empty for a name the catalogue does not know)."""
    return catalogue().get(name, _NONE)


def option_names() -> list[str]:
    return sorted(catalogue())


def initial_charges(name: str) -> int | None:
    """Points an option starts with (ablative-coat), or None."""
    entry = option_effect(name)
    return int(entry["points"]) if entry.get("effect") == "absorb" else None
