"""Robot pilot benchmark (issue #16): planning time per player, and a whole bot-played campaign.

    python3 benchmarks/planner.py [--positions N]

Prints one JSON document:
- `geeko_two_robots`: planning one player's two Geek-o robots from a 9-card hand (targets: median <= 200 ms,
  worst <= 1 s), over positions met when bots play the bundled five rooms; `cold` clears the pilot's room
  caches (step probes, distance fields) before every plan (a room never seen), `warm` keeps them (as within
  a game). Wall-clock figures, and CPU figures (`cpu_*`) that other jobs sharing the machine sway less.
- `botwars_one_robot`: planning one BotWars robot (5 registers, 9 cards) on the Foundry board among 8 robots
  (target <= 100 ms), positions from a bot-played race.
- `campaign`: `pbem game new` + `pbem game autoplay` of the bundled Geek-o campaign for two players, reports
  included, in a fresh folder (target <= 60 s), with the turns the bots needed per room.
"""
from __future__ import annotations

import argparse
import json
import os
import platform
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from pbem.engine.campaign import GameSetup, PlayerSetup, check_orders, new_game, play_turn
from pbem.engine.planner import plan
from pbem.engine.roomcache import forget
from pbem.formats.decks import read_deck
from pbem.formats.rooms import read_room


def positions(setup: GameSetup, count: int) -> list[tuple]:
    """(state, player) pairs met while bots play the game, every player's turn that expects orders."""
    state, found = new_game(setup), []
    rules = setup.rules()
    while not state.is_over and len(found) < count:
        orders = {}
        for player in state.players:
            if state.expects_orders(player):
                found.append((state, player))
                chosen = plan(state.board_of(player), state.players[player].robots, state.receiving(player),
                              state.hands_of(player), rules, seed=setup.seed, turn=state.turn,
                              shared_hand=player if rules.shared_hand else None)
                orders[player] = check_orders(state, player, chosen.submission())
        state = play_turn(state, orders, setup.seed).state
    return found[:count]


def time_plans(samples: list[tuple], hand: int, cold: bool) -> dict:
    """Wall-clock times (the targets), and the process's CPU times, which other jobs on the machine sway less."""
    times, cpu = [], []
    for state, player in samples:
        rules = state.setup.rules()
        hands = {key: cards[:hand] for key, cards in state.hands_of(player).items()}
        if cold:
            forget()
        start, start_cpu = time.perf_counter(), time.process_time()
        chosen = plan(state.board_of(player), state.players[player].robots, state.receiving(player), hands, rules,
                      seed=state.setup.seed, turn=state.turn, shared_hand=player if rules.shared_hand else None)
        times.append(time.perf_counter() - start)
        cpu.append(time.process_time() - start_cpu)
        assert chosen.checked.ok, chosen.checked.problems
    return {"plans": len(times), "median_ms": round(statistics.median(times) * 1000, 1),
            "worst_ms": round(max(times) * 1000, 1), "cpu_median_ms": round(statistics.median(cpu) * 1000, 1),
            "cpu_worst_ms": round(max(cpu) * 1000, 1)}


def geeko_samples(count: int) -> list[tuple]:
    """Positions where both robots get cards, from campaigns of several seeds (the pre-set deck is dealt the
    same way in each, so the seeds differ only by their robots' paths: one player per seed is enough)."""
    rooms = tuple(read_room(p) for p in sorted((ROOT / "rooms" / "geeko").glob("*.yaml")))
    deck = read_deck(ROOT / "decks" / "geeko.yaml")
    found: list[tuple] = []
    for seed in range(1, 20):
        setup = GameSetup("bench", "geeko", str(seed), rooms, deck, (PlayerSetup("alice", ("A1", "A2")),))
        found += [(s, p) for s, p in positions(setup, 100) if len(s.receiving(p)) == 2]
        if len(found) >= count:
            break
    return found[:count]


def botwars_samples(count: int) -> list[tuple]:
    setup = GameSetup("bench", "botwars", "3", (read_room(ROOT / "rooms" / "botwars" / "foundry.yaml"),),
                      read_deck(ROOT / "decks" / "standard.yaml"),
                      tuple(PlayerSetup(f"p{n}", (f"R{n}",)) for n in range(1, 9)))
    return positions(setup, count)


def campaign() -> dict:
    """The whole bot-played Geek-o campaign through the command line, reports included."""
    env = {**os.environ, "PYTHONPATH": str(ROOT)}
    with tempfile.TemporaryDirectory() as folder:
        def pbem(*args):
            return subprocess.run([sys.executable, "-m", "pbem", *args], cwd=folder, env=env, check=True,
                                  capture_output=True, text=True).stdout
        start = time.perf_counter()
        pbem("game", "new", "g", "--ruleset", "geeko", "--seed", "7", "--player", "alice:a@example.org",
             "--player", "bob:b@example.org")
        played = json.loads(pbem("game", "autoplay", "g", "--turns", "200", "--json"))
        seconds = time.perf_counter() - start
        shown = json.loads(pbem("game", "show", "g", "--json"))
        reports = sum(1 for _ in Path(folder, "reports").rglob("*") if _.is_file())
    per_room = {}
    for player in shown["players"]:
        opened, rooms = 1, []
        for room in range(1, 6):
            left = max(c["turn"] for c in shown["completions"] if c["room"] == room
                       and c["robot"] in [r["name"] for r in player["robots"]])
            rooms.append(left - opened + 1)
            opened = left + 1
        per_room[player["name"]] = rooms
    return {"seconds": round(seconds, 1), "turns": len(played["turns"]), "over": played["over"],
            "standings": played["standings"], "turns_per_room": per_room, "report_files": reports}


def cpu_name() -> str:
    try:
        lines = Path("/proc/cpuinfo").read_text().splitlines()
        return next(line.split(":", 1)[1].strip() for line in lines if line.startswith("model name"))
    except (OSError, StopIteration):
        return platform.processor() or platform.machine()


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--positions", type=int, default=30)
    args = parser.parse_args()
    geeko = geeko_samples(args.positions)
    botwars = botwars_samples(args.positions)
    result = {
        "machine": {"python": platform.python_version(), "processor": cpu_name(),
                    "cpus": os.cpu_count(), "load_average": [round(x, 2) for x in os.getloadavg()]},
        "geeko_two_robots": {"hand": 9, "cold": time_plans(geeko, 9, cold=True),
                             "warm": time_plans(geeko, 9, cold=False), "targets_ms": {"median": 200, "worst": 1000}},
        "botwars_one_robot": {"hand": 9, "robots_on_board": 8, "cold": time_plans(botwars, 9, cold=True),
                              "warm": time_plans(botwars, 9, cold=False), "target_ms": 100},
        "campaign": campaign() | {"target_s": 60},
    }
    result["machine"]["load_average_after"] = [round(x, 2) for x in os.getloadavg()]
    print(json.dumps(result, indent=2))


if __name__ == "__main__":
    main()
