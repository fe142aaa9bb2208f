"""RULES B4.7 ruling: a robot that receives no cards needs no program, and an empty program for it is its order.

A BotWars robot at HP 1 has taken nine damage: all five registers are fused (B7.1) and its hand is
9 - 9 = 0 cards (B4.1). Its player sends the sheet's order file back as it is, `{program: []}`."""
from __future__ import annotations

import pytest
from cycle_fixtures import AT, DECK

from pbem.engine import campaign
from pbem.engine.campaign import SHARED_BOARD
from pbem.engine.vocabulary import Mode
from pbem.formats.canonical import dumps, to_data
from pbem.formats.game import GameDescription, PlayerEntry, SourceFile
from pbem.gm import cycle
from pbem.gm.setup import create_game
from pbem.render.sheet import turn_sheet_html, turn_sheet_text
from pbem.store import turns
from pbem.store.games import Store, current_state, get_game, snapshot
from pbem.store.tables import StateSnapshot

FIELD = """name: Field
size: 5x5
starts: [r5c1, r5c5]
elements:
  - {type: flag, at: r1c3, number: 1}
"""
STANDARD = DECK.parent / "standard.yaml"


@pytest.fixture
def store(tmp_path):
    """ann's Axle at HP 1 (as nine laser hits leave it), the hands dealt again by the engine for that; ben's Bolt
    whole."""
    store = Store(f"sqlite:///{tmp_path / 'pbem.db'}")
    description = GameDescription("field", "botwars", "3", [SourceFile("field.yaml", FIELD)],
                                  SourceFile("decks/standard.yaml", STANDARD.read_text()),
                                  [PlayerEntry("ann", "ann@example.org", ["Axle"], "s-ann"),
                                   PlayerEntry("ben", "ben@example.org", ["Bolt"], "s-ben")])
    with store.session() as session:
        game, state = create_game(session, description, AT)
        state.boards[SHARED_BOARD].robots["Axle"].hp = 1
        campaign._deal(state, state.setup.rules(), [])  # B12's last step: fused registers filled, hands dealt
        row = snapshot(session, game, 1, "before")
        assert isinstance(row, StateSnapshot)
        row.state = dumps(to_data(state))
        session.add(row)
        session.commit()
    yield store
    store.close()


def sheet_of(session, player):
    return next(s for s in cycle.deal(session, "field")[1] if s.player == player)


def order(player: str, secret: str, program: str) -> bytes:
    return f"game: field\nturn: 1\nplayer: {player}\nsecret: {secret}\nrobots:\n  {program}\n".encode()


def test_the_engine_asks_no_program_of_a_robot_without_cards(store):
    with store.session() as session:
        state = current_state(session, get_game(session, "field"))
    assert state.hands["Axle"] == [] and state.receiving("ann") == ["Axle"]  # B4.1: 9 - 9 = 0 cards
    assert state.needs_program("ann") == [] and not state.owes_orders("ann")
    assert state.needs_program("ben") == ["Bolt"]
    assert "all registers fused" in state.no_cards_reason("Axle")
    assert list(campaign.missed_orders(state, {})) == ["ben"]  # ann's missing file misses nothing (B4.6)


def test_the_sheet_says_in_words_that_the_robot_needs_no_program(store):
    with store.session() as session:
        sheet, theirs = sheet_of(session, "ann"), sheet_of(session, "ben")
    text = turn_sheet_text(sheet)
    assert "exactly 0 cards" not in text and "(none)" not in text
    assert "Axle: real, HP 1, no program this turn: all registers fused (B7.1): it gets no cards and needs no " \
           "program" in " ".join(text.split())  # the sheet is wrapped at 72 columns
    assert "  Axle: {program: []}" in text
    assert "you need send no orders (RULES B4.7)" in " ".join(text.split())
    page = turn_sheet_html(sheet)
    assert "exactly 0" not in page and "all registers fused (B7.1)" in page and "Hand of Axle" not in page
    assert "you need send no orders (RULES B4.7)" in page
    assert "need send no orders" not in turn_sheet_text(theirs) + turn_sheet_html(theirs)


def test_the_sheets_order_file_sent_back_as_it_is_is_the_robots_order(store):
    with store.session() as session:
        cycle.deal(session, "field")
        assert turns.status(session, "field").waiting_for == ["ben"]  # nobody waits for ann
        [result] = cycle.submit(session, "field", [("ann.yaml", order("ann", "s-ann", "Axle: {program: []}"))],
                                store=True, at=AT)
        assert result.accepted and result.programs == {"Axle": []}, result.problems
        # ben's unedited sheet is still refused: Bolt has cards to play
        [refused] = cycle.submit(session, "field", [("ben.yaml", order("ben", "s-ben", "Bolt: {program: []}"))],
                                 store=True, at=AT)
        assert not refused.accepted and "no cards chosen" in refused.problems[0]
        processed = cycle.process(session, "field", at=AT)
    assert processed.orders == {"ann": 1, "ben": None}


def test_a_player_whose_only_robot_reboots_still_gets_a_sheet_saying_why(tmp_path):
    """#38: ann's only robot reboots this turn (B10: HP restored, no cards): she has nothing to order, and her
    sheet comes all the same, saying so (before, she got no sheet and no mail saying why)."""
    store = Store(f"sqlite:///{tmp_path / 'reboot.db'}")
    description = GameDescription("field", "botwars", "3", [SourceFile("field.yaml", FIELD)],
                                  SourceFile("decks/standard.yaml", STANDARD.read_text()),
                                  [PlayerEntry("ann", "ann@example.org", ["Axle"], "s-ann"),
                                   PlayerEntry("ben", "ben@example.org", ["Bolt"], "s-ben")])
    try:
        with store.session() as session:
            game, state = create_game(session, description, AT)
            state.boards[SHARED_BOARD].robots["Axle"].mode = Mode.REBOOTING
            campaign._deal(state, state.setup.rules(), [])
            row = snapshot(session, game, 1, "before")
            assert isinstance(row, StateSnapshot)
            row.state = dumps(to_data(state))
            session.add(row)
            session.commit()
            assert current_state(session, game).receiving("ann") == []
            text = " ".join(turn_sheet_text(sheet_of(session, "ann")).split())
    finally:
        store.close()
    assert "Axle: rebooting, HP 10, no program this turn: rebooting this turn (B10): HP restored, no cards" in text
    assert "None of your robots gets cards this turn, so you need send no orders" in text
