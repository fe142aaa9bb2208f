"""#36: a processed turn's state snapshots and events are stored each in one executemany, not as a model object
built, validated and flushed per row (dozens to hundreds a turn); what is stored is what the engine played, and a
turn another run stored meanwhile is still refused as such, not an error."""
from __future__ import annotations

import pytest
from cycle_fixtures import AT, two_halls
from sqlalchemy import event
from sqlmodel import select
from typer.testing import CliRunner

from pbem.cli import app
from pbem.gm import cycle
from pbem.store.base import lock_game
from pbem.store.games import Refused, Store, current_state, get_game
from pbem.store.turn_tables import EventRecord, StateSnapshot

RUNNER = CliRunner()


def test_a_processed_turns_states_and_events_are_stored_without_a_model_object_each(tmp_path):
    url = two_halls(tmp_path)
    filled = RUNNER.invoke(app, ["--db", url, "game", "set", "halls", "--missing-orders", "fill"])
    assert filled.exit_code == 0, filled.output  # B4.6 plays cards for the players: the turn has events
    built: list[object] = []

    def counting(target, args, kwargs):
        built.append(target)
    for table in (EventRecord, StateSnapshot):
        event.listen(table, "init", counting)
    try:
        store = Store(url)
        with store.session() as session:
            cycle.deal(session, "halls")
            result = cycle.process(session, "halls", at=AT)
            stored = session.exec(select(StateSnapshot.kind).where(StateSnapshot.turn == 1)).all()
        store.close()
    finally:
        for table in (EventRecord, StateSnapshot):
            event.remove(table, "init", counting)
    assert result.events > 0 and not built
    assert {"before", "after", "stage", "final"} == set(stored)
    verified = RUNNER.invoke(app, ["--db", url, "replay", "halls", "--verify"])
    assert verified.exit_code == 0, verified.output  # the rows stored give the events hash the engine played


def test_a_turn_stored_meanwhile_by_another_run_is_refused(tmp_path, monkeypatch):
    url = two_halls(tmp_path)
    store = Store(url)
    with store.session() as session:
        cycle.deal(session, "halls")
        stale = current_state(session, get_game(session, "halls"))  # read by a run that is slower than another
        cycle.process(session, "halls", at=AT)  # the other run stores turn 1
        monkeypatch.setattr(cycle, "current_state", lambda *_: stale)
        with pytest.raises(Refused, match="processed meanwhile by another run"):
            cycle.play(session, "halls", at=AT, turn=1)
    store.close()


def count_decoded_states(monkeypatch) -> list[int]:
    """From now on, the turn of every game state the store decodes, in order."""
    import pbem.store.states as states

    decoded: list[int] = []
    original = states.from_data

    def counting(kind, data, *args, **kwargs):
        value = original(kind, data, *args, **kwargs)
        if kind is states.GameState:
            decoded.append(value.turn)
        return value
    monkeypatch.setattr(states, "from_data", counting)
    return decoded


def test_a_stored_state_is_decoded_once_a_transaction_whoever_reads_it(tmp_path, monkeypatch):
    """#36: every reader of a state asks the store, and the store decodes a snapshot once a transaction (the due
    tick's steps had each their own decode, or a `state=` handed down); a new transaction decodes afresh, and a
    turn processed in the transaction is read as the new state, not the cached old one."""
    url = two_halls(tmp_path)
    store = Store(url)
    with store.session() as session:
        cycle.deal(session, "halls")
        decoded = count_decoded_states(monkeypatch)
        lock_game(session, "halls")  # first, as a due tick does: the lock forgets what was read before it
        game = get_game(session, "halls")
        first = current_state(session, game)
        assert current_state(session, game) is first and decoded == [1]
        cycle.play(session, "halls", at=AT, turn=1)  # the turn played is the state read: no decode
        assert decoded == [1] and current_state(session, game).turn == 2 and decoded == [1, 2]
        session.commit()
        assert current_state(session, game) is not first and decoded == [1, 2, 2]
    store.close()


def test_the_games_lock_reads_again_what_the_transaction_read_before_it(tmp_path, monkeypatch):
    """#36: a read kept for the transaction before the game's lock was taken may be another run's old rows, so the
    lock forgets every kept read (the state as well as the game and its players), once: locking again in the same
    transaction forgets nothing."""
    store = Store(two_halls(tmp_path))
    with store.session() as session:
        cycle.deal(session, "halls")
        session.commit()
        decoded = count_decoded_states(monkeypatch)
        first = current_state(session, get_game(session, "halls"))
        lock_game(session, "halls")
        again = current_state(session, get_game(session, "halls"))
        assert decoded == [1, 1] and again is not first
        lock_game(session, "halls")
        assert current_state(session, get_game(session, "halls")) is again and decoded == [1, 1]
    store.close()
