"""The turn cycle on the database (SQLite and PostgreSQL): deal, submit, process, rollback, replay."""
from __future__ import annotations

import json

import pytest
from cycle_fixtures import AT, halls_description, order
from sqlmodel import func, select

from pbem.gm import cycle
from pbem.gm.setup import create_game
from pbem.store import turns
from pbem.store.games import Refused, Store, current_state, final_boards
from pbem.store.tables import EventRecord, Game, OrderVersion, StateSnapshot, Turn


@pytest.fixture(params=["sqlite", "postgresql"])
def store(request, tmp_path):
    url = f"sqlite:///{tmp_path / 'pbem.db'}" if request.param == "sqlite" \
        else request.getfixturevalue("pg_server").new_database()
    store = Store(url)
    with store.session() as session:
        create_game(session, halls_description(), AT)
        session.commit()
    yield store
    store.close()


def counts(session) -> dict[str, int]:
    return {table.__tablename__: session.exec(select(func.count()).select_from(table)).one()
            for table in (Turn, StateSnapshot, EventRecord, OrderVersion)}


def hand(session, player) -> list[str]:
    return [s for s in cycle.deal(session, "halls")[1] if s.player == player][0].hands[player]


def test_b4_7_every_version_is_kept_and_the_latest_accepted_counts(store):
    with store.session() as session:
        cards = hand(session, "alice")
        first = order("halls", 1, "alice", {"Zapper": [cards[0]], "Spanner": [cards[1]]})
        second = order("halls", 1, "alice", {"Zapper": [cards[2]], "Spanner": [cards[3]]})
        bad = order("halls", 1, "alice", {"Zapper": [cards[4], cards[4]], "Spanner": [cards[5]]})
        results = cycle.submit(session, "halls", [("a1", first), ("a2", second), ("a3", bad)], store=True, at=AT)
        assert [(r.accepted, r.version) for r in results] == [(True, 1), (True, 2), (False, None)]
        assert session.exec(select(func.count()).select_from(OrderVersion)).one() == 2  # refused: nothing stored
        status = turns.status(session, "halls")
        assert [(p.player, p.versions, p.latest) for p in status.players] == [("alice", 2, 2), ("bob", 0, None)]
        assert status.waiting_for == ["bob"]
        result = cycle.process(session, "halls", at=AT)
        assert result.orders == {"alice": 2, "bob": None}
        played = [str(e.card) for _, e in result.outcome.events if type(e).__name__ == "CardPlayed"]
        assert sorted(played) == sorted([cards[2], cards[3]])


def test_wrong_game_turn_player_or_robot_is_refused_with_lines(store):
    with store.session() as session:
        cards = hand(session, "alice")
        wrong = order("other", 2, "carol", {"Zapper": [cards[0]]})
        theirs = order("halls", 1, "alice", {"Zapper": [cards[0]], "Spanner": [cards[2]], "Bolt": [cards[1]]})
        results = cycle.submit(session, "halls", [("w.yaml", wrong), ("t.yaml", theirs)], store=True, at=AT)
    assert results[0].problems == ["w.yaml:1: game: these orders are for other, not halls",
                                   "w.yaml:2: turn: the turn now is 1, not 2",
                                   "w.yaml:3: player: no player carol in halls (alice, bob)"]
    assert results[1].problems == ["t.yaml:7: robots.Bolt: not one of your robots (Zapper, Spanner)"]


def test_orders_before_the_deal_are_refused(store):
    with store.session() as session:
        results = cycle.submit(session, "halls", [("early", order("halls", 1, "alice", {}))], store=True, at=AT)
    assert results[0].problems[0] == "early:2: turn: turn 1 has not been dealt yet"


def test_preview_stores_nothing_and_process_refuses_to_run_twice(store):
    with store.session() as session:
        hand(session, "alice")
        before = counts(session)
        preview = cycle.process(session, "halls", preview=True, at=AT)
        assert counts(session) == before
        done = cycle.process(session, "halls", at=AT)
        assert (preview.after_hash, preview.events_hash) == (done.after_hash, done.events_hash)
        stored = counts(session)
        assert stored["turns"] == 1 and stored["events"] == done.events
        # before and after turn 1, and each player's board at the end of the turn (no stage: nobody moved)
        # as a snapshot for the pictures and as the board itself
        assert stored["state_snapshots"] == 6
        with pytest.raises(Refused, match="turn 2 of halls has not been dealt yet"):
            cycle.process(session, "halls", at=AT)


def play(session, turns: int) -> list[str]:
    """Deal and process `turns` turns where alice's robots walk north; return the after hashes."""
    hashes = []
    for _ in range(turns):
        state = current_state(session, session.exec(select(Game)).one())
        cards = hand(session, "alice")
        fwd = [c for c in cards if c.startswith("FWD1")][:2]
        if state.receiving("alice") == ["Zapper", "Spanner"] and len(fwd) == 2:
            cycle.submit(session, "halls", [("o", order("halls", state.turn, "alice",
                                                        {"Zapper": [fwd[0]], "Spanner": [fwd[1]]}))], store=True, at=AT)
        hashes.append(cycle.process(session, "halls", at=AT).after_hash)
    return hashes


def test_rollback_and_reprocess_give_the_same_hashes_and_replay_verifies(store):
    with store.session() as session:
        hashes = play(session, 3)
        assert cycle.rollback(session, "halls", 2) == 2
        assert current_state(session, session.exec(select(Game)).one()).turn == 2
        cycle.deal(session, "halls")
        again = [cycle.process(session, "halls", at=AT).after_hash]
        cycle.deal(session, "halls")
        again.append(cycle.process(session, "halls", at=AT).after_hash)
        assert again == hashes[1:]
        replayed = cycle.replay(session, "halls")
        assert [t.turn for t in replayed.turns] == [1, 2, 3] and replayed.first_difference is None


def test_replay_names_the_first_turn_whose_hash_differs(store):
    with store.session() as session:
        play(session, 3)
        row = session.exec(select(OrderVersion).where(OrderVersion.turn == 2)).one()
        data = json.loads(row.submission)
        data["programs"] = {"Zapper": [], "Spanner": []}  # as if the stored orders had been changed
        row.submission = json.dumps(data)
        session.add(row)
        session.commit()
        assert cycle.replay(session, "halls").first_difference == 2


def test_rollback_to_a_turn_not_processed_is_refused(store):
    with store.session() as session:
        with pytest.raises(Refused, match="cannot roll halls back to turn 1: no turn processed"):
            cycle.rollback(session, "halls", 1)


def test_a_processed_turn_is_rebuilt_for_its_reports(store):
    with store.session() as session:
        play(session, 2)
        before, outcome = cycle.processed_turn(session, "halls", 2)
        assert before.turn == 2 and sorted(outcome.finals) == ["alice", "bob"]
        assert final_boards(session, session.exec(select(Game)).one(), 2) == outcome.finals
        with pytest.raises(Refused, match="turn 3 of halls has not been processed"):
            cycle.processed_turn(session, "halls", 3)


def test_replay_verify_names_the_turn_whose_stored_event_was_tampered_with(tmp_path):
    """The reports are built from the stored events: `replay --verify` checks their hash too, and names the turn."""
    from typer.testing import CliRunner

    from pbem.cli import app

    url = f"sqlite:///{tmp_path / 'pbem.db'}"
    pbem = lambda *args: CliRunner().invoke(app, ["--db", url, *map(str, args)])
    assert pbem("game", "new", "bw", "--ruleset", "botwars", "--seed", "4", "--player", "ann:ann@example.org:Rusty",
                "--player", "ben:ben@example.org:Sparky").exit_code == 0
    for _ in range(3):  # nobody sends orders: B4.6 fills the registers, so every turn has events
        assert pbem("turn", "deal", "bw").exit_code == 0
        assert pbem("turn", "process", "bw", "--out", tmp_path / "reports").exit_code == 0
    assert pbem("replay", "bw", "--verify").exit_code == 0
    store = Store(url)
    with store.session() as session:
        row = session.exec(select(EventRecord).where(EventRecord.turn == 2).order_by(EventRecord.seq)).first()
        data = json.loads(row.data)
        data[sorted(data)[0]] = "tampered"  # one field of one event, as a hand edit of the database would
        row.data = json.dumps(data)
        session.add(row)
        session.commit()
    store.close()
    result = pbem("replay", "bw", "--verify", "--json")
    document = json.loads(result.stdout)
    assert result.exit_code == 1 and document["first_difference"] == 2
    assert [t["same"] for t in document["turns"]] == [True, False, True]
    differing = document["turns"][1]
    assert differing["stored"] == differing["replayed"]  # the state itself still matches
    assert differing["recorded_events"] != differing["stored_events"] == differing["replayed_events"]
