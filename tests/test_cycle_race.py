"""Orders stored while the turn is being processed, from separate processes (SQLite and PostgreSQL): an order is
acknowledged as accepted only if the turn uses it — never "ACCEPTED … version 2" for a turn processed with 1.
RACES trials per backend (the reliability attack's 120, #37), run by three long-lived processes."""
from __future__ import annotations

import json
import os
import random
import subprocess
import sys
import tempfile
from pathlib import Path

import pytest
from cycle_fixtures import order
from mail_fixtures import new_campaign
from sqlmodel import Session, create_engine, select

from pbem.store.tables import Turn

ROOT = Path(__file__).resolve().parent.parent

SUBMITS = 20  # each submitter's submissions of alice's orders in a trial
RACES = 120  # trials per backend in the slow suite: the reliability attack's volume (#37)

SUBMITTER = f"""
import json, sys, time
from pathlib import Path
from datetime import datetime, timezone
from pbem.store.games import Store
from pbem.gm import cycle
AT = datetime(2026, 1, 1, 12, 0, tzinfo=timezone.utc)
print("ready", flush=True)
for url, go, data, _ in json.loads(Path(sys.argv[1]).read_text()):
    store, data, go = Store(url), Path(data).read_bytes(), Path(go)
    while not go.exists():
        time.sleep(0.001)
    results = []
    for _ in range({SUBMITS}):
        with store.session() as session:
            [result] = cycle.submit(session, "halls", [("alice.yaml", data)], store=True, at=AT)
        results.append({{"accepted": result.accepted, "version": result.version, "problems": result.problems}})
    store.close()
    print(json.dumps(results), flush=True)
"""

PROCESSOR = """
import json, sys, time
from pathlib import Path
from datetime import datetime, timezone
from pbem.store.games import Store
from pbem.gm import cycle
AT = datetime(2026, 1, 1, 12, 0, tzinfo=timezone.utc)
print("ready", flush=True)
for url, go, _, pause in json.loads(Path(sys.argv[1]).read_text()):
    store, go = Store(url), Path(go)
    while not go.exists():
        time.sleep(0.001)
    time.sleep(pause)
    with store.session() as session:
        print(json.dumps(cycle.process(session, "halls", at=AT).orders["alice"]), flush=True)
    store.close()
"""


def dealt_games(request, backend: str, folder: Path, count: int) -> tuple[list[str], bytes]:
    """`count` databases each holding the dealt halls game (tests/mail_fixtures.py: copies of one, dealt alike),
    and alice's orders for it."""
    if backend == "postgresql":
        server = request.getfixturevalue("pg_server")
        template, hands = new_campaign(Path(tempfile.mkdtemp()), server.new_database())
        urls = [server.new_database(copy_of=template) for _ in range(count)]
    else:
        for number in range(count):
            (folder / f"game-{number}").mkdir()
        urls, hands = [new_campaign(folder / f"game-{n}")[0] for n in range(count)], new_campaign(folder)[1]
    hand = hands["alice"]
    return urls, order("halls", 1, "alice", {"Zapper": hand[0:2], "Spanner": hand[2:4]})


def races(folder: Path, urls: list[str], orders: bytes, pauses: list[float]) -> list[tuple[list[dict], int | None]]:
    """One trial per database: two processes submitting alice's orders SUBMITS times each while a third processes
    the turn after `pause`. The three are long-lived, each running every trial in turn (no interpreter start per
    trial), all released together by the trial's `go` file."""
    data = folder / "alice.yaml"
    data.write_bytes(orders)
    plan = [(url, str(folder / f"go-{number}"), str(data), pause) for number, (url, pause) in enumerate(zip(urls,
                                                                                                          pauses))]
    (folder / "plan.json").write_text(json.dumps(plan))
    environment = {**os.environ, "PYTHONPATH": str(ROOT)}
    sides = [subprocess.Popen([sys.executable, "-c", script, str(folder / "plan.json")], stdout=subprocess.PIPE,
                              text=True, env=environment) for script in (SUBMITTER, SUBMITTER, PROCESSOR)]
    assert [side.stdout.readline() for side in sides] == ["ready\n"] * 3  # every side has imported pbem
    found = []
    for _, go, _, _ in plan:
        Path(go).touch()
        results = [result for side in sides[:2] for result in json.loads(side.stdout.readline())]
        found.append((results, json.loads(sides[2].stdout.readline())))
    assert all(side.wait(timeout=120) == 0 for side in sides)
    return found


def check(url: str, results: list[dict], used: int | None) -> None:
    accepted = [r["version"] for r in results if r["accepted"]]
    assert (max(accepted) if accepted else None) == used, (accepted, used)
    late = [r for r in results if not r["accepted"]]
    assert all("the turn now is 2, not 1" in r["problems"][0] for r in late)
    engine = create_engine(url)
    with Session(engine) as session:
        assert json.loads(session.exec(select(Turn)).one().orders)["alice"] == used
    engine.dispose()


@pytest.mark.slow
@pytest.mark.parametrize("backend", ["sqlite", "postgresql"])
def test_an_order_acknowledged_as_accepted_is_one_the_turn_uses(tmp_path, request, backend):
    chance = random.Random(37)
    urls, orders = dealt_games(request, backend, tmp_path, RACES)
    pauses = [chance.choice((0.0, 0.02, 0.05, chance.uniform(0.0, 0.15))) for _ in range(RACES)]
    found = races(tmp_path, urls, orders, pauses)
    for url, (results, used) in zip(urls, found):
        check(url, results, used)
    split = sum(1 for results, _ in found if any(r["accepted"] for r in results) and not all(r["accepted"]
                                                                                              for r in results))
    print(f"{backend}: {RACES} races, {split} split between accepted and late")
