"""resolve_turn as a pure function: input untouched, snapshots per stage, events as plain data, B4.1 hand size."""
import json
import os
import subprocess
import sys
from pathlib import Path

from pbem.engine import GEEKO, hand_size, new_board, resolve_turn
from pbem.engine.cards import Card
from pbem.engine.events import EVENT_TYPES
from pbem.engine.geometry import Dir, Square
from pbem.engine.state import Robot
from pbem.formats.canonical import dumps, from_data, to_data
from pbem.formats.rooms import read_room
from pbem.formats.scenario import read_scenario, run_scenario

HERE = Path(__file__).resolve().parent
EVERYTHING = HERE.parent / "benchmarks" / "rooms" / "everything.yaml"


def cards(*texts):
    return [Card.parse(t) for t in texts]


def everything_board():
    room = read_room(EVERYTHING)
    robots = [Robot("A", owner="p", at=room.starts[0]), Robot("B", owner="p", at=room.starts[1])]
    return new_board(room, robots)


PROGRAMS = {"A": cards("FWD2#700", "RT90#80", "FWD1#500", "LF90#70", "FWD3#800", "FWD1#510", "UTRN#10",
                       "FWD2#710", "RVS1#430"),
            "B": cards("FWD1#520", "FWD1#530", "RT90#100", "FWD2#720", "LF90#90", "FWD1#540", "FWD1#550",
                       "RT90#120", "FWD1#560")}


def test_input_board_is_not_mutated():
    board = everything_board()
    before = to_data(board)
    result = resolve_turn(board, PROGRAMS, GEEKO, seed=7, turn=3)
    assert to_data(board) == before
    assert result.board is not board and to_data(result.board) != before


def test_one_snapshot_per_stage_plus_the_final_one():
    board = everything_board()
    result = resolve_turn(board, PROGRAMS, GEEKO, seed=7, turn=3)
    assert result.stages == 9
    assert [s.stage for s in result.snapshots] == [1, 2, 3, 4, 5, 6, 7, 8, 9, 0]
    first = {r.name: r.at for r in result.snapshots[0].robots}
    assert first == {"A": board.robots["A"].at, "B": board.robots["B"].at}


def test_events_and_state_round_trip_through_canonical_data():
    result = resolve_turn(everything_board(), PROGRAMS, GEEKO, seed=7, turn=3)
    assert result.events
    for event in result.events:
        assert from_data(EVENT_TYPES[type(event).__name__], json.loads(dumps(to_data(event)))) == event
    for robot in result.board.robots.values():
        assert from_data(Robot, json.loads(dumps(to_data(robot)))) == robot


def test_b4_1_hand_size():
    room = read_room(EVERYTHING)
    board = new_board(room, [Robot("A", at=Square(12, 1), hp=7), Robot("B", mode="destroyed"),
                             Robot("C", at=Square(11, 1), mode="rebooting")])
    assert hand_size(board, "A", GEEKO) == 6  # 9 - 3 damage
    assert hand_size(board, "B", GEEKO) == 0
    assert hand_size(board, "C", GEEKO) == 0


def test_b7_3_stage_count_is_the_longest_sequence_run():
    room = read_room(EVERYTHING)
    board = new_board(room, [Robot("A", at=Square(12, 1), facing=Dir.N)])
    assert resolve_turn(board, {"A": cards("LF90#70", "LF90#90")}, GEEKO, seed=1, turn=1).stages == 2
    assert resolve_turn(board, {}, GEEKO, seed=1, turn=1).stages == 0


DETERMINISM = """
import json, sys
from pathlib import Path
from pbem.formats.canonical import to_data
from pbem.formats.scenario import read_scenario, run_scenario
out = []
for path in sys.argv[1:]:
    result = run_scenario(read_scenario(path))
    out.append([(type(e).__name__, to_data(e)) for e in result.events])
    out += [to_data(copy.board) for copy in result.copies.values()]
print(json.dumps(out, sort_keys=True))
"""


def test_b13_same_events_under_different_hash_seeds(tmp_path):
    """B13: no dependence on PYTHONHASHSEED (set iteration) anywhere in a turn, buzzsaws included."""
    scenario = tmp_path / "saws.yaml"
    scenario.write_text(
        f"rules: [B13]\ntitle: everything\nruleset: botwars\nseed: 99\nroom: {EVERYTHING}\n"
        "robots:\n" + "".join(f"  - {{name: R{i}, at: r{12 - i // 6}c{1 + i % 6 * 2}, facing: N}}\n"
                              for i in range(8))
        + "programs: {" + ", ".join(f"R{i}: [FWD1#{500 + 10 * i}, RT90#{80 + 20 * i}, FWD2#{700 + 10 * i}, "
                                    f"LF90#{70 + 20 * i}, FWD1#{580 + 10 * i}]" for i in range(8)) + "}\n"
        "expect: {}\n")
    run_scenario(read_scenario(scenario))  # it loads and runs here too
    outputs = set()
    for hash_seed in ("0", "1", "12345"):
        env = dict(os.environ, PYTHONHASHSEED=hash_seed)
        proc = subprocess.run([sys.executable, "-c", DETERMINISM, str(scenario)], capture_output=True, text=True,
                              env=env, cwd=HERE.parent, check=True)
        outputs.add(proc.stdout)
    assert len(outputs) == 1


def test_unrecorded_turn_gives_the_same_board_and_events_without_empty_saw_spins():
    """record=False (planner, benchmark): no snapshots; the same new board; the same events but a buzzsaw's
    spin on an empty square (its draw decides nothing on the board)."""
    from pbem.engine.events import SawSpun

    saws = {e.at for e in read_room(EVERYTHING).elements if e.type == "buzzsaw"}
    dropped = 0
    for seed in range(1, 9):
        board = everything_board()
        full = resolve_turn(board, PROGRAMS, GEEKO, seed=seed, turn=3)
        lean = resolve_turn(board, PROGRAMS, GEEKO, seed=seed, turn=3, record=False)
        assert lean.snapshots == [] and lean.stages == full.stages == 9
        assert to_data(lean.board) == to_data(full.board)
        kept = [e for e in full.events if not (isinstance(e, SawSpun) and e.robot is None)]
        assert lean.events == kept
        assert all(e.at in saws for e in full.events if isinstance(e, SawSpun))
        dropped += len(full.events) - len(kept)
    assert dropped > 0  # spins on empty squares happened and were left out
