"""Geometry (DESIGN.md coordinates: r1 north, c1 west; N E S W) and cards (RULES B3)."""
import pytest

from pbem.engine.cards import Card, standard_cards, upgrade_cards
from pbem.engine.geometry import Dir, Size, Square


def test_square_parse_and_text_round_trip():
    assert Square.parse("r3c12") == Square(3, 12)
    assert str(Square(3, 12)) == "r3c12"
    with pytest.raises(ValueError):
        Square.parse("3,12")


def test_steps_follow_compass_with_r1_north():
    sq = Square(3, 3)
    assert sq.step(Dir.N) == Square(2, 3)
    assert sq.step(Dir.E) == Square(3, 4)
    assert sq.step(Dir.S, 2) == Square(5, 3)
    assert sq.step(Dir.W) == Square(3, 2)


def test_turns_are_clockwise_quarter_turns():
    assert Dir.N.turned(1) is Dir.E
    assert Dir.N.turned(-1) is Dir.W
    assert Dir.E.opposite is Dir.W
    assert Dir.W.turned(2) is Dir.E


def test_size_contains_and_parse():
    size = Size.parse("8x7")
    assert (size.rows, size.cols) == (8, 7)
    assert size.contains(Square(8, 7)) and not size.contains(Square(8, 8)) and not size.contains(Square(0, 1))


def test_card_parse_every_kind():
    """B3.1: every kind parses as KIND#NUMBER, including the ones with digits in their names."""
    for text in ("FWD1#500", "LF90#70", "RT90#80", "UTRN#10", "RVS1#430", "RVS2#675", "SLF1#495", "IDLE#5"):
        assert str(Card.parse(text)) == text
    with pytest.raises(ValueError):
        Card.parse("JUMP#100")


def test_b3_3_standard_deck_has_84_unique_numbers_and_b3_4_upgrades_do_not_collide():
    standard, upgrades = standard_cards(), upgrade_cards()
    assert len(standard) == 84
    numbers = [c.number for c in standard + upgrades]
    assert len(numbers) == len(set(numbers))
    assert all(c.number % 10 == 5 for c in upgrades)
