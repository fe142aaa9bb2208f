"""A processed turn read back as the engine played it (pbem.store.played, pbem.gm.history): B4.6's missed-orders decisions are
recorded by the turn, kept with it (turns.missed, revision 0010), and a turn stored before that revision still
gets the same report. The bundled BotWars campaign (turns/botwars, `missing_orders: bot`): dee sent no orders
for turn 3 (turn-003/ has ann's, ben's and cy's files only)."""
from __future__ import annotations

import json
import shutil

import pytest
from cycle_fixtures import AT
from sqlmodel import select

from pbem.engine.cards import Card
from pbem.gm.archive import import_game
from pbem.gm.history import played_turn, stored_report
from pbem.resources import resource_dir
from pbem.store.due import session_rows
from pbem.store.games import Store, get_game
from pbem.store.tables import DealtHand, Turn


@pytest.fixture(scope="module")
def campaign(tmp_path_factory):
    path = tmp_path_factory.mktemp("botwars") / "pbem.db"
    store = Store(f"sqlite:///{path}")
    try:
        import_game(store, resource_dir("turns") / "botwars", at=AT)
    finally:
        store.close()
    return path


@pytest.fixture
def store(campaign, tmp_path):
    path = tmp_path / "pbem.db"
    shutil.copyfile(campaign, path)
    store = Store(f"sqlite:///{path}")
    yield store
    store.close()


def test_b4_6_the_turn_records_what_the_bot_played_for_the_missing_player_and_the_store_keeps_it(store):
    with store.session() as session:
        game = get_game(session, "botwars-demo")
        played = played_turn(session_rows(session), game, 3)
        row = session.exec(select(Turn).where(Turn.game_id == game.id, Turn.number == 3)).one()
        hand = json.loads(session.exec(select(DealtHand.cards).where(
            DealtHand.game_id == game.id, DealtHand.turn == 3, DealtHand.holder == "Widget")).one())
    assert json.loads(row.orders)["dee"] is None
    assert list(played.outcome.missed) == ["dee"]  # ann, ben and cy sent orders that counted (B4.6)
    program = played.outcome.missed["dee"]["Widget"]
    assert len(program) == 5 and set(map(str, program)) <= set(hand)  # B4.5: five registers, from dee's hand
    assert json.loads(row.missed) == {"dee": {"Widget": [str(card) for card in program]}}
    # what is recorded is what the turn played: Widget's cards, stage by stage
    assert [e.card for _, e in played.outcome.events if type(e).__name__ == "CardPlayed" and e.robot == "Widget"] \
        == program


def test_b4_6_the_missing_player_is_told_what_was_played_for_them(store):
    with store.session() as session:
        game = get_game(session, "botwars-demo")
        program = played_turn(session_rows(session), game, 3).outcome.missed["dee"]["Widget"]
        report = stored_report(session, game, 3)
    assert list(report.notices) == ["dee"]
    head, line = report.notices["dee"]
    assert "played by the bot" in head and "RULES B4.6" in head
    assert line.split() == ["Widget:", *map(str, program)]


def test_b4_6_the_report_of_the_turn_played_again_tells_the_same(store):
    """`pbem report` and a `--preview` draw the outcome just played; the mail and the site, the one read back."""
    from pbem.gm.cycle import processed_turn
    from pbem.render.history import outcome_report

    with store.session() as session:
        game = get_game(session, "botwars-demo")
        before, outcome = processed_turn(session, game.name, 3)
        fresh = outcome_report(game.name, before, outcome, ["ann", "ben", "cy", "dee"])
        stored = stored_report(session, game, 3)
    assert fresh.notices == stored.notices and "dee" in fresh.notices
    assert fresh.images == stored.images


def test_a_turn_stored_before_revision_0010_has_the_same_report(store):
    """An old database upgraded: its turns have no recorded decisions (NULL); the store asks the engine once, and
    the report (the missing player's notice, every table and picture) is the one a recorded turn gets."""
    from alembic import command

    from pbem.store.db import alembic_config

    with store.session() as session:
        game = get_game(session, "botwars-demo")
        recorded = played_turn(session_rows(session), game, 3).outcome.missed
        reports = [stored_report(session, game, turn) for turn in (3, 4)]
    config = alembic_config()
    with store.engine.begin() as connection:
        config.attributes["connection"] = connection
        command.downgrade(config, "0009")
    store.close()
    upgraded = Store(store.url)  # opening upgrades it again: turns.missed is NULL
    try:
        with upgraded.session() as session:
            game = get_game(session, "botwars-demo")
            assert session.exec(select(Turn.missed).where(Turn.game_id == game.id)).all() == [None] * 4
            assert played_turn(session_rows(session), game, 3).outcome.missed == recorded
            assert played_turn(session_rows(session), game, 4).outcome.missed == {}
            again = [stored_report(session, game, turn) for turn in (3, 4)]
    finally:
        upgraded.close()
    for old, new in zip(reports, again):
        assert (new.notices, new.images, new.ending) == (old.notices, old.images, old.ending)
        assert [r.stages for r in new.reports] == [r.stages for r in old.reports]
    assert isinstance(recorded["dee"]["Widget"][0], Card)


def test_export_then_import_keeps_the_missed_orders_decisions(store, tmp_path):
    """`game export` writes the orders, not the decisions: import plays the turns again and records the same."""
    from pbem.gm.archive import export_game

    def decisions(of: Store) -> list[tuple[int, str | None]]:
        with of.session() as session:
            game = get_game(session, "botwars-demo")
            return [(t.number, t.missed) for t in session.exec(select(Turn).where(Turn.game_id == game.id))]

    export_game(store, "botwars-demo", tmp_path / "out")
    copy = Store(f"sqlite:///{tmp_path / 'copy.db'}")
    try:
        import_game(copy, tmp_path / "out", at=AT)
        assert sorted(decisions(copy)) == sorted(decisions(store))
    finally:
        copy.close()
    assert [number for number, missed in sorted(decisions(store)) if missed != "{}"] == [3]


def test_a_turn_not_processed_is_refused_with_its_number(store):
    from pbem.store.games import Refused

    with store.session() as session, pytest.raises(Refused, match="turn 5 of botwars-demo has not been processed"):
        played_turn(session_rows(session), get_game(session, "botwars-demo"), 5)
