"""Property (hypothesis): robot names and the order of a room's elements never decide an outcome (RULES B6.11,
B6b.2). For every rule scenario, the robots get other valid names (a random bijection) and the room's element
list is shuffled; the turn must end in the same state once the names are mapped back.

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
from pbem.engine.turn import TurnResult
from pbem.formats.canonical import to_data
from pbem.formats.scenario import Scenario, read_scenario, run_scenario

SCENARIOS = Path(__file__).parent / "scenarios"
FILES = sorted(SCENARIOS.rglob("*.yaml"))
# any name matching [A-Za-z0-9][A-Za-z0-9_.-]{0,12}, drawn without the regex machinery (most of the test's time)
NAMES = st.builds(str.__add__, st.sampled_from(string.ascii_letters + string.digits),
                  st.text(string.ascii_letters + string.digits + "_.-", max_size=12))


@cache
def played(path: Path) -> tuple[Scenario, TurnResult]:
    """The scenario as written and its outcome: read and played once, not once per example."""
    scenario = read_scenario(path)
    return scenario, run_scenario(scenario)


def transformed(scenario: Scenario, names: dict[str, str], order: list[int]) -> Scenario:
    """The same scenario with robots renamed by `names` and the room's elements in `order`."""
    board = scenario.board
    room = replace(board.room, elements=tuple(board.room.elements[i] for i in order))
    robots = {}
    for name, robot in board.robots.items():
        copy = robot.copy()
        copy.name = names[name]
        robots[copy.name] = copy
    return replace(scenario, board=Board(room, robots, dict(board.elements)),
                   programs={names[n]: list(cards) for n, cards in scenario.programs.items()},
                   reboots=[names[n] for n in scenario.reboots],
                   option_hp={names[n]: hp for n, hp in scenario.option_hp.items()})


def outcome(board: Board, back: dict[str, str], randomly_filled: set[str]) -> dict:
    """The board as plain data, robots under their original names (fused-at-random cards masked)."""
    robots = []
    for robot in board.robots.values():
        data = to_data(robot)
        name = back[data["name"]]
        if name in randomly_filled:
            data["registers"] = sorted(data["registers"])
        robots.append({**data, "name": name})
    return {"robots": robots, "elements": dict(board.elements)}


@pytest.mark.parametrize("path", FILES, ids=[str(p.relative_to(SCENARIOS)) for p in FILES])
@settings(max_examples=4, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(data=st.data())
def test_renamed_robots_and_shuffled_elements_change_nothing(path: Path, data: st.DataObject) -> None:
    scenario, before = played(path)
    original = list(scenario.board.robots)
    fresh = data.draw(st.lists(NAMES, min_size=len(original), max_size=len(original), unique=True), label="names")
    names = dict(zip(original, fresh))
    order = data.draw(st.permutations(range(len(scenario.board.room.elements))), label="element order")
    after = run_scenario(transformed(scenario, names, list(order)))
    filled = {e.robot for e in before.events if isinstance(e, RegisterFilled) and e.robot is not None}
    identity = {name: name for name in original}
    assert outcome(after.board, {new: old for old, new in names.items()}, filled) == \
        outcome(before.board, identity, filled)
