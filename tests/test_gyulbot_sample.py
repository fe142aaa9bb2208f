"""The bundled Gyulbot sample match replays to the result its notes work out by hand (RULES D1.4, D5)."""
from typer.testing import CliRunner

from pbem.cli import app
from pbem.dm.base import replay
from pbem.dm.gyulbot.solver import solve
from pbem.formats.gyulbot import read_puzzle
from pbem.formats.transcript import read_transcript


def test_sample_match(repo_root):
    transcript = read_transcript(repo_root / "turns/dm/gyulbot-sample.yaml")
    run = replay(transcript.config, list(transcript.actions))
    assert run.errors == []
    assert run.result.over and run.result.winner == "bob" and run.result.scores == {"ann": 1, "bob": 1}
    assert [line.split(":")[0] for line in run.state.log] == ["round 1", "round 2", "round 2", "round 3", "tied 1-1"]
    assert run.state.log[1].startswith("round 2: ann's 5 moves fail; another may follow until the deadline")
    assert run.state.log[3] == "round 3: no claim in time; no point"
    assert run.state.log[4] == "tied 1-1: bob wins as the designated opponent"  # D1.4 tiebreak: opponent


def test_sample_puzzle_has_its_proven_minimum(repo_root):
    assert len(solve(read_puzzle(repo_root / "turns/dm/puzzles/gyulbot-8x8-min5.yaml"), 5)) == 5


def test_room_check_tells_death_match_puzzles_from_rooms(repo_root):
    files = [repo_root / "rooms/ice/ice-8x8-min6.yaml", repo_root / "turns/dm/puzzles/gyulbot-8x8-min5.yaml",
             repo_root / "turns/dm/boards/flowerfield-example-board.yaml", repo_root / "rooms/geeko/1-intake.yaml"]
    result = CliRunner().invoke(app, ["room", "check", *map(str, files)])
    assert result.exit_code == 0, result.output
    assert result.output.splitlines() == [
        f"OK {files[0]} (Ice maze, not a room)", f"OK {files[1]} (Gyulbot puzzle, not a room)",
        f"OK {files[2]} (Flower Field board, not a room)", f"OK {files[3]}"]
