"""Engine benchmark: how long one turn takes on a 12x12 room holding every mechanism.

    python3 benchmarks/engine.py [--repeat N] [--peer PATH-TO-ROBOPROJEKT]

Prints one JSON document: the median milliseconds per turn for a 9-stage
Geek-o turn of one player's two robots (target <= 2 ms), a 5-stage BotWars
turn of 8 robots (target <= 5 ms), and the BotWars turn for 2, 8 and 32
robots. Programs are drawn from the standard deck with a fixed seed, so every
run times the same turns. With --peer, only pbem beside roboprojekt at 2 and 8 robots (see `side_by_side`).
"""
from __future__ import annotations

import argparse
import json
import platform
import random
import statistics
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from pbem.engine import BOTWARS, GEEKO, new_board, resolve_turn  # noqa: E402
from pbem.engine.cards import standard_cards  # noqa: E402
from pbem.engine.geometry import Dir  # noqa: E402
from pbem.engine.state import Robot  # noqa: E402
from pbem.formats.rooms import read_room  # noqa: E402

ROOM = ROOT / "benchmarks" / "rooms" / "everything.yaml"


def free_squares(room):
    """Squares without any element, from the south-west corner, for placing many robots."""
    taken = {e.at for e in room.elements}
    squares = [sq for sq in room.size.squares() if sq not in taken]
    return sorted(squares, key=lambda sq: (-sq.row, sq.col))


def setup(room, count: int, registers: int, seed: int):
    rng = random.Random(seed)
    deck = standard_cards()  # 32 robots need more than 84 cards: numbers may repeat (ties go by name)
    squares = [*room.starts, *[sq for sq in free_squares(room) if sq not in room.starts]]
    robots = [Robot(f"R{i:02d}", owner="p" if registers == 9 else f"p{i}", at=squares[i], facing=Dir(i % 4))
              for i in range(count)]
    programs = {robot.name: [rng.choice(deck) for _ in range(registers)] for robot in robots}
    return new_board(room, robots), programs


def median_ms(board, programs, ruleset, repeat: int) -> float:
    times = []
    for turn in range(1, repeat + 1):
        start = time.perf_counter()
        resolve_turn(board, programs, ruleset, seed=12345, turn=turn)
        times.append(time.perf_counter() - start)
    return round(statistics.median(times) * 1000, 3)


PEER_MAP = "maps/junction_map.json"  # 12x12: 49 belts, 4 gears, 18 laser-beam tiles, 12 walls, 4 holes, 8 flags


DEALS = 8  # programs per robot count, timed in turn: one deal's cards would make one peculiar turn the figure


def peer_turn(peer: Path, count: int, deal: int):
    """roboprojekt (github.com/PyLadiesCZ/roboprojekt, the Python RoboRally engine) at `peer`: a function timing one
    `State.apply_all_effects()` (its five registers and the board's effects) with each robot's first five dealt
    cards as its program (dealt after seeding `random` with `deal`: it shuffles with the module's functions).
    Its turn changes the state in place, so each timed turn gets a copy made untimed."""
    import copy
    import os

    sys.path.insert(0, str(peer))
    here = os.getcwd()
    os.chdir(peer)  # it reads its maps and robot names from relative paths
    try:
        from backend import State

        random.seed(deal)
        start = State.get_start_state(PEER_MAP, count)
    finally:
        os.chdir(here)

    def one() -> float:
        state = copy.deepcopy(start)
        for robot in state.robots:
            robot.program = list(robot.dealt_cards[:5])
        began = time.perf_counter()
        state.apply_all_effects()
        return time.perf_counter() - began

    return one


def side_by_side(room, peer: Path, repeat: int) -> dict:
    """pbem and the peer at 2 and 8 robots, one turn of each in turn (the same load for all), each engine going
    through `DEALS` seeded programs; medians in ms. `pbem_ms` is the turn as a planner or this comparison wants it
    (`record=False`: the new board and the events, no snapshots), `pbem_recorded_ms` the same turn with
    everything the reports read."""
    rows = {}
    for count in (2, 8):
        ours = [setup(room, count, 5, seed=count * 100 + deal) for deal in range(DEALS)]
        theirs = [peer_turn(peer, count, deal) for deal in range(DEALS)]
        resolve_turn(*ours[0], BOTWARS, seed=1, turn=1)
        lean, recorded, peers = [], [], []
        for turn in range(1, repeat + 1):
            board, programs = ours[turn % DEALS]
            for record, times in ((False, lean), (True, recorded)):
                began = time.perf_counter()
                resolve_turn(board, programs, BOTWARS, seed=12345, turn=turn, record=record)
                times.append(time.perf_counter() - began)
            peers.append(theirs[turn % DEALS]())
        pbem_ms, recorded_ms, peer_ms = (round(statistics.median(times) * 1000, 3)
                                         for times in (lean, recorded, peers))
        rows[str(count)] = {"pbem_ms": pbem_ms, "pbem_recorded_ms": recorded_ms, "roboprojekt_ms": peer_ms,
                            "ratio": round(pbem_ms / peer_ms, 2), "recorded_ratio": round(recorded_ms / peer_ms, 2)}
    return {"peer_map": PEER_MAP, "deals": DEALS, "robots": rows, "target_ratio": 1.0}


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--repeat", type=int, default=300, help="turns timed per figure (median taken)")
    parser.add_argument("--peer", type=Path, help="a clone of roboprojekt: time it beside pbem (--peer only)")
    args = parser.parse_args()
    room = read_room(ROOM)
    if args.peer:
        print(json.dumps({"room": str(ROOM.relative_to(ROOT)), "python": platform.python_version(),
                          "repeat": args.repeat, **side_by_side(room, args.peer.resolve(), args.repeat)}, indent=2))
        return
    geeko_board, geeko_programs = setup(room, 2, 9, seed=1)
    resolve_turn(geeko_board, geeko_programs, GEEKO, seed=1, turn=1)  # warm the room index
    result = {
        "room": str(ROOM.relative_to(ROOT)),
        "python": platform.python_version(),
        "repeat": args.repeat,
        "geeko_2_robots_9_stages_ms": median_ms(geeko_board, geeko_programs, GEEKO, args.repeat),
        "geeko_target_ms": 2.0,
    }
    growth = {}
    for count in (2, 8, 32):
        board, programs = setup(room, count, 5, seed=count)
        growth[str(count)] = median_ms(board, programs, BOTWARS, max(60, args.repeat // (count // 2 or 1)))
    result["botwars_8_robots_5_stages_ms"] = growth["8"]
    result["botwars_target_ms"] = 5.0
    result["botwars_5_stages_ms_by_robots"] = growth
    print(json.dumps(result, indent=2, sort_keys=True))


if __name__ == "__main__":
    main()
