"""A site build in flat memory outside Python's heap too (issue #27): the C heap Pillow draws in neither grows with
each new room a long campaign enters nor holds a room's large canvas whole (#36).

Measured in a child process (its resident size is the build's alone): the six turns of the Geek-o sample, each as if
played in a room not drawn before (the room-layer cache emptied after every turn), the way a 1,000-turn campaign
entering its rooms one after another grew by 10-20 MB a room (162 MB peak at 1,000 turns). The modules that draw are
loaded before the start is measured (a site loads them when it first draws)."""
from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

import pytest

pytestmark = pytest.mark.skipif(not Path("/proc/self/statm").exists(), reason="reads /proc/self/statm (Linux)")

BUILD = """
import json, os, sys
from pathlib import Path
from pbem.render import animation, board, legend, static  # loaded where first drawn: here before the start
from pbem.gm.history import game_history
from pbem.render.site import write_site
from pbem.store.games import Store, get_game, load_setup
from pbem.store.due import session_rows

def resident():
    with open("/proc/self/statm") as statm:
        return int(statm.read().split()[1]) * os.sysconf("SC_PAGE_SIZE")

def peak():  # this process's own (getrusage's ru_maxrss keeps the parent's from before the exec)
    with open("/proc/self/status") as status:
        return next(int(line.split()[1]) * 1024 for line in status if line.startswith("VmHWM:"))

store = Store(f"sqlite:///{sys.argv[1]}")
after_turns = []

def new_room():
    static._CACHE.clear()
    after_turns.append(resident())

with store.session() as session:
    history = game_history(session_rows(session), "geeko-demo")
    canvas = max(w * h * static.scale_of(room).k ** 2 * 4 for room in load_setup(get_game(session, "geeko-demo").setup).rooms
                 for w, h in [static.image_size(room)])
    before = resident()
    write_site(Path(sys.argv[2]), [history], progress=new_room)
print(json.dumps({"before": before, "after_turns": after_turns, "canvas": canvas,
                  "peak": peak()}))
"""


def test_each_turn_in_a_new_room_leaves_memory_flat_and_a_room_is_drawn_on_one_canvas_at_a_time(tmp_path,
                                                                                                   geeko_campaign):
    done = subprocess.run([sys.executable, "-c", BUILD, str(geeko_campaign), str(tmp_path / "site")],
                          cwd=tmp_path, capture_output=True, text=True, check=True,
                          env={**os.environ, "PYTHONPATH": str(Path(__file__).resolve().parent.parent)})  # this tree
    figures = json.loads(done.stdout)
    mb = 2 ** 20
    after = figures["after_turns"]
    assert len(after) == 6
    # Flat: after the first turn, no turn keeps more than a few MB (before: +12 MB by the fourth turn, the free
    # pages of the rooms drawn before kept by the C library; now given back after each turn).
    assert max(after) - after[0] < 6 * mb, [round(a / mb, 1) for a in after]
    # A 12x12 room's canvas drawn 4x larger is ~25 MB, and Pillow's downscaling copied it (premultiplied alpha): the
    # peak was 2.0 canvases above the start (47 MB; 2.6 before #27). Now a room is drawn and scaled a strip of rows
    # at a time (#36), and what is left is a turn's own pictures and animation: 1.1 canvases (26 MB).
    assert figures["peak"] - figures["before"] < 1.4 * figures["canvas"], (figures["peak"] - figures["before"]) / mb
