"""Rulesets (RULES B1): every number and every ruling of RULES.md as a field, with its default.

A game (or a scenario) names a preset, `botwars` or `geeko`, and may override
single fields by name (`ruleset_options` in a scenario). The field comments
cite the rule each one comes from. Each numeric field carries its valid range
(`ranged(default, low, high)`, kept in the field's metadata) so an override
outside it is refused by name.
"""
from __future__ import annotations

from dataclasses import dataclass, field, fields, replace
from enum import StrEnum
from typing import Any, Mapping

from .vocabulary import DeckOrder, MissingOrders, parse_word

MAX_REGISTERS = 9  # B1/G: programs of up to nine registers, so stages run 1..9


def ranged(default: Any, low: float, high: float | None) -> Any:
    """A numeric field with its default and valid range low..high (None: no upper bound)."""
    return field(default=default, metadata={"range": (low, high)})


def out_of_range(spec: Any, value: Any) -> str | None:
    """Why `value` lies outside the field's range, or None (also for unranged fields and None values)."""
    bounds = spec.metadata.get("range")
    if bounds is None or value is None:
        return None
    low, high = bounds
    if value < low or (high is not None and value > high):
        return f"must be {'at least ' + str(low) if high is None else f'from {low} to {high}'}"
    return None


@dataclass(frozen=True)
class Ruleset:
    name: str = "botwars"
    # B1 / B2 / B3
    robots_per_player: int = ranged(1, 1, None)        # B1
    registers: int = ranged(5, 1, MAX_REGISTERS)     # B1: program registers per robot (geeko 9)
    max_hp: int = ranged(10, 1, None)                  # B2.1
    virtual: bool = True              # B1/B9: reinstated robots are virtual
    robot_lasers: bool = True         # B1: every robot fires a forward main laser
    flags: bool = True                # B1: flags are touched in order
    # B4 dealing and programming
    registers_max: int = ranged(9, 1, None)            # B4.1: hand size = registers_max - damage
    deck_order: DeckOrder = DeckOrder.SHUFFLED  # B4.2 shuffled each turn | B4.3 preset (B7.2: random | deck fills)
    shared_hand: bool = False         # B4.3: one hand for a player's robots
    equal_length_programs: bool = False  # B4.5 geeko: both programs of one length
    fill_free_registers: bool = True  # B4.5 botwars: a program fills every free register
    missing_orders: MissingOrders = MissingOrders.FILL  # B4.6: fill (from the hand, in order) | idle | bot
    # B6 / B6b mechanisms
    fence_damage: int = ranged(2, 0, None)             # B6.2: per attempted step across a fence
    laser_damage: int = ranged(1, 0, None)             # B6b.5: per beam
    buzzsaw_threshold: float = ranged(0.75, 0, 1)         # B6b.6: a draw above this spins the saw
    buzzsaw_damage: int = ranged(1, 0, None)           # B6b.6
    # B7 damage and fused registers
    fuse_from_damage: int = ranged(5, 1, None)         # B7.1: the damage at which the top register fuses
    # B8 destruction and reinstatement
    reinstate_damage: int = ranged(2, 0, None)         # B8.2: damage a reinstated robot comes back with
    lives: int | None = ranged(3, 1, None)             # B8.2: robots per player; None = unlimited (geeko)
    wrench_is_checkpoint: bool = True  # B8.1 botwars: a wrench square becomes the reinstatement square; G6 geeko: no
    # B9 virtual robots
    virtual_turns: int = ranged(1, 0, None)            # B9: complete turns a reinstated robot stays virtual at least
    # B10 rebooting
    reboot_restores_hp: bool = True   # B10
    # B11 options
    options_absorb_damage: bool = True  # B11: botwars may give up an option to cancel one point
    option_hp: int = ranged(6, 0, None)                # B11: default HP at which an option is given up
    # B12 end of turn / G6 / G7
    wrench_repair: int = ranged(1, 0, None)            # B12: HP per wrench on the square
    upgrade_rooms: int = ranged(2, 1, None)            # G7: computers in this many different rooms unlock a card set
    # G rules
    rooms: int = ranged(5, 1, None)                    # G1: rooms in a Geek-o campaign
    entry_fee_size: int = ranged(7, 1, None)               # G8: entry-fee boards are 7x7
    transit_turns_per_room: int = ranged(1, 0, None)   # G5: turns in transit per room already completed
    own_boards: bool = False          # G2: every player plays alone, in their own copy of the room

    def with_options(self, options: Mapping[str, Any]) -> "Ruleset":
        """This ruleset with some fields overridden by name; unknown names, wrong types, numbers out of range and
        words outside a field's vocabulary (`deck_order: presett`) raise ValueError naming what is allowed."""
        known = {f.name: f for f in fields(self)}
        changes = {}
        for key, value in options.items():
            if key not in known or key == "name":
                raise ValueError(f"unknown ruleset option {key!r}")
            current = getattr(self, key)
            if isinstance(current, StrEnum):
                value = parse_word(type(current), value, f"ruleset option {key!r}")
            elif not _same_kind(current, value):
                raise ValueError(f"ruleset option {key!r} must be like {current!r}, not {value!r}")
            reason = out_of_range(known[key], value)
            if reason:
                raise ValueError(f"ruleset option {key!r} {reason}, not {value!r}")
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
    deck_order=DeckOrder.PRESET,
    shared_hand=True,
    equal_length_programs=True,
    fill_free_registers=False,
    missing_orders=MissingOrders.IDLE,
    fuse_from_damage=1,
    reinstate_damage=0,
    lives=None,
    wrench_is_checkpoint=False,
    options_absorb_damage=False,
    own_boards=True,
)

PRESETS: dict[str, Ruleset] = {ruleset.name: ruleset for ruleset in (BOTWARS, GEEKO)}


def get_ruleset(name: str, options: Mapping[str, Any] | None = None) -> Ruleset:
    """A preset by name, with `options` overriding single fields."""
    try:
        base = PRESETS[name]
    except KeyError:
        raise ValueError(f"unknown ruleset {name!r} (known: {', '.join(sorted(PRESETS))})") from None
    return base.with_options(options or {})
