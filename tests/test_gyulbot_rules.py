"""Gyulbot moves and goals (RULES D1.1–D1.3), with positions worked out by hand."""
from __future__ import annotations

import pytest

from pbem.dm.gyulbot.bfs import bfs_solve
from pbem.dm.gyulbot.board import Puzzle, format_solution, is_solved, move, parse_solution, solved_after
from pbem.dm.gyulbot.solver import solve
from pbem.engine.geometry import Dir, Square


def sq(text: str) -> Square:
    return Square.parse(text)


def puzzle(size=5, walls=(), robots=None, goal="r1c1", colour=None) -> Puzzle:
    return Puzzle.build(size, size, [(sq(a), Dir.parse(b)) for a, b in (w.split() for w in walls)],
                        {c: [sq(s) for s in squares] for c, squares in (robots or {"red": ["r5c5"]}).items()},
                        sq(goal), colour)


def squares(position) -> list[list[str]]:
    return [[str(s) for s in body] for body in position]


def test_d1_2_slide_to_board_edge_and_wall():
    p = puzzle(walls=["r3c2 E"], robots={"red": ["r3c5"]})
    assert squares(move(p, p.start, 0, Dir.N)) == [["r1c5"]]
    # sliding west the robot stops east of the wall on r3c2's east side
    assert squares(move(p, p.start, 0, Dir.W)) == [["r3c3"]]


def test_d1_2_wall_is_seen_from_both_sides():
    p = puzzle(walls=["r3c3 W"], robots={"red": ["r3c1"]})
    assert squares(move(p, p.start, 0, Dir.E)) == [["r3c2"]]


def test_d1_2_robot_blocks_robot():
    p = puzzle(robots={"red": ["r5c1"], "blue": ["r2c1"]})
    assert squares(move(p, p.start, 0, Dir.N)) == [["r3c1"], ["r2c1"]]
    # a blocked move changes nothing
    q = puzzle(robots={"red": ["r3c1"], "blue": ["r2c1"]})
    assert move(q, q.start, 0, Dir.N) == q.start


def test_d1_2_rigid_body_stops_when_any_robot_is_blocked():
    # red robots at r5c1 and r5c3 move north; a wall under r2c3 stops the second at r3c3,
    # so the first also stops after two steps, at r3c1, though its column is open
    p = puzzle(walls=["r2c3 S"], robots={"red": ["r5c1", "r5c3"]})
    assert squares(move(p, p.start, 0, Dir.N)) == [["r3c1", "r3c3"]]


def test_d1_2_rigid_body_in_line_does_not_block_itself():
    p = puzzle(robots={"red": ["r3c1", "r3c2"], "blue": ["r1c5"]})
    assert squares(move(p, p.start, 0, Dir.E)) == [["r3c4", "r3c5"], ["r1c5"]]


def test_d1_2_rigid_body_blocked_by_other_colour():
    # blue at r1c2 stops the red robot at r4c2 at r2c2; red r4c4 stops with it at r2c4
    p = puzzle(robots={"red": ["r4c2", "r4c4"], "blue": ["r1c2"]})
    assert squares(move(p, p.start, 0, Dir.N)) == [["r2c2", "r2c4"], ["r1c2"]]


def test_d1_2_only_the_chosen_colour_moves():
    p = puzzle(robots={"red": ["r5c5"], "blue": ["r5c1"]})
    assert squares(move(p, p.start, 1, Dir.N)) == [["r5c5"], ["r1c1"]]


def test_d1_3_passing_over_the_goal_does_not_count():
    p = puzzle(robots={"red": ["r5c3"]}, goal="r3c3")
    after = move(p, p.start, 0, Dir.N)
    assert squares(after) == [["r1c3"]] and not is_solved(p, after)


def test_d1_3_coloured_goal_only_for_its_colour():
    p = puzzle(robots={"red": ["r5c1"], "blue": ["r5c5"]}, goal="r1c1", colour="blue")
    assert not is_solved(p, move(p, p.start, 0, Dir.N))  # red stops on the blue goal: no
    # blue needs U then L (blue's L from r1c5 would stop at r1c2 if red went up first)
    assert solved_after(p, parse_solution(p, "Blue UL")) == 2
    assert len(solve(p)) == 2 and len(bfs_solve(p, 5)) == 2


def test_d1_3_uncoloured_goal_any_robot():
    p = puzzle(robots={"red": ["r5c3"], "blue": ["r5c1"]}, goal="r1c1")
    assert solved_after(p, parse_solution(p, "Blue U")) == 1
    assert len(solve(p)) == 1


def test_d1_3_rigid_body_member_finishes():
    p = puzzle(robots={"red": ["r5c1", "r5c3"]}, goal="r1c3", colour="red")
    assert squares(move(p, p.start, 0, Dir.N)) == [["r1c1", "r1c3"]]
    assert len(solve(p)) == 1


SEED_BOARD = dict(size=5, walls=["r1c3 W", "r3c2 N", "r3c5 S", "r4c1 N", "r5c4 E", "r5c4 W"],
                  robots={"red": ["r4c3"]}, goal="r2c5", colour="red")


def test_seed_example_notation_red_urdlurdr():
    """Seed 000: "Red URDLURDR … takes 8 steps". By hand on SEED_BOARD:
    U r1c3, R r1c5, D r3c5 (wall south), L r3c1, U r1c1, R r1c2 (wall west of r1c3),
    D r2c2 (wall north of r3c2), R r2c5 = goal."""
    p = puzzle(**SEED_BOARD)
    moves = parse_solution(p, "Red URDLURDR")
    assert moves == [(0, d) for d in (Dir.N, Dir.E, Dir.S, Dir.W, Dir.N, Dir.E, Dir.S, Dir.E)]
    trail, position = [], p.start
    for colour, direction in moves:
        position = move(p, position, colour, direction)
        trail.append(str(position[0][0]))
    assert trail == ["r1c3", "r1c5", "r3c5", "r3c1", "r1c1", "r1c2", "r2c2", "r2c5"]
    assert solved_after(p, moves) == 8
    assert format_solution(p, moves) == "Red URDLURDR"


def test_solution_notation_any_case_and_several_colours():
    p = puzzle(robots={"red": ["r5c5"], "blue": ["r5c1"]})
    moves = parse_solution(p, "red ur BLUE d Red l")
    assert moves == [(0, Dir.N), (0, Dir.E), (1, Dir.S), (0, Dir.W)]
    assert format_solution(p, moves) == "Red UR Blue D Red L"


@pytest.mark.parametrize("text, fragment", [("URDL", "before any colour"), ("Red UX", "neither a colour"),
                                            ("Green U", "neither a colour")])
def test_solution_notation_errors(text, fragment):
    p = puzzle(robots={"red": ["r5c5"], "blue": ["r5c1"]})
    with pytest.raises(ValueError, match=fragment):
        parse_solution(p, text)
