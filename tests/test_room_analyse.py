"""`pbem room analyse` (issue #16): bundled rooms are passable by bots; hostile rooms get "not passable" and why."""
from __future__ import annotations

import json

from cli_process import run_pbem

WALLED_GATE = """name: Walled Gate
size: 5x5
starts: [r5c2, r5c4]
elements:
  - {type: gate, at: r1c3, open: true}
  - {type: wall, at: r1c3, side: W}
  - {type: wall, at: r1c3, side: E}
  - {type: wall, at: r1c3, side: S}
"""
# Each start is on a belt running into a pit, with a pit ahead (north) and the fence behind: any stage played
# there ends in a pit, and no card leads anywhere else.
BELT_INTO_PIT = """name: Belt Into Pit
size: 5x5
starts: [r5c1, r5c5]
elements:
  - {type: gate, at: r1c3, open: true}
  - {type: conveyor, at: r5c1, dir: E}
  - {type: pit, at: r5c2}
  - {type: pit, at: r4c1}
  - {type: conveyor, at: r5c5, dir: W}
  - {type: pit, at: r5c4}
  - {type: pit, at: r4c5}
"""


def test_the_first_bundled_room_is_passable_with_figures_and_a_heat_map(tmp_path):
    result = run_pbem("room", "analyse", "rooms/geeko/1-intake.yaml", "--seeds", "2", "--json",
                      "--out", tmp_path / "maps")
    assert result.returncode == 0, result.stderr
    figures = json.loads(result.stdout)["rooms/geeko/1-intake.yaml"]
    assert figures["passable"] and figures["passed"] == 2 and figures["mode"] == "geeko"
    assert figures["median_turns"] >= 1 and figures["worst_turns"] >= figures["median_turns"]
    assert (tmp_path / "maps" / "1-intake.png").read_bytes()[:8] == b"\x89PNG\r\n\x1a\n"


def test_hostile_rooms_are_not_passable_with_the_reason_and_no_hang(tmp_path):
    (tmp_path / "walled.yaml").write_text(WALLED_GATE)
    (tmp_path / "belt.yaml").write_text(BELT_INTO_PIT)
    result = run_pbem("room", "analyse", tmp_path / "walled.yaml", tmp_path / "belt.yaml", "--seeds", "1",
                      "--turns", "4", "--json")
    assert result.returncode == 1
    figures = json.loads(result.stdout)
    walled, belt = figures[str(tmp_path / "walled.yaml")], figures[str(tmp_path / "belt.yaml")]
    assert walled["verdict"].startswith("not passable: no gate can be reached from the start squares r5c2, r5c4")
    assert belt["verdict"].startswith("not passable: no gate can be reached from the start squares r5c1, r5c5")
    assert all(d["cause"] == "pit" and d["at"] in ("r5c2", "r5c4", "r4c1", "r4c5") for d in belt["deaths"])


def test_the_text_output_names_the_verdict():
    result = run_pbem("room", "analyse", "rooms/entry-fee/pinwheel.yaml", "--seeds", "1")
    assert result.returncode == 0, result.stderr
    assert result.stdout.startswith("rooms/entry-fee/pinwheel.yaml (Pinwheel, botwars): passable")
