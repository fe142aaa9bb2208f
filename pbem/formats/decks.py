"""Deck files (DESIGN.md "Deck"): `order: preset | shuffled` and `cards:` as `KIND#NUMBER` in deck order."""
from __future__ import annotations

from pathlib import Path
from typing import Any

from ..engine.cards import Card
from ..engine.deal import Deck
from .yamlfile import FormatError, LinedDict, LinedList, Problem, read_yaml_file

ORDERS = ("preset", "shuffled")
FIELDS = ("name", "notes", "order", "cards")


def read_deck(path: str | Path) -> Deck:
    return parse_deck(read_yaml_file(path), str(path))


def parse_deck(document: Any, source: str) -> Deck:
    """A Deck from a parsed deck file; FormatError lists every problem with its line."""
    if not isinstance(document, LinedDict):
        raise FormatError([Problem(source, None, "", "a deck file is a mapping with order and cards")])
    problems = [Problem(source, document.line_of(key), str(key), f"unknown field (expected {', '.join(FIELDS)})")
                for key in document if key not in FIELDS]
    order = document.get("order")
    if order not in ORDERS:
        problems.append(Problem(source, document.line_of("order"), "order", f"must be one of {', '.join(ORDERS)}"))
    cards: list[Card] = []
    items = document.get("cards")
    if not isinstance(items, LinedList) or not items:
        problems.append(Problem(source, document.line_of("cards"), "cards", "must be a list of KIND#NUMBER"))
        items = LinedList()
    seen: dict[int, int] = {}
    for index, item in enumerate(items):
        line = items.line_of(index)
        try:
            card = Card.parse(item)
        except ValueError as err:
            problems.append(Problem(source, line, f"cards[{index}]", str(err)))
            continue
        if card.number in seen:
            problems.append(Problem(source, line, f"cards[{index}]",
                                    f"number {card.number} is already used at cards[{seen[card.number]}]"))
        seen[card.number] = index
        cards.append(card)
    if problems:
        raise FormatError(problems)
    return Deck(str(document.get("name") or Path(source).stem), str(order), tuple(cards))
