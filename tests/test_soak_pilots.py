"""Soak (issue #16): bots play whole games through the CLI's turn cycle, one `game autoplay` turn at a time,
with the invariants checked after every turn and `replay --verify` at the end."""
from __future__ import annotations

import json
from collections import Counter

import pytest
from cli_process import run_pbem

from pbem.engine.deal import fused_registers, hand_size
from pbem.store.games import Store, current_state, get_game

pytestmark = pytest.mark.slow


def pbem(tmp_path, *args):
    result = run_pbem("--db", f"sqlite:///{tmp_path / 'pbem.db'}", *args, cwd=tmp_path)
    assert result.returncode == 0, result.stderr
    return result.stdout


def state_of(tmp_path, game):
    store = Store(f"sqlite:///{tmp_path / 'pbem.db'}")
    try:
        with store.session() as session:
            return current_state(session, get_game(session, game))
    finally:
        store.close()


def check_invariants(state) -> None:
    """Robots on the board or accounted for, HP within bounds, hands legal, no fused register left empty."""
    rules = state.setup.rules()
    dealt = Counter()
    for key, hand in state.hands.items():
        assert len(hand) == len(set(hand)), f"{key}: a card dealt twice"
        dealt.update(hand)
    for player in state.players.values():
        board = state.board_of(player.name)
        receiving = state.receiving(player.name)
        for name in player.robots:
            robot = board.robots[name]
            assert 0 <= robot.hp <= rules.max_hp
            if robot.on_board:
                assert 1 <= robot.at.row <= board.room.size.rows and 1 <= robot.at.col <= board.room.size.cols
            else:
                assert robot.at is None  # destroyed, in transit or through a gate
            fused = fused_registers(robot, rules)
            if robot.mode != "destroyed" and state.hands:
                assert all(robot.registers.get(n) is not None for n in fused), f"{name}: fused and empty"
            assert not set(robot.registers.values()) & set(dealt), f"{name}: a fused card dealt again"
        if state.hands and receiving:
            if rules.shared_hand:
                assert len(state.hands[player.name]) <= sum(hand_size(board.robots[n], rules) for n in receiving)
            else:
                for name in receiving:
                    assert len(state.hands[name]) == hand_size(board.robots[name], rules)


def play_to_the_end(tmp_path, game, limit):
    for _ in range(limit):
        pbem(tmp_path, "game", "autoplay", game, "--turns", "1", "--no-reports")
        state = state_of(tmp_path, game)
        check_invariants(state)
        if state.is_over:
            return state
    pytest.fail(f"{game} not over after {limit} turns")


def test_bots_play_the_bundled_geeko_campaign_to_the_end(tmp_path):
    pbem(tmp_path, "game", "new", "g", "--ruleset", "geeko", "--seed", "11",
         "--player", "alice:a@example.org:Zapper,Spanner", "--player", "bob:b@example.org:Bolt,Nut")
    state = play_to_the_end(tmp_path, "g", 80)
    done = {(c.robot, c.room) for c in state.completions}
    assert {(robot, 5) for robot in ("Zapper", "Spanner", "Bolt", "Nut")} <= done  # G1: all through room 5
    finished = {p.name: p.finished for p in state.players.values()}
    shown = json.loads(pbem(tmp_path, "game", "show", "g", "--json"))
    best = min(finished.values())
    for row in shown["standings"]:  # G1: the fewest turns wins, a tie shares the place
        assert row["turns"] == finished[row["player"]]
        assert row["place"] == (1 if row["turns"] == best else 2)
    assert pbem(tmp_path, "replay", "g", "--verify")


def test_bots_race_eight_botwars_robots_to_a_winner(tmp_path):
    players = [f"--player=p{n}:p{n}@example.org:Bot{n}" for n in range(1, 9)]
    pbem(tmp_path, "game", "new", "b", "--ruleset", "botwars", "--seed", "3", *players)
    state = play_to_the_end(tmp_path, "b", 150)
    assert state.winners, "over without a winner: every robot out of lives"
    board = state.boards["board"]
    last = max(int(e.get("number")) for e in board.room.of_type("flag"))
    assert board.robots[state.winners[0]].next_flag == last + 1  # through the last flag, in order
    shown = json.loads(pbem(tmp_path, "game", "show", "b", "--json"))
    assert shown["standings"][0]["won"] == 1 and shown["standings"][0]["place"] == 1
    assert pbem(tmp_path, "replay", "b", "--verify")
