"""Deck files (DESIGN.md "Deck"): `order: preset | shuffled` and `cards:` as `KIND#NUMBER` in deck order."""
from __future__ import annotations

from pathlib import Path
from typing import Any

from ..engine.cards import Card
from ..engine.deal import Deck
from .fields import Field, Fields, checked, one_of
from .yamlfile import FormatError, LinedDict, LinedList, Problem, read_yaml_file

ORDERS = ("preset", "shuffled")
FIELDS = ("name", "notes", "order", "cards")


def read_deck(path: str | Path) -> Deck:
    return parse_deck(read_yaml_file(path), str(path))


def parse_deck(document: Any, source: str) -> Deck:
    """A Deck from a parsed deck file; FormatError lists every problem with its line."""
    if not isinstance(document, LinedDict):
        raise FormatError([Problem(source, None, "", "a deck file is a mapping with order and cards")])
    fields = Fields(source)
    fields.unknown(document, FIELDS, f"unknown field (expected {', '.join(FIELDS)})")
    given = fields.read(document, DECK)
    items, cards = given["cards"], []
    seen: dict[int, int] = {}
    for index in range(len(items)):
        card = fields.value(items, index, f"cards[{index}]", Card.parse)
        if card is not None and card.number in seen:
            fields.add(items, index, f"cards[{index}]",
                       f"number {card.number} is already used at cards[{seen[card.number]}]")
        if card is not None:
            seen[card.number] = index
            cards.append(card)
    if fields.problems:
        raise FormatError(fields.problems)
    return Deck(str(document.get("name") or Path(source).stem), str(given["order"]), tuple(cards))


_ORDER = f"must be one of {', '.join(ORDERS)}"
_CARDS = "must be a list of KIND#NUMBER"
DECK = {"order": Field(one_of(ORDERS, _ORDER), missing=_ORDER, null=False),
        "cards": Field(checked(lambda items: isinstance(items, LinedList) and bool(items), _CARDS), default=[],
                       missing=_CARDS, null=False)}
