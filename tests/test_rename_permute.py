"""Property (hypothesis): robot names, owner names and the order of a room's elements never decide an outcome
(RULES B6.11, B6b.2, G2). For every rule scenario, the robots and their owners get other valid names (random
bijections) and the room's element list is shuffled; the turn must end in the same state once the names are
mapped back. And in every Geek-o scenario each player plays alone (G2): a twin of every robot, owned by another
player and playing the same cards, ends exactly as the original does, whichever player's robots come first.

The one draw keyed by a robot's name is the random card of an empty fused register (B7.2/B10: the RNG entity
is the robot, B13): a renamed robot draws another card, so there only which registers were filled is compared.
"""
from __future__ import annotations

import string
from dataclasses import replace
from functools import cache
from pathlib import Path

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from pbem.engine.events import RegisterFilled
from pbem.engine.state import Board
from pbem.formats.canonical import to_data
from pbem.formats.scenario import Scenario, ScenarioResult, read_scenario, run_scenario

SCENARIOS = Path(__file__).parent / "scenarios"
# one-turn files: a multi-turn file (`turns:`) plays through the campaign engine, which takes its robots by name
FILES = sorted(path for path in SCENARIOS.rglob("*.yaml") if path.parent.name != "turns")
# any name matching [A-Za-z0-9][A-Za-z0-9_.-]{0,12}, drawn without the regex machinery (most of the test's time)
NAMES = st.builds(str.__add__, st.sampled_from(string.ascii_letters + string.digits),
                  st.text(string.ascii_letters + string.digits + "_.-", max_size=12))


@cache
def played(path: Path) -> tuple[Scenario, ScenarioResult]:
    """The scenario as written and its outcome: read and played once, not once per example."""
    scenario = read_scenario(path)
    return scenario, run_scenario(scenario)


def transformed(scenario: Scenario, names: dict[str, str], order: list[int],
                owners: dict[str, str] | None = None) -> Scenario:
    """The same scenario with robots renamed by `names`, owners by `owners` and the room's elements in `order`."""
    board = scenario.board
    room = replace(board.room, elements=tuple(board.room.elements[i] for i in order))
    robots = {}
    for name, robot in board.robots.items():
        copy = robot.copy()
        copy.name = names[name]
        copy.owner = (owners or {}).get(robot.owner, robot.owner)
        robots[copy.name] = copy
    return replace(scenario, board=Board(room, robots, dict(board.elements)),
                   programs={names[n]: list(cards) for n, cards in scenario.programs.items()},
                   reboots=[names[n] for n in scenario.reboots],
                   option_hp={names[n]: hp for n, hp in scenario.option_hp.items()})


def outcome(result: ScenarioResult, back: dict[str, str], randomly_filled: set[str],
            owners_back: dict[str, str] | None = None) -> dict:
    """The boards as plain data, robots and owners under their original names (fused-at-random cards masked)."""
    robots = []
    for robot in result.robots.values():
        data = to_data(robot)
        name = back[data["name"]]
        if name in randomly_filled:
            data["registers"] = sorted(data["registers"])
        robots.append({**data, "name": name, "owner": (owners_back or {}).get(robot.owner, robot.owner)})
    elements = {(owners_back or {}).get(owner, owner): dict(copy.board.elements)
                for owner, copy in result.copies.items()}
    return {"robots": sorted(robots, key=lambda r: r["name"]), "elements": elements}


def randomly_filled(result: ScenarioResult) -> set[str]:
    return {e.robot for e in result.events if isinstance(e, RegisterFilled) and e.robot is not None}


@pytest.mark.parametrize("path", FILES, ids=[str(p.relative_to(SCENARIOS)) for p in FILES])
@settings(max_examples=4, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(data=st.data())
def test_renamed_robots_and_shuffled_elements_change_nothing(path: Path, data: st.DataObject) -> None:
    scenario, before = played(path)
    original = list(scenario.board.robots)
    fresh = data.draw(st.lists(NAMES, min_size=len(original), max_size=len(original), unique=True), label="names")
    names = dict(zip(original, fresh))
    owners = sorted({robot.owner for robot in scenario.board.robots.values()})
    new_owners = data.draw(st.lists(NAMES, min_size=len(owners), max_size=len(owners), unique=True), label="owners")
    owner_names = dict(zip(owners, new_owners))
    order = data.draw(st.permutations(range(len(scenario.board.room.elements))), label="element order")
    after = run_scenario(transformed(scenario, names, list(order), owner_names))
    filled = randomly_filled(before)
    identity = {name: name for name in original}
    assert outcome(after, {new: old for old, new in names.items()}, filled,
                   {new: old for old, new in owner_names.items()}) == outcome(before, identity, filled)


GEEKO_FILES = [path for path in FILES if read_scenario(path).ruleset.own_boards]


def twinned(scenario: Scenario, twins_first: bool) -> Scenario:
    """The scenario with a twin of every robot (name + "~", owner + "~") playing the same cards."""
    twin = {name: name + "~" for name in scenario.board.robots}
    originals = list(scenario.board.robots.values())
    copies = []
    for robot in originals:
        copy = robot.copy()
        copy.name, copy.owner = twin[robot.name], robot.owner + "~"
        copies.append(copy)
    robots = copies + originals if twins_first else originals + copies
    board = scenario.board
    return replace(scenario, board=Board(board.room, {r.name: r for r in robots}, dict(board.elements)),
                   programs={**scenario.programs, **{twin[n]: list(c) for n, c in scenario.programs.items()}},
                   reboots=scenario.reboots + [twin[n] for n in scenario.reboots],
                   option_hp={**scenario.option_hp, **{twin[n]: hp for n, hp in scenario.option_hp.items()}})


@pytest.mark.parametrize("path", GEEKO_FILES, ids=[str(p.relative_to(SCENARIOS)) for p in GEEKO_FILES])
@pytest.mark.parametrize("twins_first", [False, True])
def test_owner_swapped_twins_play_alone(path: Path, twins_first: bool) -> None:
    """G2: another player's identical robots, with the same cards (ties included), change nothing."""
    scenario, before = played(path)
    after = run_scenario(twinned(scenario, twins_first))
    filled = randomly_filled(before)
    alone = outcome(before, {name: name for name in scenario.board.robots}, filled)
    originals = {name: name for name in scenario.board.robots}
    twins = {name + "~": name for name in scenario.board.robots}
    owners = {robot.owner: robot.owner for robot in scenario.board.robots.values()}
    twin_owners = {owner + "~": owner for owner in owners}
    both = outcome(after, {**originals, **twins}, filled, {**owners, **twin_owners})
    for robot in both["robots"]:
        robot.pop("owner")
    expected = [{k: v for k, v in robot.items() if k != "owner"} for robot in alone["robots"]]
    assert both["robots"] == sorted(expected + expected, key=lambda r: r["name"])
    assert len(after.copies) == 2 * len(before.copies)
    for owner, copy in after.copies.items():
        assert dict(copy.board.elements) == alone["elements"][owner.removesuffix("~")]
