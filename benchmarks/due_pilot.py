"""The robot pilot in a due tick (issue #36): the CPU of B4.6's plans for the bundled BotWars sample's four players
on turn 1 (what a due tick plans per game when nobody's orders are in), beside another checkout.

    python3 benchmarks/due_pilot.py [--rounds 3] [--repeat 25] [--before CHECKOUT]

Each round runs one child per checkout (alternating, the same Python), which plans the four players once untimed
(the room's step table and distance fields made: `cold_ms`) and then `--repeat` times, and reports the median
CPU of the four plans (`warm_ms`). Prints one JSON document with every round's figures, their medians and the load.
"""
from __future__ import annotations

import argparse
import json
import os
import statistics
import subprocess
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
SAMPLE = ROOT / "turns" / "botwars" / "game.yaml"


def measure(repeat: int) -> dict[str, float]:
    """In this process, with the checkout first on `sys.path` (the child's side)."""
    import yaml

    from pbem.engine.campaign import GameSetup, PlayerSetup, new_game
    from pbem.engine.planner import plan
    from pbem.formats.decks import read_deck
    from pbem.formats.rooms import read_room

    described = yaml.safe_load(SAMPLE.read_text())
    setup = GameSetup(described["name"], described["ruleset"], str(described["seed"]),
                      tuple(read_room(ROOT / path) for path in described["rooms"]), read_deck(ROOT / described["deck"]),
                      tuple(PlayerSetup(p["name"], tuple(p["robots"])) for p in described["players"]),
                      described["ruleset_options"])
    state = new_game(setup)
    rules = setup.rules()

    def plans() -> float:
        start = time.process_time()
        for player in state.players:
            plan(state.board_of(player), state.players[player].robots, state.receiving(player),
                 state.hands_of(player), rules, seed=setup.seed, turn=state.turn,
                 shared_hand=player if rules.shared_hand else None)
        return time.process_time() - start

    cold = plans()
    warm = statistics.median(plans() for _ in range(repeat))
    return {"cold_ms": round(cold * 1000, 2), "warm_ms": round(warm * 1000, 2)}


def child(checkout: Path, repeat: int) -> dict[str, float]:
    environment = {**os.environ, "PYTHONPATH": str(checkout)}
    done = subprocess.run([sys.executable, __file__, "--child", str(checkout), "--repeat", str(repeat)], cwd=checkout,
                          env=environment, check=True, capture_output=True, text=True)
    return json.loads(done.stdout)


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--rounds", type=int, default=3)
    parser.add_argument("--repeat", type=int, default=25, help="timed runs of the four plans per child (median)")
    parser.add_argument("--before", type=Path, help="another checkout to time beside this one")
    parser.add_argument("--child", type=Path, help=argparse.SUPPRESS)
    args = parser.parse_args()
    if args.child:
        sys.path.insert(0, str(args.child))
        print(json.dumps(measure(args.repeat)))
        return
    trees = {"now": ROOT, **({"before": args.before.resolve()} if args.before else {})}
    load = os.getloadavg()[0]
    rounds: dict[str, list[dict[str, float]]] = {name: [] for name in trees}
    for _ in range(args.rounds):
        for name, checkout in trees.items():
            rounds[name].append(child(checkout, args.repeat))
    result = {"benchmark": "B4.6's pilot: the bundled BotWars sample's four turn-1 plans, CPU",
              "rounds": rounds,
              "median_warm_ms": {name: statistics.median(r["warm_ms"] for r in runs) for name, runs in rounds.items()},
              "median_cold_ms": {name: statistics.median(r["cold_ms"] for r in runs) for name, runs in rounds.items()},
              "load": {"before": round(load, 2), "after": round(os.getloadavg()[0], 2)},
              "python": sys.version.split()[0]}
    print(json.dumps(result, indent=2))


if __name__ == "__main__":
    main()
