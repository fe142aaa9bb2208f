"""What the robot pilot works out once rather than for every candidate it weighs (issue #36), and that the
plans stay the same whatever it kept (B13: same inputs, same plan)."""
import os
import subprocess
import sys
from pathlib import Path

from pbem.engine import BOTWARS, context, goals, new_board, phases, resolve_turn
from pbem.engine.cards import Card
from pbem.engine.geometry import Dir, Square
from pbem.engine.index import RoomIndex
from pbem.engine.planner import plan
from pbem.engine.stage import play_stage
from pbem.engine.state import Robot
from pbem.engine.turn import register_sequences
from pbem.formats.rooms import load_room, read_room

ROOT = Path(__file__).resolve().parent.parent
HAND = [Card.parse(text) for text in
        ("FWD3#800", "FWD2#700", "FWD1#500", "RT90#80", "LF90#70", "UTRN#20", "RVS1#440", "FWD1#510", "FWD2#710")]


def long_room(saw_at="r3c20"):
    """3x20: flags ahead of a robot starting at r1c1, a buzzsaw it cannot reach in five cards (21 squares
    away; a card moves at most three)."""
    return load_room({"name": "Long", "size": "3x20", "starts": ["r1c1", "r3c1"], "elements": [
        {"type": "flag", "at": "r1c6", "number": 1}, {"type": "flag", "at": "r2c12", "number": 2},
        {"type": "buzzsaw", "at": saw_at}]}, "test")


def counting(monkeypatch, module, name):
    calls = []
    real = getattr(module, name)

    def counted(*args, **kwargs):
        calls.append(args)
        return real(*args, **kwargs)

    monkeypatch.setattr(module, name, counted)
    return calls


def test_the_pilot_draws_for_no_saw_that_nobody_stands_on(monkeypatch):
    """B6b.6: a saw draws each stage, but the draw only decides whether it spins on a robot; the pilot reads
    only the board, so a saw with nobody on it draws nothing (main seeded one RNG per simulated stage)."""
    board = new_board(long_room(), [Robot("A", "p", Square.parse("r1c1"), Dir.E)])
    draws = counting(monkeypatch, context, "derive_rng")
    chosen = plan(board, ["A"], ["A"], {"A": HAND}, BOTWARS, seed=1, turn=1)
    assert chosen.checked.ok and chosen.simulated > 5
    assert draws == []


def test_a_saw_with_a_robot_on_it_still_cuts_in_the_pilots_stages():
    """The stage the pilot plays is the turn's stage: a robot standing on the saw is cut exactly when the turn
    cuts it (seeds chosen so that it spins in some stages and not in others)."""
    board = new_board(long_room("r3c1"), [Robot("A", "p", Square.parse("r1c1"), Dir.E),
                                          Robot("B", "q", Square.parse("r3c1"), Dir.N)])
    programs = {"A": HAND[:5]}
    sequences = register_sequences(board, programs, BOTWARS)
    spun = set()
    for seed in range(8):
        whole = resolve_turn(board, programs, BOTWARS, seed=seed, turn=2, end_of_turn=())
        staged = board
        for stage in range(1, 6):
            staged = play_stage(staged, sequences, BOTWARS, seed=seed, turn=2, stage=stage)
        assert staged.robots["B"].hp == whole.board.robots["B"].hp
        spun.add(whole.board.robots["B"].hp)
    assert len(spun) > 1


def test_the_flags_goals_are_worked_out_once_per_room(monkeypatch):
    """BotWars: the goal nodes of each flag once per room, not once for every board the pilot weighs."""
    board = new_board(long_room(), [Robot("A", "p", Square.parse("r1c1"), Dir.E)])
    built = counting(monkeypatch, goals, "square_goals")
    chosen = plan(board, ["A"], ["A"], {"A": HAND}, BOTWARS, seed=1, turn=1)
    again = plan(board, ["A"], ["A"], {"A": HAND}, BOTWARS, seed=2, turn=1)
    assert chosen.simulated + again.simulated > 20
    assert len(built) == 2  # the room's two flags


PLANS = """
import sys
from pathlib import Path
from pbem.engine.campaign import GameSetup, PlayerSetup, new_game
from pbem.engine.planner import plan
from pbem.formats.decks import read_deck
from pbem.formats.rooms import read_room

root = Path(sys.argv[1])
deck = read_deck(root / "decks" / "standard.yaml")
rooms = [read_room(root / "rooms" / "botwars" / name) for name in ("foundry.yaml", "foundry.yaml")]
games = [new_game(GameSetup(f"g{n}", "botwars", str(n), (room,), deck,
                            tuple(PlayerSetup(f"p{k}", (f"R{k}",)) for k in range(4))))
         for n, room in enumerate(rooms)]
positions = [(state, player) for state in games for player in state.players]
found = {}
for state, player in (reversed(positions) if sys.argv[2] == "reversed" else positions):
    chosen = plan(state.board_of(player), state.players[player].robots, state.receiving(player),
                  state.hands_of(player), state.setup.rules(), seed=state.setup.seed, turn=state.turn)
    found[(state.setup.name, player)] = (chosen.programs, chosen.reboot, chosen.cost, chosen.simulated)
print(sorted(found.items()))
"""


def test_the_plans_are_the_same_in_any_order_and_under_any_hash_seed():
    """The pilot's kept work (flags' goals, distance fields, step tables; two rooms read from one file) never
    changes a plan: two games' four players planned in either order, under two hash seeds."""
    outputs = set()
    for hash_seed, order in (("0", "forward"), ("4711", "reversed")):
        environment = {**os.environ, "PYTHONHASHSEED": hash_seed, "PYTHONPATH": str(ROOT)}
        outputs.add(subprocess.run([sys.executable, "-c", PLANS, str(ROOT), order], env=environment, check=True,
                                   capture_output=True, text=True).stdout)
    assert len(outputs) == 1


def test_belts_and_beams_look_for_robots_by_their_cells(monkeypatch):
    """A stage where nobody stands on a belt and no beam has a robot on its path: the conveyors' phases ask one
    `&` of the robots' cells (kept by the context until a robot is placed) and never look up the belts by
    square, and the lasers never sort the robots by cell (main: both belt phases walked every robot, and the
    lasers' phase made its table of robots by cell every stage)."""
    foundry = read_room(ROOT / "rooms" / "botwars" / "foundry.yaml")
    off_belts = [Square.parse(text) for text in ("r12c2", "r1c1", "r4c11")]
    belts = {element.at for element in foundry.of_type("conveyor")}
    assert not belts & set(off_belts)
    board = new_board(foundry, [Robot(f"R{n}", f"p{n}", at, Dir.N) for n, at in enumerate(off_belts)])
    looked_up = counting(monkeypatch, RoomIndex, "placed")
    tables = counting(monkeypatch, phases, "Occupancy")
    turned = play_stage(board, {"R0": [Card.parse("RT90#80")]}, BOTWARS, seed=1, turn=1, stage=1)
    assert turned.robots["R0"].facing == Dir.E
    assert [args[1] for args in looked_up if args[1] == "conveyor"] == []
    assert tables == []
