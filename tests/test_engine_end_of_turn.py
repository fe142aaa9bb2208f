"""B12 end of turn as composable steps: a campaign replaces reinstatement and adds its own steps."""
from types import MappingProxyType

from robot_reads import counting_robot

from pbem.engine import BOTWARS, GEEKO, hand_size, new_board, resolve_turn
from pbem.engine.cards import Card
from pbem.engine.end_of_turn import EndStep, end_of_turn_steps, put_back
from pbem.engine.events import Destroyed, Reinstated
from pbem.engine.geometry import Dir, Size, Square
from pbem.engine.room import Element, Room
from pbem.engine.state import Board, Robot
from pbem.engine.vocabulary import Mode

PIT_ROOM = Room("Pit", Size(5, 5), (Square(5, 1), Square(5, 2)), (Element("pit", Square(2, 3)),))


def fall_into_pit(steps=None, ruleset=GEEKO):
    board = new_board(PIT_ROOM, [Robot("A", at=Square(3, 3), facing=Dir.N, reinstate_at=Square(5, 1))])
    kwargs = {"end_of_turn": steps} if steps is not None else {}
    return resolve_turn(board, {"A": [Card.parse("FWD1#500")]}, ruleset, seed=1, turn=4, **kwargs)


def test_b8_default_reinstatement_uses_the_board_square():
    result = fall_into_pit()
    robot = result.board.robots["A"]
    assert (robot.at, robot.facing, robot.hp, robot.mode) == (Square(5, 1), Dir.N, 10, "real")
    assert [type(e) for e in result.events if e.stage == 0] == [Reinstated]


def test_b8_2_botwars_reinstates_virtual_with_two_damage_and_counts_lives():
    result = fall_into_pit(ruleset=BOTWARS)
    robot = result.board.robots["A"]
    assert (robot.mode, robot.hp, robot.lives, robot.reinstated_turn) == ("virtual", 8, 2, 4)
    assert next(e for e in result.events if isinstance(e, Destroyed)).cause == "pit"


def test_campaign_replaces_reinstatement_and_appends_steps():
    seen = []

    def in_transit(ctx, robot):  # a G5-like rule: back later, somewhere else
        robot.mode = "in-transit"

    def record(ctx, step):
        seen.append((step, ctx.stage, ctx.board.robots["A"].mode))

    steps = end_of_turn_steps(reinstate=in_transit) + [EndStep("room exits", "G3", record)]
    result = fall_into_pit(steps)
    assert result.board.robots["A"].mode == "in-transit" and result.board.robots["A"].at is None
    assert seen == [("room exits", 0, "in-transit")]


def test_put_back_for_a_campaign_square():
    def room_one(ctx, robot):
        put_back(ctx, robot, Square(5, 2), Dir.N)

    result = fall_into_pit(end_of_turn_steps(reinstate=room_one))
    assert result.board.robots["A"].at == Square(5, 2)


def gate_room(gates):
    elements = tuple(Element("gate", Square(1, c), MappingProxyType({"open": True})) for c in gates)
    return Room("Gates", Size(5, 5), (), elements)


def test_g3_several_gates_lock_and_a_locked_robot_receives_no_cards():
    board = Board(gate_room([2, 4]), {"A": Robot("A", at=Square(2, 2), facing=Dir.N),
                                      "B": Robot("B", at=Square(5, 5), facing=Dir.N)})
    result = resolve_turn(board, {"A": [Card.parse("FWD2#700")], "B": [Card.parse("LF90#70")]}, GEEKO,
                          seed=1, turn=1)
    a = result.board.robots["A"]
    assert a.at == Square(1, 2) and not a.left_room  # stopped in the gate; B is not in the other one
    assert hand_size(result.board, "A", GEEKO) == 0 and hand_size(result.board, "B", GEEKO) == 9


def test_g3_one_gate_robot_leaves_at_the_end_of_the_stage():
    board = Board(gate_room([3]), {"A": Robot("A", at=Square(2, 3), facing=Dir.N)})
    result = resolve_turn(board, {"A": [Card.parse("FWD1#500")]}, GEEKO, seed=1, turn=1)
    assert result.board.robots["A"].left_room and result.board.robots["A"].at is None
    assert result.board.elements == {"gate@r1c3": "open"}  # the room's states, though built without new_board


CountedRegisters = counting_robot("registers")


def test_b10_ending_reboots_reads_the_fused_registers_once_not_once_per_robot():
    """B7.2/B10: three robots end their reboot with an empty fused register; each gets a card no fused register
    holds (the cards in every register read once, then the cards dealt added: issue #36, not every robot's
    registers again for each robot)."""
    from pbem.engine.context import TurnContext
    from pbem.engine.end_of_turn import reboots
    from pbem.engine.index import index_for

    held = Card.parse("FWD1#500")
    robots = [CountedRegisters(f"R{i:02d}", at=Square(5, 1 + i % 5), registers={5: held} if i == 0 else {})
              for i in range(30)]
    for robot in robots[1:4]:
        robot.mode, robot.registers = Mode.REBOOTING, {5: None}
    board = Board(PIT_ROOM, {robot.name: robot for robot in robots})
    ctx = TurnContext(board, BOTWARS, index_for(PIT_ROOM), seed=3, turn=2)
    CountedRegisters.reads = 0
    reboots(ctx, "reboots")
    dealt = [robot.registers[5] for robot in robots[1:4]]
    assert None not in dealt and len({held, *dealt}) == 4
    assert CountedRegisters.reads <= len(robots) + 4 * 3  # every robot once, then each rebooting robot's own
