"""Orders stored while the turn is being processed, from separate processes (SQLite and PostgreSQL): an order is
acknowledged as accepted only if the turn uses it — never "ACCEPTED … version 2" for a turn processed with 1."""
from __future__ import annotations

import json
import os
import subprocess
import sys
import tempfile
import time
from pathlib import Path

import pytest
from cycle_fixtures import order
from mail_fixtures import new_campaign
from sqlmodel import Session, create_engine, select

from pbem.store.tables import Turn

ROOT = Path(__file__).resolve().parent.parent

SUBMITTER = """
import json, sys, time
from pathlib import Path
from datetime import datetime, timezone
from pbem.store.games import Store
from pbem.gm import cycle
AT = datetime(2026, 1, 1, 12, 0, tzinfo=timezone.utc)
url, go, data = sys.argv[1], Path(sys.argv[2]), Path(sys.argv[3]).read_bytes()
store = Store(url)
while not go.exists():
    time.sleep(0.001)
for _ in range(40):
    with store.session() as session:
        [result] = cycle.submit(session, "halls", [("alice.yaml", data)], store=True, at=AT)
    print(json.dumps({"accepted": result.accepted, "version": result.version, "problems": result.problems}),
          flush=True)
store.close()
"""

PROCESSOR = """
import sys, time
from pathlib import Path
from datetime import datetime, timezone
from pbem.store.games import Store
from pbem.gm import cycle
AT = datetime(2026, 1, 1, 12, 0, tzinfo=timezone.utc)
url, go, pause = sys.argv[1], Path(sys.argv[2]), float(sys.argv[3])
store = Store(url)
while not go.exists():
    time.sleep(0.001)
time.sleep(pause)
with store.session() as session:
    print(cycle.process(session, "halls", at=AT).orders["alice"], flush=True)
store.close()
"""


def dealt_game(url: str) -> bytes:
    """alice's orders for the dealt halls game (tests/mail_fixtures.py) at `url`."""
    _, hands = new_campaign(Path(tempfile.mkdtemp()), url)
    hand = hands["alice"]
    return order("halls", 1, "alice", {"Zapper": hand[0:2], "Spanner": hand[2:4]})


def race(url: str, folder: Path, pause: float) -> tuple[list[dict], int]:
    (folder / "alice.yaml").write_bytes(dealt_game(url))
    go = folder / "go"
    environment = {**os.environ, "PYTHONPATH": str(ROOT)}
    submitters = [subprocess.Popen([sys.executable, "-c", SUBMITTER, url, str(go), str(folder / "alice.yaml")],
                                   stdout=subprocess.PIPE, text=True, env=environment) for _ in range(2)]
    processor = subprocess.Popen([sys.executable, "-c", PROCESSOR, url, str(go), str(pause)],
                                 stdout=subprocess.PIPE, text=True, env=environment)
    time.sleep(1.5)  # every process has imported pbem and is waiting
    go.touch()
    results = [json.loads(line) for p in submitters for line in p.communicate(timeout=120)[0].splitlines()]
    used = json.loads(processor.communicate(timeout=120)[0].strip().replace("None", "null"))
    assert all(p.returncode == 0 for p in (*submitters, processor))
    return results, used


@pytest.mark.slow
@pytest.mark.parametrize("backend", ["sqlite", "postgresql"])
def test_an_order_acknowledged_as_accepted_is_one_the_turn_uses(tmp_path, request, backend):
    for trial, pause in enumerate((0.0, 0.02, 0.05)):
        folder = tmp_path / f"trial{trial}"
        folder.mkdir()
        url = request.getfixturevalue("pg_server").new_database() if backend == "postgresql" \
            else f"sqlite:///{folder / 'pbem.db'}"
        results, used = race(url, folder, pause)
        accepted = [r["version"] for r in results if r["accepted"]]
        assert (max(accepted) if accepted else None) == used, (accepted, used)
        late = [r for r in results if not r["accepted"]]
        assert all("the turn now is 2, not 1" in r["problems"][0] for r in late)
        with Session(create_engine(url)) as session:
            assert json.loads(session.exec(select(Turn)).one().orders)["alice"] == used
