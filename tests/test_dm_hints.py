"""The actions a mail offers are legal in the match as it stands (issue #23): along random playouts of every game,
the first offer to each player — the one the mail's reply lines carry — is accepted by the rules, untouched."""
from __future__ import annotations

import random

import pytest
import yaml
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from pbem.dm.base import Action, Config, get_game
from pbem.formats.gyulbot import parse_puzzle
from pbem.formats.icemaze import parse_maze

PUZZLE = parse_puzzle({"size": 4, "walls": ["r3c2 E"], "robots": {"red": ["r4c1"], "blue": ["r2c3"]},
                       "goal": {"at": "r1c4", "colour": "red"}})
MAZE = parse_maze({"map": "S....\n.....\n..#..\n.....\n....G"})
CONFIGS = {
    "gyulbot": Config("gyulbot", ("ann", "bob"), options={"rounds": 3}, puzzles=(PUZZLE,) * 4),
    "ice": Config("ice", ("ann", "bob"), options={"target": 3}, puzzles=(MAZE,) * 20),
    "takebacktoe": Config("takebacktoe", ("ann", "bob"), options={"dice": "gm"}),
    "takebacktoe-engine": Config("takebacktoe", ("ann", "bob"), seed=5),
    "flowerfield": Config("flowerfield", ("ann", "bob")),
    "flowerfield-genius4": Config("flowerfield", ("ann", "bob"), variant="genius4"),
    "flowerfield-primary": Config("flowerfield", ("ann", "bob"), variant="primary"),
}


@pytest.mark.parametrize("name", sorted(CONFIGS))
@settings(max_examples=5, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(seed=st.integers(0, 2**32 - 1))
def test_the_first_offer_is_legal_all_along_a_random_playout(name, seed):
    config = CONFIGS[name]
    game, rng = get_game(config.game), random.Random(seed)
    state = game.new_state(config)
    for _ in range(30):
        for player in config.players:
            offers = game.hints(state, player)
            if offers:
                payload = yaml.safe_load(offers[0].split("  ")[0])
                assert game.check(state, Action(player, payload)) is None, (offers[0], game.render_data(state))
        legal = game.legal_actions(state)
        if not legal:
            break
        state = game.apply(state, rng.choice(legal))
