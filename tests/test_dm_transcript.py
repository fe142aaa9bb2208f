"""DM transcripts and Flower Field board files (DESIGN.md): what is read, and errors with file, line and field."""
from __future__ import annotations

from datetime import datetime, timezone

import pytest

from pbem.dm import Action, Config
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


def test_puzzles_stay_raw():
    text = "game: flowerfield\nplayers: [a, b]\npuzzles:\n  - {size: 16, walls: [r1c1 N]}\nactions: []\n"
    assert load_transcript(text).config.puzzles == ({"size": 16, "walls": ["r1c1 N"]},)


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
    ("game: takebacktoe\nplayers: [a, b]\noptions: {dice: loaded}\n", "t.yaml:3: options: option dice must be"),
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
])
def test_flower_board_errors(text, expected):
    with pytest.raises(FormatError) as err:
        parse_flower_board(load_yaml(text, "b.yaml"), "b.yaml")
    assert any(str(p).startswith(expected) for p in err.value.problems), err.value.problems


def test_a_games_own_setup_problems_are_placed_in_the_file(monkeypatch):
    """A game may refuse its set-up with a FormatError whose source names the header part (e.g. a puzzle)."""
    from pbem.dm import base
    from pbem.formats.yamlfile import Problem

    class Picky(base.Game):
        name = "picky"

        def new_state(self, config):
            raise FormatError([Problem("puzzles[0]", None, "walls", "not a wall"),
                               Problem("options", None, "rounds", "must be a whole number")])

        check = apply = is_over = result = render_data = lambda self, *a: None

    monkeypatch.setitem(base.GAMES, "picky", Picky())
    found = problems("game: picky\nplayers: [a, b]\noptions: {rounds: x}\npuzzles:\n  - {walls: 1}\n")
    assert found == ["t.yaml:4: puzzles[0].walls: not a wall", "t.yaml:3: options.rounds: must be a whole number"]
