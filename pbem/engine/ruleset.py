"""Rulesets (RULES B1): every number and every ruling of RULES.md as a field, with its default.

A game (or a scenario) names a preset, `botwars` or `geeko`, and may override
single fields by name (`ruleset_options` in a scenario). The field comments
cite the rule each one comes from.
"""
from __future__ import annotations

from dataclasses import dataclass, fields, replace
from typing import Any, Mapping


@dataclass(frozen=True)
class Ruleset:
    name: str = "botwars"
    # B1 / B2 / B3
    robots_per_player: int = 1        # B1
    registers: int = 5                # B1: program registers per robot (geeko 9)
    max_hp: int = 10                  # B2.1
    virtual: bool = True              # B1/B9: reinstated robots are virtual
    robot_lasers: bool = True         # B1: every robot fires a forward main laser
    flags: bool = True                # B1: flags are touched in order
    # B4 dealing and programming
    registers_max: int = 9            # B4.1: hand size = registers_max - damage
    deck_order: str = "shuffled"      # B4.2 shuffled each turn | B4.3 preset (also B7.2: random | deck fills)
    shared_hand: bool = False         # B4.3: one hand for a player's robots
    equal_length_programs: bool = False  # B4.5 geeko: both programs of one length
    fill_free_registers: bool = True  # B4.5 botwars: a program fills every free register
    missing_orders: str = "fill"      # B4.6: fill (from the hand, in order) | idle
    # B6 / B6b mechanisms
    fence_damage: int = 2             # B6.2: per attempted step across a fence
    laser_damage: int = 1             # B6b.5: per beam
    buzzsaw_threshold: float = 0.75   # B6b.6: a draw above this spins the saw
    buzzsaw_damage: int = 1           # B6b.6
    # B7 damage and fused registers
    fuse_from_damage: int = 5         # B7.1: the damage at which the top register fuses
    # B8 destruction and reinstatement
    reinstate_damage: int = 2         # B8.2: damage a reinstated robot comes back with
    lives: int | None = 3             # B8.2: robots per player; None = unlimited (geeko)
    wrench_is_checkpoint: bool = True  # B8.1 botwars: a wrench square becomes the reinstatement square; G6 geeko: no
    # B9 virtual robots
    virtual_turns: int = 1            # B9: complete turns a reinstated robot stays virtual at least
    # B10 rebooting
    reboot_restores_hp: bool = True   # B10
    # B11 options
    options_absorb_damage: bool = True  # B11: botwars may give up an option to cancel one point
    option_hp: int = 6                # B11: default HP at which an option is given up
    # B12 end of turn / G6 / G7
    wrench_repair: int = 1            # B12: HP per wrench on the square
    upgrade_rooms: int = 2            # G7: computers in this many different rooms unlock a card set
    # G rules
    rooms: int = 5                    # G1: rooms in a Geek-o campaign
    entry_fee_size: int = 7           # G8: entry-fee boards are 7x7
    transit_turns_per_room: int = 1   # G5: turns in transit per room already completed

    def with_options(self, options: Mapping[str, Any]) -> "Ruleset":
        """This ruleset with some fields overridden by name; unknown names or wrong types raise ValueError."""
        known = {f.name: f for f in fields(self)}
        changes = {}
        for key, value in options.items():
            if key not in known or key == "name":
                raise ValueError(f"unknown ruleset option {key!r}")
            current = getattr(self, key)
            if not _same_kind(current, value):
                raise ValueError(f"ruleset option {key!r} must be like {current!r}, not {value!r}")
            changes[key] = value
        return replace(self, **changes)


def _same_kind(current: Any, value: Any) -> bool:
    if isinstance(current, bool) or isinstance(value, bool):
        return isinstance(current, bool) and isinstance(value, bool)
    if current is None or value is None:
        return True
    if isinstance(current, float):
        return isinstance(value, (int, float))
    return type(current) is type(value)


BOTWARS = Ruleset()

GEEKO = replace(
    BOTWARS,
    name="geeko",
    robots_per_player=2,
    registers=9,
    virtual=False,
    robot_lasers=False,
    flags=False,
    deck_order="preset",
    shared_hand=True,
    equal_length_programs=True,
    fill_free_registers=False,
    missing_orders="idle",
    fuse_from_damage=1,
    reinstate_damage=0,
    lives=None,
    wrench_is_checkpoint=False,
    options_absorb_damage=False,
)

PRESETS: dict[str, Ruleset] = {"botwars": BOTWARS, "geeko": GEEKO}


def get_ruleset(name: str, options: Mapping[str, Any] | None = None) -> Ruleset:
    """A preset by name, with `options` overriding single fields."""
    try:
        base = PRESETS[name]
    except KeyError:
        raise ValueError(f"unknown ruleset {name!r} (known: {', '.join(sorted(PRESETS))})") from None
    return base.with_options(options or {})
