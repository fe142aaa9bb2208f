"""DM transcripts and Flower Field board files (DESIGN.md): what is read, and errors with file, line and field."""
from __future__ import annotations

from datetime import datetime, timezone

import pytest

from pbem.dm import Action, Config
from pbem.dm.gyulbot.board import Puzzle
from pbem.dm.icemaze import Maze
from pbem.formats.flowerboard import parse_flower_board
from pbem.formats.transcript import dump_transcript, load_transcript
from pbem.formats.yamlfile import FormatError, load_yaml

GOOD = """\
game: takebacktoe
options: {dice: gm}
players: [Red, Green]
seed: 7
actions:
  - {player: Red, at: 2021-06-01T20:00:10Z, roll: 4, move: B2-A2}
  - {player: Green, at: "2021-06-01 20:00:40", roll: 3, move: A2-A1}
  - {player: GM, extend: 60}
"""


def problems(text: str) -> list[str]:
    with pytest.raises(FormatError) as err:
        load_transcript(text, "t.yaml")
    return [str(p) for p in err.value.problems]


def test_a_transcript_becomes_config_and_actions():
    transcript = load_transcript(GOOD, "t.yaml")
    assert transcript.config == Config("takebacktoe", ("Red", "Green"), None, {"dice": "gm"}, 7, ())
    first, second, third = transcript.actions
    assert first == Action("Red", {"roll": 4, "move": "B2-A2"}, datetime(2021, 6, 1, 20, 0, 10, tzinfo=timezone.utc))
    assert second.at == datetime(2021, 6, 1, 20, 0, 40, tzinfo=timezone.utc)  # no zone given: UTC
    assert third == Action("GM", {"extend": 60}, None)
    assert transcript.lines == (6, 7, 8)
    assert type(first.payload) is dict


def test_puzzles_are_read_into_the_games_own_objects():
    """The dm layer never parses files: the transcript reader hands the game a Puzzle / Maze."""
    gyulbot = "game: gyulbot\nplayers: [a, b]\npuzzles:\n  - {size: 4, robots: {red: [r4c1]}, goal: r1c4}\n"
    [puzzle] = load_transcript(gyulbot).config.puzzles
    assert isinstance(puzzle, Puzzle) and (puzzle.rows, puzzle.cols, str(puzzle.goal)) == (4, 4, "r1c4")
    ice = "game: ice\nplayers: [a, b]\npuzzles:\n  - {map: [S...., ....., ..#.., ....., ....G]}\n"
    [maze] = load_transcript(ice).config.puzzles
    assert isinstance(maze, Maze) and maze.to_rows()[2] == "..#.."


def test_a_game_without_puzzles_refuses_them():
    text = "game: flowerfield\nplayers: [a, b]\npuzzles:\n  - {size: 16, walls: [r1c1 N]}\nactions: []\n"
    assert problems(text) == ["t.yaml:3: puzzles: flowerfield takes no puzzles"]


def test_a_puzzle_transcript_dumps_and_reads_back():
    text = "game: ice\nplayers: [a, b]\npuzzles:\n  - {map: [S...., ....., ..#.., ....., ....G]}\nactions: []\n"
    transcript = load_transcript(text)
    assert load_transcript(dump_transcript(transcript.config, [])).config == transcript.config


def test_dump_reads_back_the_same():
    transcript = load_transcript(GOOD, "t.yaml")
    again = load_transcript(dump_transcript(transcript.config, list(transcript.actions)))
    assert again.config == transcript.config and again.actions == transcript.actions


@pytest.mark.parametrize("text, expected", [
    ("game: chess\nplayers: [a, b]\n", "t.yaml:1: game: unknown game 'chess'"),
    ("players: [a, b]\n", "t.yaml:1: game: required"),
    ("game: takebacktoe\nplayers: [a]\n", "t.yaml:2: players: required: a list of at least two"),
    ("game: takebacktoe\nplayers: [a, a]\n", "t.yaml:2: players: player names must differ"),
    ("game: takebacktoe\nplayers: [a, b]\nseed: x\n", "t.yaml:3: seed: must be a whole number"),
    ("game: takebacktoe\nplayers: [a, b]\ncolour: red\n", "t.yaml:3: colour: unknown field"),
    ("game: takebacktoe\nplayers: [a, b]\nactions:\n  - {player: c, roll: 1}\n",
     "t.yaml:4: actions[0].player: 'c' is not a player"),
    ("game: takebacktoe\nplayers: [a, b]\nactions:\n  - {player: a, at: yesterday, roll: 1}\n",
     "t.yaml:4: actions[0].at: not a time stamp"),
    ("game: takebacktoe\nplayers: [a, b]\nactions:\n  - {player: a, at: 2021-06-01, roll: 1}\n",
     "t.yaml:4: actions[0].at: a time stamp needs a time of day"),
    ("game: takebacktoe\nplayers: [a, b]\nactions:\n  - {player: a}\n",
     "t.yaml:4: actions[0]: the action says nothing to do"),
    ("game: takebacktoe\nplayers: [a, b]\noptions: {dice: loaded}\n", "t.yaml:3: options.dice: must be one of engine, gm"),
    ("game: flowerfield\nvariant: daisy\nplayers: [a, b]\n", "t.yaml:2: variant: unknown Flower Field variant"),
])
def test_errors_name_file_line_and_field(text, expected):
    assert any(p.startswith(expected) for p in problems(text)), problems(text)


def test_every_problem_is_reported_at_once():
    assert len(problems("game: chess\nplayers: [a]\nseed: x\n")) == 3


BOARD = """\
variant: genius4
board:
  - "......."
  - ".R....."
  - ".R.S..."
  - ".TTRT.."
  - "..TTS.."
  - "..S...."
  - "......."
"""


def test_a_flower_board_file():
    board = parse_flower_board(load_yaml(BOARD, "b.yaml"), "b.yaml")
    assert board.variant.name == "genius4"
    assert board.board[7:14] == ".R....." and len(board.board) == 49


def test_a_board_may_be_a_block_with_spaced_cells():
    text = "variant: classic\nboard: |\n" + "".join("  . . . . . . .\n" if r != 3 else "  . . . P . . .\n"
                                                    for r in range(7))
    assert parse_flower_board(load_yaml(text, "b.yaml"), "b.yaml").board[24] == "P"


@pytest.mark.parametrize("text, expected", [
    (BOARD.replace(".R.S...", ".R.X..."), "b.yaml:5: board row C: cell 4: 'X' is not '.' or one of R, S, T"),
    (BOARD.replace(".R.S...", ".R.S.."), "b.yaml:5: board row C: needs 7 cells, has 6"),
    (BOARD.replace('  - "......."\n', "", 1), "b.yaml:2: board: needs 7 rows, has 6"),
    (BOARD.replace("genius4", "daisy"), "b.yaml:1: variant: unknown Flower Field variant"),
    (BOARD.replace("genius4", "[genius4]"), "b.yaml:1: variant: unknown Flower Field variant ['genius4']"),
])
def test_flower_board_errors(text, expected):
    with pytest.raises(FormatError) as err:
        parse_flower_board(load_yaml(text, "b.yaml"), "b.yaml")
    assert any(str(p).startswith(expected) for p in err.value.problems), err.value.problems


def test_a_games_own_setup_problems_are_placed_in_the_file(monkeypatch):
    """A game refuses its set-up with a SetupError of (field, message); each gets its line in the file."""
    from pbem.dm import base

    class Picky(base.Game):
        name = "picky"

        def new_state(self, config):
            raise base.SetupError([("options.rounds", "must be a whole number"), ("variant", "no such variant")])

        check = apply = is_over = result = render_data = lambda self, *a: None

    monkeypatch.setitem(base.GAMES, "picky", Picky())
    found = problems("game: picky\nplayers: [a, b]\nvariant: x\noptions:\n  turns: 3\n  rounds: x\n")
    assert found == ["t.yaml:6: options.rounds: must be a whole number", "t.yaml:3: variant: no such variant"]


def test_a_bad_puzzle_is_placed_in_the_file():
    found = problems("game: gyulbot\nplayers: [a, b]\npuzzles:\n  - {size: 4, walls: [x], robots: {red: [r1c1]},"
                     " goal: r1c4}\n")
    assert found == ["t.yaml:4: puzzles[0].walls[0]: 'x' is not 'r#c# SIDE' (e.g. 'r3c4 W')"]


@pytest.mark.parametrize("text, expected", [
    ("game: takebacktoe\nplayers: [a, b]\noptions: {bogus: 1, dice: x}\n",
     ["t.yaml:3: options.bogus: unknown option (known: dice, both_win, turns, clock, start)",
      "t.yaml:3: options.dice: must be one of engine, gm, not 'x'"]),
    ("game: flowerfield\nvariant: daisy\nplayers: [a, b]\noptions:\n  lives: 0\n  adjacent: 1\n",
     ["t.yaml:2: variant: unknown Flower Field variant 'daisy'; known: classic, genius4, grunkle, pan, primary",
      "t.yaml:5: options.lives: must be a whole number of at least 1, not 0",
      "t.yaml:6: options.adjacent: must be one of True, False, not 1"]),
    ("game: takebacktoe\nvariant: classic\nplayers: [a, b]\n",
     ["t.yaml:2: variant: Take-Back-Toe has no variants, not 'classic'"]),
    ("game: gyulbot\nplayers: [a, b]\nvariant: fast\n", ["t.yaml:3: variant: Gyulbot has no variants, not 'fast'"]),
    ("game: ice\nvariant: v\nplayers: [a, b]\n", ["t.yaml:2: variant: The Ice maze has no variants, not 'v'"]),
])
def test_a_games_set_up_lists_every_problem(text, expected):
    assert problems(text) == expected


def test_variant_and_options_are_checked_when_other_header_fields_are_bad():
    found = problems("game: takebacktoe\nplayers: [a]\nseed: x\noptions:\n  dice: x\n  turns: 0\n")
    assert found == [
        "t.yaml:2: players: required: a list of at least two player names, in turn order",
        "t.yaml:3: seed: must be a whole number",
        "t.yaml:5: options.dice: must be one of engine, gm, not 'x'",
        "t.yaml:6: options.turns: must be a whole number of at least 1, not 0",
    ]
