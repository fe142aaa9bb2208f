"""Rewrite the order files of the bundled sample campaign (`turns/*/turn-NNN/*.yaml`).

Run it after the rooms, decks or rules change so that the orders fit the hands
the seeded deal produces again:

    python3 turns/regenerate.py

Each player's programs are picked by trying a few hundred programs from the
hand and keeping the one that does best for that player (forward towards the
gate or the next flag, no damage), with a fixed RNG, so the output is stable.
Some turns show other parts of the cycle on purpose: a turn sheet pasted back
with a letter above the orders, a reboot declaration, a missing submission.
"""
from __future__ import annotations

import random
import shutil
import sys
import tempfile
from pathlib import Path

HERE = Path(__file__).resolve().parent
sys.path.insert(0, str(HERE.parent))

from pbem.engine.campaign import GameState, check_orders, play_turn  # noqa: E402
from pbem.engine.deal import free_registers  # noqa: E402
from pbem.engine.orders import Checked, Submission  # noqa: E402
from pbem.formats.game import DESCRIPTION, read_description, turn_folder_name  # noqa: E402
from pbem.formats.orders import order_text  # noqa: E402
from pbem.store import cycle  # noqa: E402
from pbem.store.games import Store, create_game, current_state, get_game  # noqa: E402
from datetime import datetime, timezone  # noqa: E402

AT = datetime(2026, 1, 1, 12, 0, tzinfo=timezone.utc)  # the time stamp of every step (none reaches a file)

TURNS = {"geeko": 6, "botwars": 4}
PASTED = {("geeko", 2, "bob")}  # orders sent back inside the whole turn sheet
MISSING = {("botwars", 3, "dee")}  # no orders: the bot plays the robot (B4.6, `missing_orders: bot`)
REBOOT = {("geeko", 4, "alice"): "Spanner"}  # a reboot declared for the next turn (B10)
TRIES = 300


def main() -> None:
    for name, turns in TURNS.items():
        folder = HERE / name
        for old in folder.glob("turn-*"):
            shutil.rmtree(old)
        with tempfile.TemporaryDirectory() as scratch:
            store = Store(f"sqlite:///{scratch}/regenerate.db")
            description = read_description(folder / DESCRIPTION)
            with store.session() as session:
                create_game(session, description, AT)
                session.commit()
            for turn in range(1, turns + 1):
                with store.session() as session:
                    _, sheets = cycle.deal(session, description.name)
                    state = current_state(session, get_game(session, description.name))
                    files = []
                    for sheet in sheets:
                        key = (name, turn, sheet.player)
                        if key in MISSING:
                            continue
                        text = best_orders(state, sheet.player, REBOOT.get(key))
                        if key in PASTED:
                            text = pasted(sheet, text)
                        path = folder / turn_folder_name(turn) / f"{sheet.player}.yaml"
                        path.parent.mkdir(parents=True, exist_ok=True)
                        path.write_text(text, encoding="utf-8")
                        files.append((str(path), text.encode()))
                    results = cycle.submit(session, description.name, files, store=True, at=AT)
                    refused = [p for r in results for p in r.problems]
                    if refused:
                        raise SystemExit("\n".join(refused))
                    result = cycle.process(session, description.name, at=AT)
                    print(f"{name} turn {turn}: {result.after_hash[:16]}")
            store.close()


def best_orders(state: GameState, player: str, reboot: str | None) -> str:
    """The best-scoring of TRIES random legal programs for the player (the others idle)."""
    rng = random.Random(f"{state.setup.name}/{state.turn}/{player}")
    receiving = state.receiving(player)
    hands = state.hands_of(player)
    best, best_score = None, None
    for _ in range(TRIES):
        programs = random_programs(state, player, receiving, hands, rng)
        checked = check_orders(state, player, Submission(programs))
        if not checked.ok:
            continue
        orders = {**as_filled(state, player), player: checked}
        score = evaluate(play_turn(state, orders, state.setup.seed).state, player)
        if best_score is None or score > best_score:
            best, best_score = checked, score
    programs = {name: best.programs.get(name, []) for name in state.players[player].robots}
    return order_text(state.setup.name, state.turn, player, programs, [reboot] if reboot else [])


def as_filled(state: GameState, player: str) -> dict[str, Checked]:
    """The other players while one player's programs are tried: registers filled from the top of the hand,
    whatever the game's B4.6 policy (a bot for every try would take minutes and change nothing of theirs)."""
    rules = state.setup.rules()
    return {other: Checked(programs={name: state.hands.get(name, [])[:free_registers(board.robots[name], rules)]
                                     for name in state.receiving(other)} if not rules.shared_hand else {})
            for other in state.players if other != player
            for board in [state.board_of(other)]}


def random_programs(state: GameState, player: str, receiving: list[str], hands: dict, rng: random.Random) -> dict:
    rules = state.setup.rules()
    robots = {r.name: r for r in state.robots_of(player)}
    free = {name: free_registers(robots[name], rules) for name in receiving}
    if rules.shared_hand:
        cards = list(hands[player])
        rng.shuffle(cards)
        length = min([rng.randint(2, 5), len(cards) // max(1, len(receiving)), *free.values()])
        return {name: [str(c) for c in cards[i * length:(i + 1) * length]] for i, name in enumerate(receiving)}
    programs = {}
    for name in receiving:
        cards = list(hands[name])
        rng.shuffle(cards)
        programs[name] = [str(c) for c in cards[:free[name]]]
    return programs


def evaluate(state: GameState, player: str) -> int:
    """Higher is better: out through the gate or on to the next flag, going north, undamaged, alive."""
    board = state.board_of(player)
    flags = {int(e.get("number")): e.at for e in board.room.of_type("flag")}
    score = 1000 * (state.players[player].room - 1)
    for name in state.players[player].robots:
        robot = board.robots[name]
        if robot.left_room:
            score += 200
        elif robot.at is None:
            score -= 300
        elif flags:
            target = flags.get(robot.next_flag)
            score += 100 * robot.next_flag
            if target is not None:
                score -= 5 * (abs(target.row - robot.at.row) + abs(target.col - robot.at.col))
        else:
            score -= 10 * robot.at.row
        score -= 15 * (state.setup.rules().max_hp - robot.hp)
    return score


def pasted(sheet, orders: str) -> str:
    """The player's mail: a greeting, the turn sheet quoted back, then the filled-in orders."""
    return (f"Hi GM,\n\nhere are my orders for turn {sheet.turn}. Room: {sheet.room}.\n"
            f"Hand: {' '.join(next(iter(sheet.hands.values())))}\n\nCheers, {sheet.player}\n\n" + orders)


if __name__ == "__main__":
    main()
