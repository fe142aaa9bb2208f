"""Whatever a player mails in, `check` answers with a reason (or accepts) and never crashes."""
from __future__ import annotations

from hypothesis import given, settings
from hypothesis import strategies as st

from pbem.dm import Action, Config, get_game, replay

SCALARS = st.one_of(st.none(), st.booleans(), st.integers(-10, 60), st.text(max_size=12),
                    st.sampled_from(["B2-A2", "A1", "R D5", "rose C4", "D2 D3 E3 F3", "G7", "Z9"]))
VALUES = st.recursive(SCALARS, lambda inner: st.lists(inner, max_size=5), max_leaves=12)
KEYS = st.sampled_from(["roll", "move", "plant", "challenge", "give_up", "pass", "extend", "timeout", "x"])
PAYLOADS = st.dictionaries(KEYS, VALUES, min_size=1, max_size=3)
PLAYERS = st.sampled_from(["Ann", "Bob", "GM", "Eve"])


def started(game: str, **options):
    config = Config(game, ("Ann", "Bob"), variant="genius4" if game == "flowerfield" else None, options=options)
    opening = [Action("Ann", {"plant": ["R D5", "T C4"]})] if game == "flowerfield" else []
    return replay(config, opening).state


@settings(max_examples=100, deadline=None)
@given(st.sampled_from(["takebacktoe", "flowerfield"]), PLAYERS, PAYLOADS)
def test_check_never_raises_and_legal_actions_apply(game, player, payload):
    rules = get_game(game)
    state = started(game)
    action = Action(player, payload)
    reason = rules.check(state, action)
    assert reason is None or (isinstance(reason, str) and reason)
    if reason is None:
        rules.apply(state, action)
