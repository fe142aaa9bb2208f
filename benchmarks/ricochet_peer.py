"""fogleman's C Ricochet Robots solver (github.com/fogleman/Ricochet), built from its
public source as its own executable, as the yardstick for pbem's Gyulbot solver.

Nothing of its code is copied here: `build` compiles our driver (`ricochet_driver.c`) with
the clone's ricochet.c, with the system cc and its build script's flags (-std=c99 -O3), into
a program that reads puzzles on stdin and times each search by its own process CPU clock
(`Peer` keeps it running beside the benchmark).
`to_game` converts a pbem puzzle to that solver's board model (16x16 cells, index
row * 16 + col, wall bits N=1 E=2 S=4 W=8 on both sides of every wall and along the edges,
the robot bit 16 on occupied cells, the goal's robot first).
"""
from __future__ import annotations

import subprocess
import tempfile
from pathlib import Path

from pbem.dm.gyulbot.board import Puzzle
from pbem.engine.geometry import Dir, Square

SIDE = 16
BIT = {Dir.N: 1, Dir.E: 2, Dir.S: 4, Dir.W: 8}
DIRECTION = {bit: direction for direction, bit in BIT.items()}
ROBOT = 16
DRIVER = Path(__file__).with_name("ricochet_driver.c")


def build(clone: Path) -> tuple[Path, dict]:
    """Compile the driver with `clone`/ricochet.c as one -O3 program; its path and how it was built."""
    out = Path(tempfile.mkdtemp(prefix="ricochet-")) / "ricochet"
    command = ["cc", "-std=c99", "-O3", "-I", str(clone), "-o", str(out), str(DRIVER)]
    subprocess.run(command, check=True, capture_output=True)
    version = subprocess.run(["cc", "--version"], capture_output=True, text=True).stdout.splitlines()[0]
    commit = subprocess.run(["git", "-C", str(clone), "rev-parse", "--short", "HEAD"],
                            capture_output=True, text=True).stdout.strip()
    return out, {"compiler": version, "flags": "-std=c99 -O3", "commit": commit or "unknown",
                 "run": "its own executable, CPU time of its process around each search"}


def convertible(puzzle: Puzzle) -> bool:
    """The C model: a 16x16 board, four single robots, a coloured goal."""
    return (puzzle.rows == puzzle.cols == SIDE and len(puzzle.start) == 4
            and all(len(squares) == 1 for squares in puzzle.start) and puzzle.goal_colour is not None)


def to_game(puzzle: Puzzle) -> tuple[list[int], list[int]]:
    """The C solver's game for `puzzle` as the driver reads it (cells, robots, goal), and the pbem colour index
    of each C robot."""
    grid = [sum(bit for side, bit in BIT.items() if puzzle.blocked(Square(row, col), side))
            for row in range(1, SIDE + 1) for col in range(1, SIDE + 1)]
    finisher = puzzle.finishers()[0]
    order = [finisher] + [i for i in range(4) if i != finisher]
    robots = []
    for colour in order:
        square = puzzle.start[colour][0]
        robots.append((square.row - 1) * SIDE + square.col - 1)
        grid[robots[-1]] |= ROBOT
    return grid + robots + [(puzzle.goal.row - 1) * SIDE + puzzle.goal.col - 1], order


class Peer:
    """The C program running beside the benchmark: each `solve` sends it one game and reads back its solution, so
    its searches and pbem's can alternate under the same load while each keeps its own process."""

    def __init__(self, program: Path):
        self.process = subprocess.Popen([str(program)], stdin=subprocess.PIPE, stdout=subprocess.PIPE, text=True)
        self._send("1")  # one search per game sent

    def _send(self, line: str) -> None:
        assert self.process.stdin is not None
        self.process.stdin.write(line + "\n")
        self.process.stdin.flush()

    def solve(self, game: tuple[list[int], list[int]]) -> tuple[list[tuple[int, Dir]], float]:
        """The C solver's minimal solution (pbem colour, direction) for a game from `to_game`, and the CPU seconds
        of its search (its process's clock)."""
        numbers, order = game
        self._send(" ".join(map(str, numbers)))
        assert self.process.stdout is not None
        moves, seconds = self.process.stdout.readline().split("|")
        return [(order[(b >> 4) & 15], DIRECTION[b & 15]) for b in map(int, moves.split())], float(seconds)

    def close(self) -> None:
        assert self.process.stdin is not None
        self.process.stdin.close()
        self.process.wait()
