"""The bundled sample match replays to the result its comments describe (RULES D2.3)."""
from pbem.dm.base import replay
from pbem.dm.icemaze import solve
from pbem.formats.icemaze import read_maze_file
from pbem.formats.transcript import read_transcript


def test_sample_transcript(repo_root):
    transcript = read_transcript(repo_root / "turns/dm/ice-sample.yaml")
    run = replay(transcript.config, list(transcript.actions))
    # bob's minimal 11 stands when ann's minute ends at 12:14:40 (D2.3 ruling); her skip at 12:15:00 is refused:
    # she trails 0-2
    assert run.errors[0] == (5, "too late: at 2026-11-22 12:14:40 UTC no shorter answer from ann: bob scores. "
                                "Now: only the leader may skip a maze (ann 0 - bob 2)")
    # ann's 15 orders come 90 s after her buzz: the minute passed, bob scored, and the late solution is refused
    assert [i for i, _ in run.errors] == [5, 8] and run.errors[1][1].startswith(
        "too late: at 2026-11-22 12:21:00 UTC ann did not present 15 orders: bob scores.")
    assert run.result.over and run.result.winner == "bob"
    assert run.result.scores == {"ann": 0, "bob": 3}
    assert run.state.rounds == 4  # maze 4 was skipped, not played
    assert run.state.history[1] == "round 2: maze 2: nobody buzzed, round junked"
    assert run.state.history[2] == "round 3: bob's LULDLDRDLUR stands; no answer in time; bob scores"


def test_sample_mazes_have_the_minimum_in_their_name(repo_root):
    for path in sorted((repo_root / "rooms/ice").glob("*.yaml")):
        expected = int(path.stem.rsplit("min", 1)[1])
        assert solve(read_maze_file(path)).moves == expected, path.name
