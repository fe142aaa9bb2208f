"""Dealing program cards (RULES B4.1–B4.3) and filling fused empty registers (B7.2, B10).

Pure functions of the deck, the robots and a seeded RNG: the campaign calls them
as the last end-of-turn step (B12) and keeps the results in the game state.
"""
from __future__ import annotations

import random
from dataclasses import dataclass, field
from typing import Callable, Iterable

from .cards import Card
from .ruleset import Ruleset
from .state import Robot


@dataclass(frozen=True)
class Deck:
    """A deck file: `preset` (Geek-o: one fixed sequence) or `shuffled` (BotWars: shuffled every turn)."""

    name: str
    order: str
    cards: tuple[Card, ...]


@dataclass
class Dealt:
    """What one deal hands out: hands (per player for a shared hand, else per robot) and register fills."""

    hands: dict[str, list[Card]] = field(default_factory=dict)
    fills: dict[str, dict[int, Card]] = field(default_factory=dict)  # robot -> fused register -> card
    cursor: int = 0  # preset decks: where the player's cursor stands afterwards


def damage(robot: Robot, ruleset: Ruleset) -> int:
    return max(0, ruleset.max_hp - robot.hp)


def hand_size(robot: Robot, ruleset: Ruleset) -> int:
    """B4.1: registers_max − damage."""
    return max(0, ruleset.registers_max - damage(robot, ruleset))


def fused_count(hp: int, ruleset: Ruleset) -> int:
    """B7.1: how many registers, from the top, are fused at this HP."""
    return min(ruleset.registers, max(0, ruleset.max_hp - hp - ruleset.fuse_from_damage + 1))


def fused_registers(robot: Robot, ruleset: Ruleset) -> list[int]:
    """B7.1: the fused register numbers for the robot's damage, highest register fusing first."""
    count = fused_count(robot.hp, ruleset)
    return list(range(ruleset.registers - count + 1, ruleset.registers + 1))


def free_registers(robot: Robot, ruleset: Ruleset) -> int:
    """How many registers a program may fill (B4.5)."""
    return ruleset.registers - len(fused_registers(robot, ruleset))


def empty_fused(robot: Robot, ruleset: Ruleset) -> list[int]:
    """Fused registers holding no card: B7.2 fills them."""
    return [n for n in fused_registers(robot, ruleset) if robot.registers.get(n) is None]


def usable_sets(robot: Robot, ruleset: Ruleset) -> set[str]:
    """G7: the card sets the robot has from computer squares in `upgrade_rooms` different rooms.

    An upgrade is recorded as `SET@ROOM NAME`.
    """
    rooms: dict[str, set[str]] = {}
    for upgrade in robot.upgrades:
        card_set, _, room = upgrade.partition("@")
        rooms.setdefault(card_set, set()).add(room)
    return {card_set for card_set, where in rooms.items() if len(where) >= ruleset.upgrade_rooms}


def can_use(robot: Robot, card: Card, ruleset: Ruleset) -> bool:
    """A basic card always; an upgrade card once the robot has its set (G7)."""
    return card.card_set is None or card.card_set in usable_sets(robot, ruleset)


def cards_in_registers(robots: Iterable[Robot]) -> set[Card]:
    return {card for robot in robots for card in robot.registers.values() if card is not None}


def deal_preset(deck: Deck, cursor: int, robots: list[Robot], receiving: list[str], ruleset: Ruleset, *,
                player: str) -> Dealt:
    """B4.3 (Geek-o): one shared hand for the player from their cursor into the pre-set sequence.

    `robots` are all the player's robots in robot order, `receiving` the names of
    those that get cards. Fused empty registers are filled first (B7.2: the first
    card from the cursor the robot can use), then the hand is dealt,
    skipping cards that no receiving robot can use. The cursor wraps past the end
    of the sequence and never hands out a card that sits in a register.
    """
    walker = _Cursor(deck.cards, cursor, cards_in_registers(robots))
    dealt = Dealt()
    _fill_fused(dealt, robots, ruleset, walker.next)
    takers = [r for r in robots if r.name in receiving]
    size = sum(hand_size(r, ruleset) for r in takers)
    cards = (walker.next(lambda c: any(can_use(r, c, ruleset) for r in takers)) for _ in range(size))
    hand = [card for card in cards if card is not None]
    dealt.hands[player] = hand
    dealt.cursor = walker.position
    return dealt


def deal_shuffled(deck: Deck, robots: list[Robot], receiving: list[str], ruleset: Ruleset,
                  rng: random.Random) -> Dealt:
    """B4.2 (BotWars): shuffle once, fill fused empty registers with random cards, then deal per robot in name order."""
    taken = cards_in_registers(robots)
    pool = [card for card in deck.cards if card not in taken]
    rng.shuffle(pool)
    dealt = Dealt()
    by_name = sorted(robots, key=lambda r: r.name)
    _fill_fused(dealt, by_name, ruleset, lambda wanted: _take(pool, wanted))
    for robot in by_name:
        if robot.name in receiving:
            cards = (_take(pool, _usable_by(robot, ruleset)) for _ in range(hand_size(robot, ruleset)))
            dealt.hands[robot.name] = [card for card in cards if card is not None]
    return dealt


def _usable_by(robot: Robot, ruleset: Ruleset) -> Callable[[Card], bool]:
    """Whether a card can go to `robot` (B4.2)."""
    return lambda card: can_use(robot, card, ruleset)


def _fill_fused(dealt: Dealt, robots: list[Robot], ruleset: Ruleset,
                take: Callable[[Callable[[Card], bool]], Card | None]) -> None:
    """B7.2: each robot's fused empty registers, in robot order, get the next card `take` finds it can use."""
    for robot in robots:
        for number in empty_fused(robot, ruleset):
            card = take(_usable_by(robot, ruleset))
            if card is not None:
                dealt.fills.setdefault(robot.name, {})[number] = card


class _Cursor:
    """A cursor walking a pre-set sequence, wrapping, never returning a card twice or one in `taken`."""

    def __init__(self, cards: tuple[Card, ...], position: int, taken: set[Card]):
        self.cards, self.position, self.taken = cards, position % max(1, len(cards)), taken

    def next(self, wanted: Callable[[Card], bool]) -> Card | None:
        for _ in range(len(self.cards)):
            card = self.cards[self.position]
            self.position = (self.position + 1) % len(self.cards)
            if card in self.taken:
                continue
            if wanted(card):
                self.taken.add(card)
                return card
        return None  # a whole lap found nothing to deal


def _take(pool: list[Card], wanted: Callable[[Card], bool]) -> Card | None:
    for index, card in enumerate(pool):
        if wanted(card):
            return pool.pop(index)
    return None
