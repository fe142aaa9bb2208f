"""Rehearsing a room with robot pilots: can bots pass it, how fast, where do robots die (issue #16, G8).

A room with gates is played as a one-room Geek-o challenge by one player with
two robots (both must get out, G3); a room with flags and no gate as a BotWars
race of one robot per start square (the first through the last flag). Each
seed deals differently — the pre-set deck in a seeded order, or the BotWars
shuffle — and a run stops at `turn_limit`, so a hostile room ends with a
verdict, never a hang. Pure: the same room, deck and seeds give the same figures.
"""
from __future__ import annotations

import random
import statistics
from collections import Counter
from dataclasses import dataclass, field, replace
from typing import Any, Callable

from .campaign import GameSetup, PlayerSetup, check_orders, new_game, play_turn
from .deal import Deck
from .distance import distances, square_goals
from .elements import initial_states
from .events import Destroyed
from .geometry import Dir, Square
from .planner import plan
from .room import Room
from .ruleset import get_ruleset

TURN_LIMIT = 30


@dataclass
class Run:
    seed: int
    turns: int | None  # the turn the room was passed, None if not within the limit
    deaths: list[tuple[Square, str]] = field(default_factory=list)


@dataclass
class Analysis:
    room: Room
    mode: str  # geeko | botwars | none
    runs: list[Run]
    visits: Counter[Square]  # square -> robot-stages spent there
    reason: str = ""  # why it is not passable (empty when every run passed)

    @property
    def passed(self) -> list[int]:
        return [run.turns for run in self.runs if run.turns is not None]

    @property
    def passable(self) -> bool:
        return bool(self.runs) and len(self.passed) == len(self.runs)

    @property
    def deaths(self) -> Counter[tuple[Square, str]]:
        return Counter(death for run in self.runs for death in run.deaths)

    @property
    def verdict(self) -> str:
        if self.passable:
            return "passable"
        if self.passed:
            return f"passable in {len(self.passed)} of {len(self.runs)} seeds: {self.reason}"
        return f"not passable: {self.reason}"

    def figures(self) -> dict[str, Any]:
        passed = self.passed
        return {"room": self.room.name, "mode": self.mode, "passable": self.passable, "verdict": self.verdict,
                "seeds": len(self.runs), "passed": len(passed), "turns": [run.turns for run in self.runs],
                "median_turns": statistics.median(passed) if passed else None,
                "worst_turns": max(passed) if passed else None,
                "deaths": [{"at": str(at), "cause": cause, "count": count}
                           for (at, cause), count in sorted(self.deaths.items(), key=lambda i: (-i[1], i[0]))]}


def rehearsal_mode(room: Room) -> str:
    """The game a room is rehearsed as: Geek-o with a gate, else BotWars with a flag, else none."""
    return "geeko" if room.of_type("gate") else "botwars" if room.of_type("flag") else "none"


def analyse(room: Room, deck: Deck, seeds: int = 5, turn_limit: int = TURN_LIMIT,
            progress: Callable[[], None] | None = None) -> Analysis:
    """Play the room with bots once per seed and sum up what happened; `progress` is called after each run."""
    mode = rehearsal_mode(room)
    if mode == "none":
        return Analysis(room, mode, [], Counter(), "the room has no gate to leave by and no flag to reach")
    visits: Counter[Square] = Counter()
    runs = []
    for seed in range(1, seeds + 1):
        runs.append(_run(room, deck, mode, seed, turn_limit, visits))
        if progress:
            progress()
    analysis = Analysis(room, mode, runs, visits)
    if not analysis.passable:
        analysis.reason = _why(analysis, turn_limit)
    return analysis


def _setup(room: Room, deck: Deck, mode: str, seed: int) -> GameSetup:
    if mode == "geeko":
        cards = list(deck.cards)
        random.Random(f"rehearsal/{seed}").shuffle(cards)
        return GameSetup(room.name, "geeko", str(seed), (room,), replace(deck, cards=tuple(cards)),
                         (PlayerSetup("bot", ("Bot-1", "Bot-2")),))
    players = tuple(PlayerSetup(f"bot{n}", (f"Bot-{n}",)) for n in range(1, max(2, len(room.starts)) + 1))
    return GameSetup(room.name, "botwars", str(seed), (room,), replace(deck, order="shuffled"), players)


def _run(room: Room, deck: Deck, mode: str, seed: int, turn_limit: int, visits: Counter[Square]) -> Run:
    setup = _setup(room, deck, mode, seed)
    rules = setup.rules()
    state = new_game(setup)
    run = Run(seed, None)
    while not state.is_over and state.turn <= turn_limit:
        orders = {}
        for player in state.players:
            if state.expects_orders(player):
                chosen = plan(state.board_of(player), state.players[player].robots, state.receiving(player),
                              state.hands_of(player), rules, seed=setup.seed, turn=state.turn,
                              shared_hand=player if rules.shared_hand else None)
                orders[player] = check_orders(state, player, chosen.submission())
        outcome = play_turn(state, orders, setup.seed)
        for snapshots in outcome.stages.values():
            visits.update(robot.at for snap in snapshots for robot in snap.robots if robot.at is not None)
        run.deaths += [(event.at, event.cause) for _, event in outcome.events
                       if isinstance(event, Destroyed) and event.at is not None]
        if outcome.state.is_over:
            run.turns = state.turn
        state = outcome.state
    return run


def _why(analysis: Analysis, turn_limit: int) -> str:
    room = analysis.room
    if analysis.mode == "geeko":
        targets = [g.at for g in room.of_type("gate")]
        wide = {**initial_states(room), **{g.key: "open" for g in room.of_type("gate")}}
    else:
        targets = [e.at for e in room.of_type("flag")]
        wide = initial_states(room)
    field_ = distances(room, wide, get_ruleset(analysis.mode), square_goals(targets), targets)
    reasons = []
    cut_off = [start for start in room.starts if not any((start, d) in field_ for d in Dir)]
    if cut_off:
        what = "gate" if analysis.mode == "geeko" else "flag"
        reasons.append(f"no {what} can be reached from the start square{'s' if len(cut_off) > 1 else ''} "
                       f"{', '.join(str(s) for s in cut_off)}" + (" even with every gate open" if what == "gate"
                                                                   else ""))
    else:
        reasons.append(f"not through within {turn_limit} turns")
    deaths = analysis.deaths
    if deaths:
        (at, cause), count = max(deaths.items(), key=lambda item: (item[1], item[0]))
        reasons.append(f"robots were destroyed {sum(deaths.values())} times, most often at {at} ({cause}, "
                       f"{count} times)")
    return "; ".join(reasons)


