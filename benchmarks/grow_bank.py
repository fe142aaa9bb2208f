"""Grow the banks of proven puzzles (issue #34): Gyulbot's deep lengths by climbing from the puzzles banked, or a
length (Gyulbot) or kind (Ice) of fresh puzzles from the generators.

    python3 benchmarks/grow_bank.py [--bank FILE] [--lengths 16-21] [--per-length 12] [--minutes M] [--seed S]
    python3 benchmarks/grow_bank.py --generate LENGTHS:COUNT [--bank FILE]      (Gyulbot, by the generator)
    python3 benchmarks/grow_bank.py --ice MOVES:COUNT [--size 10x10] [--snoms 2] [--bank FILE]

A hill climb from scratch needs hours for 20 moves; a banked deep puzzle's neighbours are mostly deep too. So each
walk starts at a banked puzzle near the length the bank lacks most and changes one thing a step (a robot, the goal to
another wall corner, or an L-shaped wall corner moved elsewhere), proves the change's minimum with the exact solver,
and moves to it when it comes no further from the wanted length. It stops when every length holds --per-length
puzzles, or after --minutes of CPU. A proven puzzle is appended to the bank file (one line, as the game's `bank.py`
reads it) unless it is an image of one banked (`family`) or one banked puzzle's shortest solution solves the other
(a player who saw one round would know the next). Prints ONE JSON document: the puzzles banked per length, the
candidates proven and the CPU seconds.
"""
from __future__ import annotations

import argparse
import json
import random
import sys
import time
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from pbem.dm.gyulbot import bank
from pbem.dm.gyulbot.board import Puzzle, solved_after
from pbem.dm.gyulbot.generator import centre, generate
from pbem.dm.gyulbot.images import family
from pbem.dm.gyulbot.solver import solve
from pbem.dm.icemaze import bank as ice_bank
from pbem.dm.icemaze.generate import generate as generate_maze
from pbem.dm.icemaze.maze import Maze, solves
from pbem.dm.icemaze.solver import solve as solve_maze
from pbem.dm.limits import NoProof
from pbem.engine.geometry import Dir, Square
from pbem.formats.gyulbot import parse_puzzle, puzzle_data

WALK = 40  # steps from one banked puzzle before the next walk starts elsewhere
Moves = list[tuple[int, Dir]]
Banked = list[tuple[int, Puzzle, Moves | None]]


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--bank", type=Path, help="the bank file (default: the game's, in pbem/dm)")
    parser.add_argument("--lengths", default="16-21", help="FIRST-LAST: the minimum lengths to grow")
    parser.add_argument("--per-length", type=int, default=12)
    parser.add_argument("--minutes", type=float, default=60.0, help="CPU minutes at most")
    parser.add_argument("--max-nodes", type=int, default=20_000_000, help="a candidate's proof budget")
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--generate", metavar="LENGTHS:COUNT",
                        help="COUNT fresh Gyulbot puzzles of each length: LENGTHS is N, FIRST-LAST or a comma list")
    parser.add_argument("--ice", metavar="MOVES:COUNT", help="COUNT fresh Ice mazes of minimum MOVES")
    parser.add_argument("--size", default="10x10", help="the Ice mazes' size")
    parser.add_argument("--snoms", type=int, default=2, help="the Ice mazes' snoms")
    args = parser.parse_args()
    started = time.process_time()
    if args.ice:
        found = fresh_mazes(args)
    else:
        args.bank = args.bank or ROOT / "pbem" / "dm" / "gyulbot" / bank.FILE
        banked = [(record["optimal"], parse_puzzle(record["puzzle"])) for record in _records(args.bank)]
        solutions = [(length, puzzle, _solve(puzzle, length, args.max_nodes)) for length, puzzle in banked]
        print(f"{time.process_time() - started:7.0f} s: the bank proven again", file=sys.stderr, flush=True)
        found = fresh_puzzles(args, solutions) if args.generate else climb(args, solutions, started)
    print(json.dumps({"found": found, "cpu_s": round(time.process_time() - started, 1)}, indent=2))


def climb(args: argparse.Namespace, solutions: Banked, started: float) -> dict[str, Any]:
    """Walks from the banked puzzles until every wanted length holds --per-length (or the CPU time is up)."""
    first, last = (int(part) for part in args.lengths.split("-"))
    wanted = range(first, last + 1)
    known = {family(puzzle) for _, puzzle, _ in solutions}
    found = {length: 0 for length in wanted}
    proven = 0
    rng = random.Random(args.seed)

    def short(length: int) -> int:
        return args.per_length - sum(1 for held, _, _ in solutions if held == length)

    while (time.process_time() - started) < args.minutes * 60 and any(short(length) > 0 for length in wanted):
        target = max(wanted, key=lambda length: (short(length), length))
        nearest = min(abs(held - target) for held, _, _ in solutions)
        current, at = rng.choice([(p, held) for held, p, _ in solutions if abs(held - target) == nearest])
        for _ in range(WALK):
            candidate = mutate(current, rng)
            if candidate is None or family(candidate) in known:
                continue
            moves = _solve(candidate, last, args.max_nodes)
            proven += 1
            if moves is None:
                continue
            length = len(moves)
            if length in wanted and short(length) > 0 and _new(candidate, moves, solutions):
                known.add(family(candidate))
                solutions.append((length, candidate, moves))
                found[length] += 1
                _append(args.bank, {"optimal": length, "puzzle": puzzle_data(candidate)})
                print(f"{time.process_time() - started:7.0f} s: banked a {length}-move puzzle", file=sys.stderr,
                      flush=True)
                if not any(short(length) > 0 for length in wanted):
                    break
            if abs(length - target) <= abs(at - target):
                current, at = candidate, length
    return {"banked": found, "short": {length: max(0, short(length)) for length in wanted}, "proven": proven}


def fresh_puzzles(args: argparse.Namespace, solutions: Banked) -> dict[str, Any]:
    """COUNT new Gyulbot puzzles of each length asked, from the generator, seeds counted up from --seed for each; the
    bank is proven once for them all."""
    lengths, count = args.generate.split(":")
    known = {family(puzzle) for _, puzzle, _ in solutions}
    banked: dict[int, int] = {}
    seeds: dict[int, int] = {}
    for length in _lengths(lengths):
        banked[length], seed = 0, args.seed
        while banked[length] < int(count):
            try:
                puzzle = generate(length, random.Random(f"bank {length} {seed}"))
            except ValueError:  # the climb from this seed's board found none: the next seed
                puzzle = None
            seed += 1
            moves = None if puzzle is None else solve(puzzle, length)
            if puzzle is None or moves is None or family(puzzle) in known or not _new(puzzle, moves, solutions):
                continue
            known.add(family(puzzle))
            solutions.append((length, puzzle, moves))
            _append(args.bank, {"optimal": length, "puzzle": puzzle_data(puzzle)})
            banked[length] += 1
        seeds[length] = seed - args.seed
        print(f"{time.process_time():7.0f} s: {banked[length]} puzzles of {length} moves banked", file=sys.stderr,
              flush=True)
    return {"banked": banked, "seeds": seeds}


def _lengths(text: str) -> list[int]:
    """`N`, `FIRST-LAST` or a comma list of either."""
    found: list[int] = []
    for part in text.split(","):
        first, _, last = part.partition("-")
        found += range(int(first), int(last or first) + 1)
    return found


def fresh_mazes(args: argparse.Namespace) -> dict[str, Any]:
    """COUNT new Ice mazes of one kind from the generator, seeds counted up from --seed."""
    moves, count = (int(part) for part in args.ice.split(":"))
    rows, cols = (int(part) for part in args.size.split("x"))
    args.bank = args.bank or ROOT / "pbem" / "dm" / "icemaze" / ice_bank.FILE
    held = [Maze.from_rows(record["map"]) for record in _records(args.bank)] if args.bank.exists() else []
    solutions = [(maze, solve_maze(maze).orders or "") for maze in held]
    known = {ice_bank.family(maze) for maze in held}
    banked, seed = 0, args.seed
    while banked < count:
        maze, solution = generate_maze(rows, cols, moves, args.snoms, f"bank {seed}")
        seed += 1
        orders = solution.orders or ""
        if ice_bank.family(maze) in known or any(solves(maze, theirs) or solves(other, orders)
                                                 for other, theirs in solutions):
            continue
        known.add(ice_bank.family(maze))
        solutions.append((maze, orders))
        _append(args.bank, {"optimal": moves, "map": maze.to_rows()})
        banked += 1
    return {"banked": {moves: banked}, "seeds": seed - args.seed}


def _records(path: Path) -> list[dict[str, Any]]:
    return [json.loads(line) for line in path.read_text(encoding="utf-8").splitlines()]


def _append(path: Path, record: dict[str, Any]) -> None:
    with path.open("a", encoding="utf-8") as out:
        out.write(json.dumps(record) + "\n")


def _solve(puzzle: Puzzle, most: int, max_nodes: int) -> Moves | None:
    try:
        return solve(puzzle, most, max_nodes)
    except NoProof:
        return None


def _new(puzzle: Puzzle, moves: Moves, solutions: Banked) -> bool:
    """Neither this puzzle's shortest solution solves a banked one of its setup nor a banked one's this one."""
    setup = (puzzle.rows, puzzle.cols, puzzle.colours)
    return not any(solved_after(puzzle, theirs or []) or solved_after(banked, moves)
                   for _, banked, theirs in solutions if (banked.rows, banked.cols, banked.colours) == setup)


def mutate(puzzle: Puzzle, rng: random.Random) -> Puzzle | None:
    """The puzzle with one thing changed: a robot moved, the goal moved to another wall corner, or a wall corner
    moved to a free square; None when the change drawn is void."""
    closed = centre(puzzle.rows, puzzle.cols)
    robots = {colour: list(squares) for colour, squares in zip(puzzle.colours, puzzle.start)}
    held = {square for squares in puzzle.start for square in squares}
    walls = {(square, side) for square, side in puzzle.walls
             if side in (Dir.N, Dir.W) and puzzle.on_board(square) and puzzle.on_board(square.step(side))}
    corners = _corners(puzzle, closed)
    goal = puzzle.goal
    spot = Square(rng.randint(1, puzzle.rows), rng.randint(1, puzzle.cols))
    kind = rng.randrange(3)
    if kind == 0:  # a robot
        if spot in closed or spot in held or spot == goal:
            return None
        robots[rng.choice(puzzle.colours)] = [spot]
    elif kind == 1:  # the goal
        goal = rng.choice(sorted(corners))
        if goal in held or goal == puzzle.goal:
            return None
    else:  # a wall corner
        old = rng.choice(sorted(set(corners) - {goal}))
        if not 1 < spot.row < puzzle.rows or not 1 < spot.col < puzzle.cols or spot in corners or any(
                Square(spot.row + dr, spot.col + dc) in closed | set(corners) for dr in (-1, 0, 1) for dc in (-1, 0, 1)):
            return None
        walls -= {_north_or_west(old, side) for side in corners[old]}
        walls |= {_north_or_west(spot, side) for side in (rng.choice((Dir.N, Dir.S)), rng.choice((Dir.E, Dir.W)))}
    return Puzzle.build(puzzle.rows, puzzle.cols, sorted(walls), robots, goal, puzzle.goal_colour)


def _corners(puzzle: Puzzle, closed: set[Square]) -> dict[Square, tuple[Dir, Dir]]:
    """The squares outside the centre with exactly one wall across and one along: the L-shaped corners."""
    found = {}
    for row in range(1, puzzle.rows + 1):
        for col in range(1, puzzle.cols + 1):
            square = Square(row, col)
            sides = [side for side in Dir if (square, side) in puzzle.walls and puzzle.on_board(square.step(side))]
            if square not in closed and len(sides) == 2 and sides[0] % 2 != sides[1] % 2:
                found[square] = (sides[0], sides[1])
    return found


def _north_or_west(square: Square, side: Dir) -> tuple[Square, Dir]:
    """A wall as the bank's file lists it: from the square on its south or east."""
    return (square, side) if side in (Dir.N, Dir.W) else (square.step(side), side.opposite)


if __name__ == "__main__":
    main()
