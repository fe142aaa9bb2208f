"""fogleman's C Ricochet Robots solver (github.com/fogleman/Ricochet), built from its
public source and called through ctypes, as the yardstick for pbem's Gyulbot solver.

Nothing of its code is copied here: `build` compiles the clone's ricochet.c with the
system cc into a temporary shared library, and `to_game` converts a pbem puzzle to
that solver's board model (16x16 cells, index row * 16 + col, wall bits N=1 E=2 S=4
W=8 on both sides of every wall and along the edges, the robot bit 16 on occupied
cells, the goal's robot first).
"""
from __future__ import annotations

import ctypes
import subprocess
import tempfile
import time
from pathlib import Path

from pbem.dm.gyulbot.board import Puzzle
from pbem.engine.geometry import Dir, Square

SIDE = 16
BIT = {Dir.N: 1, Dir.E: 2, Dir.S: 4, Dir.W: 8}
DIRECTION = {bit: direction for direction, bit in BIT.items()}
ROBOT = 16


class Game(ctypes.Structure):
    """The C solver's `Game` struct (ricochet.c)."""

    _fields_ = [("grid", ctypes.c_uint * 256), ("moves", ctypes.c_uint * 256), ("robots", ctypes.c_uint * 4),
                ("token", ctypes.c_uint), ("last", ctypes.c_uint)]


def build(clone: Path) -> tuple[ctypes.CDLL, dict]:
    """Compile `clone`/ricochet.c as its own build script does (-std=c99 -O3) into a shared library."""
    out = Path(tempfile.mkdtemp(prefix="ricochet-")) / "libricochet.so"
    command = ["cc", "-std=c99", "-O3", "-fPIC", "-shared", "-o", str(out), str(clone / "ricochet.c")]
    subprocess.run(command, check=True, capture_output=True)
    version = subprocess.run(["cc", "--version"], capture_output=True, text=True).stdout.splitlines()[0]
    commit = subprocess.run(["git", "-C", str(clone), "rev-parse", "--short", "HEAD"],
                            capture_output=True, text=True).stdout.strip()
    lib = ctypes.CDLL(str(out))
    lib.search.argtypes = [ctypes.POINTER(Game), ctypes.c_char_p, ctypes.c_void_p]
    lib.search.restype = ctypes.c_uint
    return lib, {"compiler": version, "flags": " ".join(command[1:4]), "commit": commit}


def convertible(puzzle: Puzzle) -> bool:
    """The C model: a 16x16 board, four single robots, a coloured goal."""
    return (puzzle.rows == puzzle.cols == SIDE and len(puzzle.start) == 4
            and all(len(squares) == 1 for squares in puzzle.start) and puzzle.goal_colour is not None)


def to_game(puzzle: Puzzle) -> tuple[Game, list[int]]:
    """The C solver's game for `puzzle`, and the pbem colour index of each C robot."""
    game = Game()
    for row in range(1, SIDE + 1):
        for col in range(1, SIDE + 1):
            walls = (bit for side, bit in BIT.items() if puzzle.blocked(Square(row, col), side))
            game.grid[(row - 1) * SIDE + col - 1] = sum(walls)
    finisher = puzzle.finishers()[0]
    order = [finisher] + [i for i in range(4) if i != finisher]
    for k, colour in enumerate(order):
        square = puzzle.start[colour][0]
        cell = (square.row - 1) * SIDE + square.col - 1
        game.robots[k] = cell
        game.grid[cell] |= ROBOT
    game.token = (puzzle.goal.row - 1) * SIDE + puzzle.goal.col - 1
    return game, order


def solve(lib: ctypes.CDLL, game: Game, order: list[int]) -> tuple[list[tuple[int, Dir]], float]:
    """The C solver's minimal solution (pbem colour, direction) for a game from `to_game` (left
    untouched: the search runs on a copy), and the CPU seconds its search took."""
    game = Game.from_buffer_copy(game)
    path = ctypes.create_string_buffer(64)
    started = time.thread_time()  # CPU time of this thread: the machine's other jobs sway it least
    length = lib.search(ctypes.byref(game), path, None)
    seconds = time.thread_time() - started
    return [(order[(b >> 4) & 15], DIRECTION[b & 15]) for b in path.raw[:length]], seconds
