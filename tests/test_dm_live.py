"""`pbem dm new / act / show`: live matches in the database, every submission kept with its verdict."""
from __future__ import annotations

import json

from typer.testing import CliRunner

from pbem.cli import app

RUNNER = CliRunner()


def cli(tmp_path, *args):
    return RUNNER.invoke(app, ["--db", f"sqlite:///{tmp_path / 'dm.db'}", *[str(a) for a in args]])


def test_a_take_back_toe_match_played_live(tmp_path):
    out = tmp_path / "pictures"
    created = cli(tmp_path, "dm", "new", "m1", "--game", "takebacktoe", "--player", "Red", "--player", "Green",
                  "--option", "dice=gm", "--out", out)
    assert created.exit_code == 0, created.output
    assert "B   10  10  10  10" in created.output and (out / "m1-000.png").exists()

    moved = cli(tmp_path, "dm", "act", "m1", "--player", "Red", "--at", "2021-06-01T20:00:00Z",
                "{roll: 4, move: B2-A2}", "--out", out)
    assert moved.exit_code == 0, moved.output
    assert "A    .   4   .   .   home of Red" in moved.output and (out / "m1-001.png").exists()

    cli(tmp_path, "dm", "act", "m1", "--player", "Green", "--at", "2021-06-01T20:00:20Z", "{roll: 3, move: A2-A1}",
        "--out", out)
    refused = cli(tmp_path, "dm", "act", "m1", "--player", "Red", "--at", "2021-06-01T20:00:40Z",
                  "{roll: 3, move: A1-A2}", "--out", out)
    assert refused.exit_code == 1 and "refused: 3 A1-A2 reverses Green's move (D3.2)" in refused.output
    assert not (out / "m1-003.png").exists()
    before = json.loads(cli(tmp_path, "dm", "show", "m1", "--json").output)
    assert before["position"]["rows"][0] == [3, 1, 0, 0]  # the refused move changed nothing

    as_json = cli(tmp_path, "dm", "act", "m1", "--player", "Red", "--at", "2021-06-01T20:00:50Z",
                  "{roll: 2, move: A1-B1}", "--out", out, "--json")
    answer = json.loads(as_json.output)
    assert answer["accepted"] is True and answer["seq"] == 4 and answer["position"]["rows"][0] == [1, 1, 0, 0]
    assert answer["picture"] == str(out / "m1-003.png") and (out / "m1-003.png").exists()

    shown = cli(tmp_path, "dm", "show", "m1", "--json")
    document = json.loads(shown.output)
    assert [(s["seq"], s["accepted"], s["reason"]) for s in document["submissions"]] == [
        (1, True, None), (2, True, None), (3, False, "3 A1-A2 reverses Green's move (D3.2)"), (4, True, None)]
    assert document["submissions"][0]["at"] == "2021-06-01T20:00:00+00:00"


def test_show_transcript_replays_to_the_same_position(tmp_path):
    cli(tmp_path, "dm", "new", "ff", "--game", "flowerfield", "--variant", "grunkle", "--player", "Ann",
        "--player", "Bob", "--out", tmp_path)
    cli(tmp_path, "dm", "act", "ff", "--player", "Ann", "--at", "2026-01-01T10:00:00Z", "plant: [red D5, blue D3]",
        "--out", tmp_path)
    cli(tmp_path, "dm", "act", "ff", "--player", "Bob", "--at", "2026-01-01T10:01:00Z", "{give_up: true}",
        "--out", tmp_path)
    transcript = tmp_path / "ff.yaml"
    transcript.write_text(cli(tmp_path, "dm", "show", "ff", "--transcript").output)
    replayed = json.loads(RUNNER.invoke(app, ["dm", "replay", "--json", str(transcript)]).output)
    assert replayed[0]["lives"] == {"Ann": 3, "Bob": 2} and replayed[0]["errors"] == []


def test_gm_extension_and_late_move(tmp_path):
    cli(tmp_path, "dm", "new", "t", "--game", "takebacktoe", "--player", "Red", "--player", "Green",
        "--option", "dice=gm", "--option", "clock={turn: 60, reserve: 0}", "--out", tmp_path)
    cli(tmp_path, "dm", "act", "t", "--player", "Red", "--at", "2026-01-01T10:00:00Z", "{roll: 1, move: B1-B2}",
        "--out", tmp_path)
    # Green's turn starts at the GM's roll (D5 ruling), 20 minutes later: no reserve is spent while waiting
    rolled = cli(tmp_path, "dm", "act", "t", "--player", "GM", "--at", "2026-01-01T10:20:00Z", "{roll: 1}",
                 "--out", tmp_path)
    assert rolled.exit_code == 0, rolled.output
    extended = cli(tmp_path, "dm", "act", "t", "--player", "GM", "--at", "2026-01-01T10:20:30Z", "extend: 60",
                   "--out", tmp_path)
    assert extended.exit_code == 0, extended.output
    late = cli(tmp_path, "dm", "act", "t", "--player", "Green", "--at", "2026-01-01T10:22:01Z",
               "{move: B3-B4}", "--out", tmp_path)
    # the deadline (the roll at 10:20:00 + 60 s + 60 s extension) passed first: it is recorded, the move is refused
    assert late.exit_code == 1 and "too late: at 2026-01-01 10:22:00 UTC Green runs out of time; Red wins" in late.output
    assert "Red wins: Green ran out of time" in cli(tmp_path, "dm", "show", "t", "--out", tmp_path).output


def test_new_from_a_transcript_and_refusals(tmp_path, repo_root):
    created = cli(tmp_path, "dm", "new", "ex", "--from", repo_root / "turns/dm/takebacktoe-example.yaml",
                  "--out", tmp_path)
    assert created.exit_code == 0 and "Red wins: three equal stacks at home" in created.output
    again = cli(tmp_path, "dm", "new", "ex", "--game", "takebacktoe", "--player", "a", "--player", "b")
    assert again.exit_code == 1 and "exists already" in again.output
    unknown = cli(tmp_path, "dm", "act", "nope", "--player", "a", "{move: B1-A1}")
    assert unknown.exit_code == 1 and "no death match named 'nope'" in unknown.output
    bad_option = cli(tmp_path, "dm", "new", "x", "--game", "takebacktoe", "--player", "a", "--player", "b",
                     "--option", "dice=loaded")
    assert bad_option.exit_code == 1 and "options.dice: must be one of engine, gm" in bad_option.output
    bad_game = cli(tmp_path, "dm", "new", "y", "--game", "chess", "--player", "a", "--player", "b")
    assert bad_game.exit_code == 1 and "unknown game 'chess'" in bad_game.output
    gm_player = cli(tmp_path, "dm", "new", "z", "--game", "takebacktoe", "--player", "GM", "--player", "b")
    assert gm_player.exit_code == 1 and "game master" in gm_player.output
    no_game = cli(tmp_path, "dm", "new", "w", "--player", "a", "--player", "b")
    assert no_game.exit_code == 2 and "give --game" in no_game.output


def test_a_puzzle_match_keeps_its_mazes_in_the_store(tmp_path):
    """The store writes the transcript's maze back as file data and reads it into a Maze for the next action."""
    transcript = tmp_path / "ice.yaml"
    transcript.write_text("game: ice\nplayers: [ann, bob]\noptions: {target: 2}\n"
                          "puzzles:\n  - {map: [S...., ....., ..#.., ....., ....G]}\nactions: []\n")
    assert cli(tmp_path, "dm", "new", "ice1", "--from", transcript, "--out", tmp_path).exit_code == 0
    cli(tmp_path, "dm", "act", "ice1", "--player", "ann", "{claim: 2}", "--out", tmp_path)
    solved = cli(tmp_path, "dm", "act", "ice1", "--player", "ann", "{solution: RD}", "--out", tmp_path)
    assert solved.exit_code == 0, solved.output
    # RD is the first maze's minimum, but bob's minute runs all the same (D2.3 ruling): his equal answer is judged
    answered = cli(tmp_path, "dm", "act", "ice1", "--player", "bob", "{solution: DR}", "--out", tmp_path)
    assert answered.exit_code == 0, answered.output
    shown = json.loads(cli(tmp_path, "dm", "show", "ice1", "--json").output)
    assert shown["position"]["scores"] == [1, 0]
    assert shown["position"]["history"][0] == "round 1: ann's RD stands; bob's DR is not a shorter solution; ann scores"


def test_dm_list_and_status_show_who_must_act_by_when_and_what_the_run_does(tmp_path):
    """An Ice match started at 20:00 with its 10-minute buzz window: `dm list` and `status` name the deadline;
    after it, `status` says the run applies it and `dm tick` does (the round is junked, recorded once)."""
    assert cli(tmp_path, "dm", "new", "i1", "--game", "ice", "--player", "ann", "--player", "bob",
               "--option", "start=2026-12-01T20:00:00Z", "--option", "size=6x6", "--out", tmp_path).exit_code == 0
    listed = json.loads(cli(tmp_path, "dm", "list", "--json").stdout)
    assert listed == [{"match": "i1", "game": "ice", "players": ["ann", "bob"], "actions": 0, "over": False,
                       "winner": None, "waiting": None, "deadline": "2026-12-01T20:10:00+00:00",
                       "deadline_text": "2026-12-01 20:10:00 UTC", "for_gm": None}]
    early = json.loads(cli(tmp_path, "--now", "2026-12-01T20:05Z", "status", "--json").stdout)["matches"]
    assert early[0]["next"] == "at 2026-12-01 20:10:00 UTC: nobody buzzed for maze 1: the round is junked"
    late = json.loads(cli(tmp_path, "--now", "2026-12-01T20:11Z", "status", "--json").stdout)["matches"]
    assert late[0]["next"].startswith("apply the passed deadline")
    ticked = json.loads(cli(tmp_path, "--now", "2026-12-01T20:11Z", "dm", "tick", "--json").stdout)
    assert ticked == [{"match": "i1", "passed": ["2026-12-01 20:10:00 UTC: nobody buzzed for maze 1: the round is "
                                                 "junked"], "mailed": []}]
    assert json.loads(cli(tmp_path, "--now", "2026-12-01T20:11Z", "dm", "tick", "--json").stdout) == []  # once
    assert json.loads(cli(tmp_path, "dm", "list", "--json").stdout)[0]["deadline"] == "2026-12-01T20:20:00+00:00"


def test_dm_new_prints_json(tmp_path):
    made = cli(tmp_path, "dm", "new", "t", "--game", "takebacktoe", "--player", "Red", "--player", "Green",
               "--seed", "2", "--json", "--out", tmp_path)
    document = json.loads(made.stdout)
    assert made.exit_code == 0 and document["match"] == "t" and document["over"] is False
    assert document["position"]["to_move"] == "Red" and 1 <= document["position"]["roll"] <= 6


def test_dm_site_lists_every_action_and_the_whole_missed_duplicates_list(tmp_path, repo_root):
    """The mail shows the first ten missed duplicates; the match's page has all of them, and every action."""
    from pbem.dm.base import replay
    from pbem.formats.transcript import read_transcript

    transcript = read_transcript(repo_root / "turns/dm/flowerfield-classic.yaml")
    missed = replay(transcript.config, list(transcript.actions)).state
    from pbem.dm.flowerfield.game import missed_duplicates

    pairs = missed_duplicates(missed)
    assert len(pairs) > 10
    assert cli(tmp_path, "dm", "new", "ff", "--from", repo_root / "turns/dm/flowerfield-classic.yaml",
               "--out", tmp_path).exit_code == 0
    assert f"... and {len(pairs) - 10} more" in cli(tmp_path, "dm", "show", "ff", "--out", tmp_path).output
    assert cli(tmp_path, "dm", "site", "ff", "--out", tmp_path / "site").exit_code == 0
    page = (tmp_path / "site/ff/index.html").read_text()
    assert (tmp_path / "site/ff/position.png").exists() and 'src="position.png"' in page
    assert page.count("<tr>") == 2 + len(pairs) and page.count("<tr class=") == len(transcript.actions)
    first = pairs[-1]["pair"]
    assert f"<td>{'-'.join(first[0])}</td><td>{'-'.join(first[1])}</td>" in page
