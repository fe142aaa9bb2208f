"""RULES D2.2: the simultaneous slide, worked out by hand on small mazes."""
from pbem.dm.icemaze import Maze, play, slide


def cell(maze: Maze, row: int, col: int) -> int:
    return row * maze.cols + col


def after(rows: list[str], orders: str) -> list[str]:
    maze = Maze.from_rows(rows)
    return maze.to_rows(play(maze, orders))


def test_d2_2_border_stops_a_snom():
    assert after(["..S..", ".....", ".....", ".....", "G...."], "U")[0] == "..S.."
    assert after(["..S..", ".....", ".....", ".....", "G...."], "R")[0] == "....S"
    assert after(["..S..", ".....", ".....", ".....", "G...."], "D")[4] == "G.S.."


def test_d2_2_rock_stops_a_snom_before_it():
    rows = after(["S..#.", ".....", ".....", ".....", "....G"], "R")
    assert rows[0] == "..S#."


def test_d2_2_all_snoms_move_at_once():
    rows = after(["S....", ".....", "...S.", ".....", "GG..."], "R")
    assert rows[0] == "....S" and rows[2] == "....S"


def test_d2_2_snom_stops_behind_snom_front_first():
    # moving right the front snom (column 3) goes first to the border, the other stops behind it
    assert after(["S.S..", ".....", ".....", ".....", "GG..."], "R")[0] == "...SS"
    # moving left the front is now the left snom
    assert after(["..S.S", ".....", ".....", ".....", "GG..."], "L")[0] == "SS..."


def test_d2_2_a_queue_of_snoms_packs_against_a_rock():
    assert after(["SSS.#", ".....", ".....", ".....", "GGG.."], "R")[0] == ".SSS#"


def test_d2_2_snoms_in_a_column_front_first():
    rows = after(["S...G", ".....", "S...G", ".....", "....."], "D")
    assert [r[0] for r in rows] == [".", ".", ".", "S", "S"]


def test_d2_2_snom_passing_a_free_goal_stops_and_locks():
    maze = Maze.from_rows(["S.G..", ".....", ".....", ".....", "....."])
    position = slide(maze, maze.start(), "R")
    assert position.free == () and position.locked == {cell(maze, 0, 2)}
    assert position.solved
    # locked: it no longer moves
    assert slide(maze, position, "R") == position


def test_d2_2_locked_snom_is_a_rock_for_the_one_behind():
    # the front snom locks on the goal, the one behind stops next to it and stays free
    maze = Maze.from_rows(["S.S.G", ".....", ".....", ".....", "G...."])
    position = slide(maze, maze.start(), "R")
    assert position.locked == {cell(maze, 0, 4)}
    assert position.free == (cell(maze, 0, 3),)


def test_d2_2_goal_holding_a_locked_snom_does_not_lock_another():
    maze = Maze.from_rows(["S..*.", ".....", ".....", ".....", "G...."])
    position = slide(maze, maze.start(), "R")
    assert position.free == (cell(maze, 0, 2),)
    assert position.locked == {cell(maze, 0, 3)}


def test_d2_2_snom_starting_on_a_goal_is_locked():
    maze = Maze.from_rows(["*....", ".....", ".....", ".....", "....."])
    start = maze.start()
    assert start.free == () and start.solved
    maze = Maze.from_rows(["*...S", ".....", ".....", ".....", "G...."])
    assert maze.start().locked == {0}
    # the free snom slides left and stops beside the locked one, which has not moved
    assert after(["*...S", ".....", ".....", ".....", "G...."], "L")[0] == "*S..."


def test_d2_2_goal_in_the_way_of_a_snom_already_stopped_is_not_taken():
    # a snom blocked at once stays put even with a goal beyond the blocker
    assert after(["S#G..", ".....", ".....", ".....", "....."], "R")[0] == "S#G.."


def test_d2_2_solved_only_when_every_snom_is_locked():
    maze = Maze.from_rows(["S...G", ".....", ".....", "G....", "S...."])
    # R: the top snom locks on r1c5, the bottom one slides to r5c5; L brings it back to r5c1
    assert not play(maze, "R").solved
    assert not play(maze, "RL").solved
    # U: it passes r4c1, a free goal, and locks there
    assert play(maze, "RLU").solved
