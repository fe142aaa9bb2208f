"""`pbem dm replay` and `pbem flowers duplicates` (DESIGN.md "DM commands"): output shape and exit codes."""
from __future__ import annotations

import json

from cli_process import under_hash_seeds
from typer.testing import CliRunner

from pbem.cli import app

RUNNER = CliRunner()


def run(*args):
    return RUNNER.invoke(app, [str(a) for a in args])


def test_replay_json_for_each_sample(repo_root):
    files = sorted((repo_root / "turns" / "dm").glob("*.yaml"))
    result = run("dm", "replay", "--json", *files)
    documents = {d["file"].rsplit("/", 1)[-1]: d for d in json.loads(result.output)}
    assert result.exit_code == (1 if any(d["errors"] for d in documents.values()) else 0), result.output
    assert documents["takebacktoe-example.yaml"] == {
        "file": str(repo_root / "turns/dm/takebacktoe-example.yaml"), "over": True, "winner": "Red",
        "scores": {"Red": 10, "Green": 6}, "errors": []}
    genius = documents["flowerfield-genius4.yaml"]
    assert genius["lives"] == {"Ann": 2, "Bob": 2} and genius["over"] is False and "scores" not in genius


def test_replay_lists_illegal_actions_and_exits_1(tmp_path):
    transcript = tmp_path / "t.yaml"
    transcript.write_text("game: takebacktoe\noptions: {dice: gm}\nplayers: [Red, Green]\nactions:\n"
                          "  - {player: Red, roll: 4, move: B2-A2}\n"
                          "  - {player: Green, roll: 3, move: A2-A1}\n"
                          "  - {player: Red, roll: 3, move: A1-A2}\n")
    result = run("dm", "replay", "--json", transcript)
    assert result.exit_code == 1
    (document,) = json.loads(result.output)
    assert document["errors"] == [{"index": 2, "line": 7, "reason": "3 A1-A2 reverses Green's move (D3.2)"}]
    text = run("dm", "replay", transcript)
    assert "action 2 (line 7, refused): 3 A1-A2 reverses Green's move" in text.output


def test_replay_refuses_a_bad_file_with_its_line(tmp_path):
    transcript = tmp_path / "bad.yaml"
    transcript.write_text("game: takebacktoe\nplayers: [Red]\n")
    result = run("dm", "replay", transcript)
    assert result.exit_code == 1
    assert f"{transcript}:2: players: required" in result.output


def test_duplicates_json(repo_root):
    """The seed's example board has 30 fields; sorting them by shape and kinds by hand leaves exactly
    one L pair (the challenged one) and one T pair (the missed one)."""
    board = repo_root / "turns/dm/boards/flowerfield-example-board.yaml"
    result = run("flowers", "duplicates", "--json", board)
    assert result.exit_code == 0, result.output
    assert json.loads(result.output) == [{"file": str(board), "pairs": [
        [["C4", "D3", "D4", "E4"], ["C4", "D4", "D5", "E4"]],
        [["D2", "D3", "E3", "F3"], ["D3", "E3", "E4", "E5"]],
    ]}]


def test_duplicates_text_and_a_bad_board(repo_root, tmp_path):
    bad = tmp_path / "bad.yaml"
    bad.write_text("variant: classic\nboard: [.......]\n")
    board = repo_root / "turns/dm/boards/flowerfield-example-board.yaml"
    result = run("flowers", "duplicates", board, bad)
    assert result.exit_code == 1
    assert "D2-D3-E3-F3 = D3-E3-E4-E5" in result.output
    assert f"{bad}:2: board: needs 7 rows, has 1" in result.output


def test_b13_output_does_not_depend_on_the_hash_seed(repo_root):
    transcripts = [str(p) for p in sorted((repo_root / "turns" / "dm").glob("*.yaml"))]
    board = str(repo_root / "turns/dm/boards/flowerfield-example-board.yaml")
    runs = under_hash_seeds({"0": repo_root, "12345": repo_root}, ["dm", "replay", "--json", *transcripts],
                            ["flowers", "duplicates", "--json", board])
    assert runs["0"] == runs["12345"]
    assert runs["0"][1][0] == 0 and len(json.loads(runs["0"][0][1])) == len(transcripts)
