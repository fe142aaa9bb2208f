"""Invariants of any turn on the everything room, for random programs (hypothesis).

Whatever the programs: the input board is untouched, no two real robots share a
square (B6.3 pushes, B6b.1 belt conflicts, B6.9 occupied teleporters), HP stays
within 0..max_hp, destroyed robots are off the board, events run in stage order
(end of turn last), and the same inputs give the same events (B13).
"""
from pathlib import Path

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from pbem.engine import BOTWARS, GEEKO, new_board, resolve_turn
from pbem.engine.cards import standard_cards
from pbem.engine.geometry import Dir
from pbem.engine.state import Robot
from pbem.formats.canonical import to_data
from pbem.formats.rooms import read_room

ROOM = read_room(Path(__file__).resolve().parent.parent / "benchmarks" / "rooms" / "everything.yaml")
FREE = sorted((sq for sq in ROOM.size.squares() if not ROOM.elements_at(sq)), key=lambda s: (-s.row, s.col))
CARDS = standard_cards()


@st.composite
def turns(draw):
    geeko = draw(st.booleans())
    count = 2 if geeko else draw(st.integers(2, 8))
    squares = draw(st.lists(st.sampled_from(FREE), min_size=count, max_size=count, unique=True))
    length = draw(st.integers(1, 9 if geeko else 5))
    deck = draw(st.permutations(CARDS))
    robots = [Robot(f"R{i}", owner="p" if geeko else f"p{i}", at=sq, facing=draw(st.sampled_from(list(Dir))),
                    hp=draw(st.integers(3, 10)), mode="real") for i, sq in enumerate(squares)]
    programs = {r.name: deck[i * length:(i + 1) * length] for i, r in enumerate(robots)}
    return (GEEKO if geeko else BOTWARS), new_board(ROOM, robots), programs, draw(st.integers(0, 10**6))


@settings(max_examples=60, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(turns())
def test_any_turn_keeps_the_invariants(case):
    ruleset, board, programs, seed = case
    before = to_data(board)
    result = resolve_turn(board, programs, ruleset, seed=seed, turn=2)
    assert to_data(board) == before
    for snap in result.snapshots:
        real = [r.at for r in snap.robots if r.at is not None and r.mode != "virtual"]
        assert len(real) == len(set(real)), snap
    for robot in result.board.robots.values():
        assert 0 <= robot.hp <= ruleset.max_hp
        if robot.mode == "destroyed":
            assert robot.at is None
    stages = [e.stage if e.stage else result.stages + 1 for e in result.events]
    assert stages == sorted(stages)
    again = resolve_turn(board, programs, ruleset, seed=seed, turn=2)
    assert [(type(e).__name__, to_data(e)) for e in again.events] == [(type(e).__name__, to_data(e)) for e in result.events]
