"""Properties (hypothesis): load(save(state)) == state, and the order of submissions does not change a turn."""
from __future__ import annotations

import random

import pytest
from cycle_fixtures import AT, halls_description, order
from hypothesis import given, settings
from hypothesis import strategies as st

from pbem.engine.campaign import check_orders, new_game, play_turn
from pbem.engine.deal import free_registers
from pbem.engine.orders import Submission
from pbem.formats.canonical import canonical_json
from pbem.gm import cycle
from pbem.gm.setup import create_game
from pbem.store.games import Store, load_setup, read_state, setup_document
from pbem.store.tables import Game

DESCRIPTION = halls_description()
GAME = Game(name="halls", ruleset="geeko", seed="5", setup=setup_document(DESCRIPTION))


def random_orders(state, rng: random.Random) -> dict:
    """Legal random programs for every player (equal lengths from the shared hand, RULES B4.5)."""
    orders = {}
    for player in state.players:
        receiving = state.receiving(player)
        cards = list(state.hands_of(player).get(player, []))
        rng.shuffle(cards)
        robots = {r.name: r for r in state.robots_of(player)}
        free = [free_registers(robots[name], state.setup.rules()) for name in receiving]
        length = min(rng.randint(0, 4), len(cards) // max(1, len(receiving)), *free)
        programs = {name: [str(c) for c in cards[i * length:(i + 1) * length]] for i, name in enumerate(receiving)}
        reboot = [rng.choice(receiving)] if receiving and rng.random() < 0.2 else []
        checked = check_orders(state, player, Submission(programs, reboot))
        assert checked.ok, checked.problems
        orders[player] = checked
    return orders


@settings(max_examples=25, deadline=None)
@given(rng=st.randoms(use_true_random=False), turns=st.integers(0, 6))
def test_load_of_save_of_a_state_is_the_same_state_and_a_turn_leaves_its_input_alone(rng, turns):
    state = new_game(load_setup(GAME.setup))
    for _ in range(turns):
        before = canonical_json(state)
        following = play_turn(state, random_orders(state, rng), "5").state
        assert canonical_json(state) == before  # play_turn never changes its input
        state = following
    assert read_state(GAME, canonical_json(state)) == state


def process_in_order(submissions: list[tuple[str, bytes]]) -> str:
    """A fresh game, the submissions in this order, turn 1 processed: its after-hash."""
    store = Store("sqlite://")  # in memory: a fresh database each time
    with store.session() as session:
        create_game(session, DESCRIPTION, AT)
        session.commit()
        cycle.deal(session, "halls")
        for index, (_, text) in enumerate(submissions):
            assert cycle.submit(session, "halls", [(f"v{index}", text)], store=True, at=AT)[0].accepted
        after = cycle.process(session, "halls", at=AT).after_hash
    store.close()
    return after


@pytest.mark.slow  # a soak: ten whole games, players submitting in shuffled orders
@settings(max_examples=10, deadline=None)
@given(data=st.data())
def test_the_order_in_which_players_submit_does_not_change_the_result(data):
    """B4.7: only each player's latest accepted version counts, whenever the others arrived."""
    rng = random.Random(data.draw(st.integers(0, 10**6)))
    state = new_game(load_setup(GAME.setup))
    versions = []  # two versions from each player
    for _ in range(2):
        for player, checked in random_orders(state, rng).items():
            programs = {name: [str(c) for c in cards] for name, cards in checked.programs.items()}
            versions.append((player, order("halls", 1, player, programs or {}, checked.reboot,
                                           no_cards=not any(programs.values()))))
    shuffled = data.draw(st.permutations(versions))
    latest = {player: text for player, text in shuffled}  # the last one sent by each player
    assert process_in_order(shuffled) == process_in_order(sorted(latest.items()))
