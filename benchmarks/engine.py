"""Engine benchmark: how long one turn takes on a 12x12 room holding every mechanism.

    python3 benchmarks/engine.py [--repeat N] [--peer PATH-TO-ROBOPROJEKT | --growth | --outcome-hash]

Prints one JSON document: the median milliseconds per turn for a 9-stage
Geek-o turn of one player's two robots (target <= 2 ms), a 5-stage BotWars
turn of 8 robots (target <= 5 ms), and the BotWars turn for 2, 8 and 32
robots; and the cost per robot at 8, 32 and 128 robots at one density (the room tiled 1x1, 2x2, 4x4).
Programs are drawn from the standard deck with a fixed seed, so every run times the same turns. With --peer, only pbem beside roboprojekt at 2 and 8 robots (see `side_by_side`).
With --growth, only the per-robot cost; with --outcome-hash, no timing but a hash of 120 turns' events and boards
at 8-128 robots, to compare with main's after a change meant only to make the engine faster (`outcome_hash`).
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

from pbem.engine import BOTWARS, GEEKO, new_board, resolve_turn
from pbem.engine.cards import standard_cards
from pbem.engine.geometry import Dir
from pbem.engine.state import Robot
from pbem.formats.rooms import load_room, read_room

ROOM = ROOT / "benchmarks" / "rooms" / "everything.yaml"


def free_squares(room):
    """Squares without any element, from the south-west corner, for placing many robots."""
    taken = {e.at for e in room.elements}
    squares = [sq for sq in room.size.squares() if sq not in taken]
    return sorted(squares, key=lambda sq: (-sq.row, sq.col))


def setup(room, count: int, registers: int, seed: int, facing: Dir | None = None):
    """Robots on the room's starts (then free squares), facing round the compass unless `facing` is given."""
    rng = random.Random(seed)
    deck = standard_cards()  # 32 robots need more than 84 cards: numbers may repeat (ties go by name)
    squares = [*room.starts, *[sq for sq in free_squares(room) if sq not in room.starts]]
    robots = [Robot(f"R{i:02d}", owner="p" if registers == 9 else f"p{i}", at=squares[i],
                    facing=Dir(i % 4) if facing is None else facing)
              for i in range(count)]
    programs = {robot.name: [rng.choice(deck) for _ in range(registers)] for robot in robots}
    return new_board(room, robots), programs


SHARED_KEYS = ("id", "control", "colour", "number")  # elements tied to others by these are left out of a tiled room


def tiled_room(k: int):
    """`everything` repeated k x k times (its walls, belts, gears, pushers, lasers, pits…; elements tied to others
    by an id, a control, a colour or a number only in the first copy): a room k² times the size with the same mix."""
    from pbem.formats.yamlfile import read_yaml_file

    data = read_yaml_file(ROOM)
    rows, cols = (int(n) for n in str(data["size"]).split("x"))
    elements = []
    for tile in range(k * k):
        down, right = divmod(tile, k)
        for element in data["elements"]:
            if tile and any(key in element for key in SHARED_KEYS):
                continue
            row, col = (int(n) for n in str(element["at"])[1:].split("c"))
            elements.append({**element, "at": f"r{row + down * rows}c{col + right * cols}"})
    return load_room({"name": f"everything x{k * k}", "size": f"{rows * k}x{cols * k}", "starts": data["starts"],
                      "elements": elements}, f"{ROOM} x{k * k}")


def spread_setup(room, count: int, seed: int):
    """`count` robots on free squares drawn with a seeded RNG over the whole room (the same density in a room k²
    times the size with k² times the robots), five registers each."""
    rng = random.Random(seed)
    deck = standard_cards()
    squares = rng.sample(free_squares(room), count)
    robots = [Robot(f"R{i:03d}", owner=f"p{i}", at=square, facing=Dir(i % 4)) for i, square in enumerate(squares)]
    programs = {robot.name: [rng.choice(deck) for _ in range(5)] for robot in robots}
    return new_board(room, robots), programs


def growth_per_robot(repeat: int) -> dict:
    """Per-robot milliseconds of a 5-stage BotWars turn at 8 robots on `everything` and at 32 and 128 robots on
    it tiled 2x2 and 4x4 (the same density): a cost per robot that grows with the count is a scan over all
    robots where the neighbours would do (issue #36: <= 1.3x from 8 to 128). Each deal is played once untimed
    first: at 128 robots only 18 turns are timed, and the 8 that first met a new room's beam lines set the median."""
    per_robot = {}
    for count, k in ((8, 1), (32, 2), (128, 4)):
        room = tiled_room(k)
        deals = [spread_setup(room, count, seed=count * 10 + deal) for deal in range(DEALS)]
        for turn, (board, programs) in enumerate(deals):  # untimed: a new room works out its beam lines once
            resolve_turn(board, programs, BOTWARS, seed=12345, turn=turn)
        times = []
        for turn in range(1, max(DEALS, repeat // (count // 8)) + 1):
            board, programs = deals[turn % DEALS]
            started = time.thread_time()
            resolve_turn(board, programs, BOTWARS, seed=12345, turn=turn)
            times.append(time.thread_time() - started)
        per_robot[str(count)] = round(statistics.median(times) * 1000 / count, 4)
    return {"ms_per_robot": per_robot, "ratio_128_to_8": round(per_robot["128"] / per_robot["8"], 2),
            "target_ratio": 1.3}


HASHED_TURNS = 120  # turns played on from each other per robot count by `outcome_hash`


def outcome_hash() -> dict:
    """sha256 of every event (its kind and fields) and every board (robots and element states) of 120 turns as
    canonical JSON: BotWars boards of 8, 32 and 128 robots at the `growth_per_robot` density and a Geek-o board of
    one player's 8 robots, dealt anew every 10 turns and played on from turn to turn in between (robots destroyed
    and reinstated where they started, virtual robots sharing squares, a seeded few declaring reboots). A change
    meant only to make the engine faster must leave it as it is on main."""
    import hashlib

    from pbem.formats.canonical import canonical_json

    digest = hashlib.sha256()
    plays = [(BOTWARS, tiled_room(k), count) for count, k in ((8, 1), (32, 2), (128, 4))]
    plays.append((GEEKO, read_room(ROOM), 8))
    deck = standard_cards()
    for ruleset, room, count in plays:
        rng = random.Random(count)
        for turn in range(1, HASHED_TURNS + 1):
            if turn % 10 == 1:
                deal = count * 1000 + turn
                board, _ = setup(room, count, 9, seed=deal) if ruleset is GEEKO else spread_setup(room, count, deal)
                for robot in board.robots.values():
                    robot.reinstate_at = robot.at
            programs = {name: [rng.choice(deck) for _ in range(ruleset.registers)] for name in board.robots}
            reboots = [name for name in board.robots if rng.random() < 0.02]
            result = resolve_turn(board, programs, ruleset, seed=count, turn=turn, reboots=reboots)
            digest.update(canonical_json([[type(event).__name__, event] for event in result.events]).encode())
            digest.update(canonical_json([result.board.robots, result.board.elements]).encode())
            board = result.board
    return {"turns_each": HASHED_TURNS, "outcome_sha256": digest.hexdigest()}


def median_ms(board, programs, ruleset, repeat: int) -> float:
    times = []
    for turn in range(1, repeat + 1):
        start = time.thread_time()
        resolve_turn(board, programs, ruleset, seed=12345, turn=turn)
        times.append(time.thread_time() - start)
    return round(statistics.median(times) * 1000, 3)


PEER_MAP = "maps/junction_map.json"  # 12x12: 49 belts, 4 gears, 18 laser-beam tiles, 12 walls, 4 holes, 8 flags


def peer_room(peer: Path):
    """The peer's map as a pbem room, read with the peer's own loader: the same squares with the same things on
    them. Its (x, y) counts from the south-west corner; a belt's way is the one it moves robots (its exit), a
    wall tile stands on the side it names, a laser is its beam's first tile (pbem: a laser on the wall behind
    it, `beams` its strength; roboprojekt marks every tile of the beam), holes are pits, repair tiles wrenches,
    start tiles the starts in their numbers' order. roboprojekt's other tiles (none on this map) are left out."""
    import os

    sys.path.insert(0, str(peer))
    here = os.getcwd()
    os.chdir(peer)
    try:
        from loading import get_board

        board = get_board(PEER_MAP)
    finally:
        os.chdir(here)
    height = 1 + max(y for _, y in board)
    elements, starts = [], {}
    for (x, y), tiles in sorted(board.items()):
        at = f"r{height - y}c{x + 1}"
        for tile in tiles:
            kind, side = type(tile).__name__, tile.direction.name
            if kind == "WallTile":
                elements.append({"type": "wall", "at": at, "side": side})
            elif kind == "HoleTile":
                elements.append({"type": "pit", "at": at})
            elif kind == "BeltTile":
                way = tile.direction.get_new_direction(tile.direction_out).name
                elements.append({"type": "conveyor", "at": at, "dir": way, "speed": 2 if tile.express else 1})
            elif kind == "GearTile":
                elements.append({"type": "gear", "at": at, "turn": tile.move_direction.name.lower()})
            elif kind == "LaserTile" and tile.start:
                behind = Dir.parse(side).opposite.name
                elements.append({"type": "laser", "at": at, "wall": behind, "beams": tile.laser_strength})
            elif kind == "FlagTile":
                elements.append({"type": "flag", "at": at, "number": tile.number})
            elif kind == "RepairTile":
                elements.append({"type": "wrench", "at": at})
            elif kind == "StartTile":
                starts[tile.number] = at
    data = {"name": "junction_map (roboprojekt)", "size": f"{height}x{1 + max(x for x, _ in board)}",
            "starts": [starts[n] for n in sorted(starts)], "elements": elements}
    return load_room(data, PEER_MAP)


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
        began = time.thread_time()
        state.apply_all_effects()
        return time.thread_time() - began

    return one


def side_by_side(room, peer: Path, repeat: int) -> dict:
    """pbem and the peer at 2 and 8 robots, one turn of each in turn (the same load for all), each engine going
    through `DEALS` seeded programs; medians in ms. pbem plays two boards: `everything` (this benchmark's room)
    and `same_map`, the peer's own map read into a pbem room (`peer_room`; robots on its start tiles facing
    north, as the peer puts them). `lean` is the turn as a planner wants it (`record=False`: the new board and
    the events, no snapshots), `recorded` the same turn with everything the reports read (the peer's turn keeps
    its own log of robot positions as it goes)."""
    boards = {"everything": (room, None), "same_map": (peer_room(peer), Dir.N)}
    rows = {}
    for count in (2, 8):
        ours = {name: [setup(where, count, 5, seed=count * 100 + deal, facing=facing) for deal in range(DEALS)]
                for name, (where, facing) in boards.items()}
        theirs = [peer_turn(peer, count, deal) for deal in range(DEALS)]
        times: dict[str, list[float]] = {"roboprojekt": []}
        for turn in range(1, repeat + 1):
            for name, setups in ours.items():
                board, programs = setups[turn % DEALS]
                for record in (False, True):
                    began = time.thread_time()
                    resolve_turn(board, programs, BOTWARS, seed=12345, turn=turn, record=record)
                    times.setdefault(f"{name}_{'recorded' if record else 'lean'}", []).append(
                        time.thread_time() - began)
            times["roboprojekt"].append(theirs[turn % DEALS]())
        ms = {name: round(statistics.median(values) * 1000, 3) for name, values in times.items()}
        ratios = {name: round(value / ms["roboprojekt"], 2) for name, value in ms.items() if name != "roboprojekt"}
        rows[str(count)] = {"ms": ms, "ratio_to_roboprojekt": ratios}
    return {"peer_map": PEER_MAP, "deals": DEALS, "robots": rows, "target_ratio": 1.0}


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--repeat", type=int, default=300, help="turns timed per figure (median taken)")
    parser.add_argument("--peer", type=Path, help="a clone of roboprojekt: time it beside pbem (--peer only)")
    parser.add_argument("--outcome-hash", action="store_true",
                        help="only the hash of 120 turns' events and boards at 8-128 robots (compare with main's)")
    parser.add_argument("--growth", action="store_true", help="only the per-robot cost at 8, 32 and 128 robots")
    args = parser.parse_args()
    if args.outcome_hash:
        print(json.dumps(outcome_hash(), indent=2))
        return
    if args.growth:
        print(json.dumps({"repeat": args.repeat, "growth_same_density": growth_per_robot(args.repeat)}, indent=2))
        return
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
    result["growth_same_density"] = growth_per_robot(args.repeat)
    print(json.dumps(result, indent=2, sort_keys=True))


if __name__ == "__main__":
    main()
