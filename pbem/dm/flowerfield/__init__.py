"""Flower Field (RULES D4) and its editions; see `game` for the rules and `fields` for duplicates."""
from .game import FlowerField, State, missed_duplicates
from .variants import VARIANTS, variant

__all__ = ["FlowerField", "State", "VARIANTS", "missed_duplicates", "variant"]
