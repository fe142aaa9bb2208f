"""The turn's index of robots by square (`TurnContext.standing`, issue #36): asking who stands on a square visits
the robots there, not every robot, and the index stays true through every phase however robots move."""
import ast
import random
from pathlib import Path

from robot_reads import counting_robot

from pbem.engine import BOTWARS, GEEKO, new_board, resolve_turn
from pbem.engine.cards import standard_cards
from pbem.engine.context import TurnContext
from pbem.engine.end_of_turn import END_OF_TURN
from pbem.engine.geometry import Dir, Square
from pbem.engine.index import index_for
from pbem.engine.phases import PHASES, Phase
from pbem.engine.state import Board, Robot
from pbem.engine.vocabulary import Mode
from pbem.formats.rooms import load_room, read_room

ROOT = Path(__file__).resolve().parent.parent
EVERYTHING = ROOT / "benchmarks" / "rooms" / "everything.yaml"


CountedRobot = counting_robot("at")


def test_asking_who_stands_on_a_square_visits_only_the_robots_there():
    room = read_room(EVERYTHING)
    free = [sq for sq in room.size.squares() if not any(e.at == sq for e in room.elements)]
    robots = [CountedRobot(f"R{i:02d}", at=square) for i, square in enumerate(free[:40])]
    robots.append(CountedRobot("Ghost", at=free[0], mode=Mode.VIRTUAL))  # B9: shares R00's square
    ctx = TurnContext(Board(room, {r.name: r for r in robots}), BOTWARS, index_for(room), seed=0, turn=1)
    ctx.solid_at(free[0])  # the index is built when first asked, from every robot
    CountedRobot.reads = 0
    assert [r.name for r in ctx.robots_at(free[0])] == ["Ghost", "R00"]
    assert ctx.solid_at(free[0]).name == "R00" and ctx.solid_at(free[39]).name == "R39"
    assert ctx.solid_at(free[40]) is None and ctx.robots_at(free[40]) == []
    assert CountedRobot.reads <= 8  # the few robots asked about (a scan read all 41 squares per question)


def checked(run):
    """A phase or end-of-turn step that, once done, compares the index with the robots' squares (the first check
    builds it; every later one finds what `place` kept)."""
    def check(ctx: TurnContext, name: str) -> None:
        run(ctx, name)
        expected: dict[Square, list[str]] = {}
        for robot in ctx.robots_in_order:
            if robot.at is not None:
                expected.setdefault(robot.at, []).append(robot.name)
        kept = {square: [robot.name for robot in robots] for square, robots in ctx.standing().items()}
        assert kept == expected, (ctx.turn, ctx.stage, name)
    return check


def test_the_index_stays_true_through_every_phase_of_crowded_turns():
    """Sixteen robots on the room with every mechanism (belts, pushers, teleporters, pits, gates, crushers …),
    thirty turns played on from each other: pushed, conveyed, teleported, destroyed, reinstated virtual on a
    shared square, rebooting; after every phase and end-of-turn step the index agrees with the robots."""
    room = read_room(EVERYTHING)
    rng = random.Random(36)
    free = [sq for sq in room.size.squares() if not any(e.at == sq for e in room.elements)]
    robots = [Robot(f"R{i:02d}", owner=f"p{i}", at=sq, facing=Dir(i % 4), reinstate_at=sq)
              for i, sq in enumerate(rng.sample(free, 16))]
    board, deck = new_board(room, robots), standard_cards()
    phases = [Phase(p.name, p.rule, checked(p.run)) for p in PHASES]
    end = [Phase(p.name, p.rule, checked(p.run)) for p in END_OF_TURN]
    seen = set()
    for turn in range(1, 31):
        programs = {name: rng.sample(deck, 5) for name in board.robots}
        reboots = [name for name in board.robots if rng.random() < 0.05]
        result = resolve_turn(board, programs, BOTWARS, seed=turn, turn=turn, reboots=reboots,
                              phases=phases, end_of_turn=end)
        seen |= {event.kind for event in result.events}
        board = result.board
    assert {"Pushed", "Conveyed", "PushedByPusher", "Destroyed", "Reinstated", "BecameReal"} <= seen


def test_geeko_robots_leaving_by_a_gate_leave_the_index():
    room = read_room(EVERYTHING)
    gate = next(e for e in room.elements if e.type == "gate")
    ctx = TurnContext(new_board(room, [Robot("A", owner="p", at=gate.at)]), GEEKO, index_for(room), seed=0, turn=1)
    robot = ctx.board.robots["A"]
    assert ctx.robots_at(gate.at) == [robot]
    ctx.place(robot, None)
    assert ctx.robots_at(gate.at) == [] and robot.at is None


ALLOWED = {("campaign.py", "_enter_room")}  # builds a new board of robot copies: no turn is under way


def assignments_to_at(path: Path) -> list[tuple[str, str, int]]:
    """(file, function, line) of every assignment to an attribute named `at` outside `TurnContext.place`."""
    tree = ast.parse(path.read_text(encoding="utf-8"))
    found = []
    for function in ast.walk(tree):
        if not isinstance(function, (ast.FunctionDef, ast.AsyncFunctionDef)):
            continue
        for node in ast.walk(function):
            targets = node.targets if isinstance(node, ast.Assign) else (
                [node.target] if isinstance(node, (ast.AugAssign, ast.AnnAssign)) else [])
            for target in targets:
                for part in ast.walk(target):
                    if isinstance(part, ast.Attribute) and part.attr == "at" and isinstance(part.ctx, ast.Store):
                        found.append((path.name, function.name, node.lineno))
    return [hit for hit in found if hit[:2] not in ALLOWED and hit[:2] != ("context.py", "place")]


def test_robots_change_square_only_through_the_context():
    """A robot moved behind the index's back would be found where it was: every move goes through `place`."""
    found = [hit for path in sorted((ROOT / "pbem" / "engine").rglob("*.py")) for hit in assignments_to_at(path)]
    assert found == []


def test_the_detector_finds_a_robot_moved_behind_the_index(tmp_path):
    sneaky = tmp_path / "sneaky.py"
    sneaky.write_text("def slide(ctx, robot, to):\n    robot.mode, robot.at = 'real', to\n")
    assert assignments_to_at(sneaky) == [("sneaky.py", "slide", 2)]


CountedMode = counting_robot("mode")


def test_a_beam_asks_only_the_nearest_robot_on_its_path():
    """A robot firing west along a row of robots hits the nearest; the robots behind it are never asked (the beam
    took every robot on its line, the farthest first going west or north)."""
    from pbem.engine.index import Occupancy
    from pbem.engine.phases import trace

    room = load_room({"name": "a row", "size": "3x10", "elements": []}, "row.yaml")
    robots = [CountedMode(f"R{col:02d}", at=Square(2, col), facing=Dir.W) for col in range(1, 11)]
    ctx = TurnContext(Board(room, {r.name: r for r in robots}), BOTWARS, index_for(room), seed=0, turn=1)
    shooter = robots[-1]
    occupancy = Occupancy(ctx.index, robots)
    CountedMode.reads = 0
    target, _, _ = trace(ctx, shooter.square, Dir.W, shooter=shooter, occupancy=occupancy)
    assert target is robots[-2] and CountedMode.reads == 1
