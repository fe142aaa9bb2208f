"""Benchmark: replay a stored 100-turn Geek-o campaign with verification (no rendering). Target: <= 1 s.

Builds the campaign once in a temporary SQLite database (the bundled Geek-o
game, both players sending random legal programs every turn: RULES G7's upgrade cards only to a robot that may
use them), then times
`pbem replay GAME --verify`'s work — rebuilding every turn from the first state
and the stored orders and comparing each state hash — several times, and
prints one JSON document with the median.

    python3 benchmarks/replay.py [--turns 100] [--runs 5]
"""
from __future__ import annotations

import argparse
import json
import random
import statistics
import sys
import tempfile
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from datetime import datetime, timezone

from pbem.engine.cards import Card
from pbem.engine.deal import can_use, free_registers
from pbem.engine.ruleset import Ruleset
from pbem.engine.state import Robot
from pbem.formats.game import DESCRIPTION, read_description
from pbem.gm import cycle
from pbem.gm.setup import create_game
from pbem.resources import resource_dir
from pbem.store.games import Store, current_state, get_game, load_setup

AT = datetime(2026, 1, 1, 12, 0, tzinfo=timezone.utc)  # the time stamp of every step (none reaches a file)


def order_text(game: str, turn: int, player: str, programs: dict[str, list]) -> str:
    """An order file (DESIGN.md "Orders") with the given programs."""
    import yaml

    document = {"game": game, "turn": turn, "player": player,
                "robots": {name: {"program": [str(card) for card in cards]} for name, cards in programs.items()}}
    if not any(programs.values()):
        document["no_cards"] = True  # empty programs on purpose (RULES B4.6)
    return yaml.safe_dump(document, sort_keys=False)


def legal_programs(cards: list[Card], robots: list[Robot], length: int, rules: Ruleset) -> dict[str, list[Card]]:
    """A program of `length` cards (fewer when the hand allows no more) for each robot from the shared hand, each
    card one its robot may use (G7: an upgrade card only once the robot has its set), in the hand's order."""
    for size in range(length, 0, -1):
        left, programs = list(cards), {}
        for robot in robots:
            mine = [i for i, card in enumerate(left) if can_use(robot, card, rules)][:size]
            if len(mine) < size:
                break
            programs[robot.name] = [left[i] for i in mine]
            left = [card for i, card in enumerate(left) if i not in mine]
        else:
            return programs
    return {robot.name: [] for robot in robots}


def build(store: Store, turns: int, fresh: bool = True) -> str:
    """Play `turns` turns of the game "bench" (created first when `fresh`)."""
    if fresh:
        description = read_description(resource_dir("turns") / "geeko" / DESCRIPTION)
        description.name = "bench"
        with store.session() as session:
            create_game(session, description, AT)
            session.commit()
    rng = random.Random(100 if fresh else turns + 100)
    for _ in range(turns):
        with store.session() as session:
            cycle.deal(session, "bench")
            state = current_state(session, get_game(session, "bench"))
            files = []
            for player in state.players:
                receiving = state.receiving(player)
                if not receiving:
                    continue
                cards = list(state.hands_of(player)[player])
                rng.shuffle(cards)
                robots = {r.name: r for r in state.robots_of(player)}
                length = min([rng.randint(1, 5), len(cards) // len(receiving),
                              *(free_registers(robots[n], state.setup.rules()) for n in receiving)])
                programs = legal_programs(cards, [robots[n] for n in receiving], length, state.setup.rules())
                files.append((player, order_text("bench", state.turn, player, programs).encode()))
            refused = [p for r in cycle.submit(session, "bench", files, store=True, at=AT) for p in r.problems]
            assert not refused, refused
            cycle.process(session, "bench", at=AT)
    return "bench"


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--turns", type=int, default=100)
    parser.add_argument("--runs", type=int, default=5)
    args = parser.parse_args()
    with tempfile.TemporaryDirectory() as folder:
        store = Store(f"sqlite:///{folder}/bench.db")
        started = time.perf_counter()
        name = build(store, args.turns)
        built = time.perf_counter() - started
        timings, result = [], None
        store.close()
        for _ in range(args.runs):
            load_setup.cache_clear()  # each run opens, parses the rooms, loads, rebuilds and compares
            started = time.perf_counter()
            store = Store(f"sqlite:///{folder}/bench.db")
            with store.session() as session:
                result = cycle.replay(session, name)
            timings.append(time.perf_counter() - started)
            store.close()
    print(json.dumps({
        "benchmark": "replay --verify, Geek-o, 2 players", "turns": len(result.turns),
        "first_difference": result.first_difference, "seconds_median": round(statistics.median(timings), 3),
        "seconds_runs": [round(t, 3) for t in timings], "target_seconds": 1.0,
        "ms_per_turn": round(1000 * statistics.median(timings) / max(1, len(result.turns)), 2),
        "build_seconds": round(built, 1),
    }, indent=2))


if __name__ == "__main__":
    main()
