"""Every benchmark runs at HEAD (issue #27: `benchmarks/render.py` had crashed unnoticed): each script with tiny
sizes in its own process, checked for a JSON document. The figures are meaningless at these sizes; that the
scripts still run is the point. Peers (roboprojekt, fogleman's Ricochet) run only where their clones exist."""
from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent
# two 4x4 Gyulbot puzzles: red up then right (2 moves); red right (1 move)
PUZZLES = [{"puzzle": {"size": 4, "robots": {"red": ["r4c1"]}, "goal": "r1c4"}, "optimal": 2},
           {"puzzle": {"size": 4, "robots": {"red": ["r1c1"]}, "goal": "r1c4"}, "optimal": 1}]
PEERS = {"roboprojekt": Path("/tmp/roboprojekt"), "ricochet": Path("/tmp/Ricochet")}

SMOKE = {
    "engine": ["--repeat", "3"],
    "flowers": ["--boards", "2"],
    "ice": ["--smoke"],
    "gyulbot": ["--no-compile", "--data", "{puzzles}", "--deep", "{puzzles}", "--bfs", "3", "--repeat", "1"],
    "mail": ["--messages", "4", "--repeat", "1"],  # a multiple of 4: half carry a wrong secret
    "planner": ["--positions", "1"],
    "render": ["--runs", "1"],
    "replay": ["--turns", "3", "--runs", "1"],
    "site": ["--turns", "2"],
    "cli": ["--repeat", "1"],
    "tick": ["--games", "1", "--repeat", "1"],
    "due_tick": ["--games", "1", "--repeat", "1", "--profile"],
    "due_pilot": ["--rounds", "1", "--repeat", "1"],
    "due_pictures": ["--games", "1", "--repeat", "1"],
    "report_size": ["--turns", "1"],
    "dm_new": ["--repeat", "1"],
    "server": ["--games", "5", "--workers", "1,2", "--hosts"],  # five games: one of each kind at least
    "grow_bank": ["--bank", "{puzzles}", "--generate", "3:2"],
}
PEER_SMOKE = {
    "roboprojekt": ["engine", "--repeat", "2", "--peer", str(PEERS["roboprojekt"])],
    "ricochet": ["gyulbot", "--no-compile", "--data", "{puzzles}", "--repeat", "1",
                 "--sets", str(ROOT / "benchmarks" / "data" / "gyulbot-deep20.jsonl"),
                 "--peer", str(PEERS["ricochet"])],
}


def run(script: str, args: list[str], tmp_path: Path) -> dict:
    puzzles = tmp_path / "puzzles.jsonl"
    puzzles.write_text("".join(json.dumps(record) + "\n" for record in PUZZLES))
    argv = [a.format(puzzles=puzzles) for a in args]
    done = subprocess.run([sys.executable, str(ROOT / "benchmarks" / f"{script}.py"), *argv], cwd=tmp_path,
                          capture_output=True, text=True, timeout=600)
    assert done.returncode == 0, done.stderr[-3000:]
    return json.loads(done.stdout)


def test_every_benchmark_script_has_a_smoke_run():
    helpers = {"ricochet_peer", "first_use", "child_cpu", "server_games"}  # of gyulbot and ice; of the timings
    scripts = {path.stem for path in (ROOT / "benchmarks").glob("*.py")} - helpers
    assert scripts == set(SMOKE)


@pytest.mark.slow
@pytest.mark.parametrize("script", sorted(SMOKE))
def test_benchmark_runs_with_tiny_sizes(script, tmp_path):
    assert run(script, SMOKE[script], tmp_path)


@pytest.mark.slow
@pytest.mark.parametrize("peer", sorted(PEER_SMOKE))
def test_peer_benchmark_runs_with_tiny_sizes(peer, tmp_path):
    if not PEERS[peer].exists():
        pytest.skip(f"no clone at {PEERS[peer]}")
    script, *args = PEER_SMOKE[peer]
    assert run(script, args, tmp_path)
