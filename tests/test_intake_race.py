"""Mail accepted while the turn is processed (#28, RULES B4.7), from separate processes on SQLite and PostgreSQL:
`pbem mail fetch` (and `pbem run`) of 40 honest order mails against `pbem turn process`. Every message acknowledged
as accepted has its orders in the turn that was processed; every other one was refused as late, and told so.

Each side is one long-lived process running the real CLI once per trial (as cron would start it), so a trial costs
no interpreter start and the two commands meet at every point of each other's work across the trials."""
from __future__ import annotations

import json
import mailbox
import os
import random
import subprocess
import sys
from collections import Counter
from dataclasses import dataclass
from pathlib import Path
from typing import Callable

import pytest
from mail_fixtures import new_campaign, order_mail
from sqlmodel import Session, create_engine, select

from pbem.store.mail import MailOutgoing, MailReceived
from pbem.store.tables import OrderVersion, Player, Turn

ROOT = Path(__file__).resolve().parent.parent
NOW = "2026-01-01T12:00Z"
MAILS = 40
TIMINGS = ("race", "before", "during", "after")
RACES = 60  # the slow suite's races of mail against processing, per backend and command
TIMED = 10  # the slow suite's fetches timed before, during and after processing, per backend and timing (#37)

SIDE = """
import json, os, sys, time
from pathlib import Path
from typer.testing import CliRunner
from pbem.cli import app
for trial in json.loads(Path(sys.argv[1]).read_text()):
    go = Path(trial["go"])
    while not go.exists():
        time.sleep(0.0005)
    time.sleep(trial["pause"])
    os.chdir(trial["cwd"])
    result = CliRunner().invoke(app, trial["args"])
    if trial.get("done"):
        Path(trial["done"]).touch()  # the other side may be waiting for this side to finish
    print(json.dumps([result.exit_code, result.output, repr(result.exception)]), flush=True)
"""


def prepare(folder: Path, url: str, hands: dict[str, list[str]], scheduled: bool) -> None:
    """MAILS order mails, alice's and bob's in turn, each a new version of that player's orders."""
    inbox = mailbox.Maildir(str(folder / "inbox"), create=True)
    for number in range(MAILS):
        player = ("alice", "bob")[number % 2]
        inbox.add(order_mail(player, hands[player], f"<race{number}@{player}>"))
    if scheduled:
        from cli_process import run_pbem

        assert run_pbem("--db", url, "game", "set", "halls", "--deadline", "5d", cwd=folder).returncode == 0


def side(folder: Path, trials: list[dict]) -> subprocess.Popen:
    plan = folder / f"plan-{len(list(folder.glob('plan-*')))}.json"
    plan.write_text(json.dumps(trials))
    environment = {**os.environ, "PYTHONPATH": f"{ROOT}{os.pathsep}{ROOT / 'tests'}", "PBEM_NOW": NOW}
    for name in ("PBEM_DB", "PBEM_MAIL_CONFIG"):
        environment.pop(name, None)
    return subprocess.Popen([sys.executable, "-c", SIDE, str(plan)], stdout=subprocess.PIPE, text=True,
                            env=environment)


def outcome(url: str) -> dict:
    """What the database holds after a trial, and the checks that must hold."""
    engine = create_engine(url)
    with Session(engine) as session:
        received = session.exec(select(MailReceived)).all()
        names = {p.id: p.name for p in session.exec(select(Player)).all()}
        stored = Counter(names[v.player_id] for v in session.exec(select(OrderVersion)).all() if v.turn == 1)
        used = json.loads(session.exec(select(Turn).where(Turn.number == 1)).one().orders)
        acks = session.exec(select(MailOutgoing).where(MailOutgoing.purpose == "ack")).all()
    engine.dispose()
    accepted = Counter(r.player for r in received if r.outcome == "accepted")
    refused = [json.loads(r.detail) for r in received if r.outcome != "accepted"]
    assert len(received) == MAILS and len(acks) == MAILS, (len(received), len(acks))
    assert accepted == stored, (accepted, stored)  # an acknowledged order is a stored one, and the other way round
    assert used == {p: stored[p] or None for p in ("alice", "bob")}, (used, stored)  # ... and the turn used it
    assert all(len(reasons) == 1 and "late: turn 1 of halls was processed" in reasons[0] for reasons in refused), \
        refused
    late_acks = [a for a in acks if b"late: turn 1 of halls was processed" in a.data.replace(b"=\n", b"")]
    assert len(late_acks) == len(refused)  # every late one is told so
    return {"accepted": sum(accepted.values()), "late": len(refused)}


@dataclass(frozen=True)
class RaceGame:
    """What a race plays on: `make(folder, url, command)` sets the game up in a trial's folder with its inbox (url
    None: SQLite there) and gives its URL; `reads[command]` is the reading side's command, `process` the other's;
    `outcome(url)` checks what the database holds after a trial and says what it was."""
    make: Callable[[Path, str | None, str], str]
    reads: dict[str, list[str]]
    process: list[str]
    outcome: Callable[[str], dict]


def _halls(folder: Path, url: str | None, command: str) -> str:
    url, hands = new_campaign(folder, url)
    prepare(folder, url, hands, scheduled=command == "run")
    return url


HALLS = RaceGame(_halls, {"fetch": ["mail", "fetch", "--maildir", "inbox"],
                          "run": ["run", "--maildir", "inbox", "--out", "reports"]},
                 ["turn", "process", "halls", "--out", "reports"], outcome)


def race(tmp_path: Path, given: list[str | None], command: str, timing: str = "race",
         game: RaceGame = HALLS) -> list[dict]:
    """One trial per database (a PostgreSQL URL, or None: a SQLite file in the trial's folder): `command` (the
    game's reading side: fetch, run, …) against its processing side. Timing "race": the process side starts at a
    random moment of the other's work; "before": the fetch ends just before processing begins (within 50 ms);
    "during": the fetch starts up to half a second after processing did; "after": the fetch starts just after
    processing ended (within 50 ms)."""
    chance = random.Random(len(given) * 7 + (command == "run") + 100 * TIMINGS.index(timing))
    urls, fetches, processes = [], [], []
    for number, url in enumerate(given):
        folder = tmp_path / f"trial{number}"
        folder.mkdir()
        url = game.make(folder, url, command)
        urls.append(url)
        go, fetched, processed = (str(folder / name) for name in ("go", "fetched", "processed"))
        fetch_go, fetch_pause, process_go, process_pause = {
            "race": (go, 0.0, go, chance.uniform(0.0, 1.5)),
            "before": (go, 0.0, fetched, chance.uniform(0.0, 0.05)),
            "during": (go, chance.uniform(0.0, 0.5), go, 0.0),
            "after": (processed, chance.uniform(0.0, 0.05), go, 0.0)}[timing]
        fetches.append({"go": fetch_go, "pause": fetch_pause, "cwd": str(folder),
                        "args": ["--db", url, *game.reads[command]], "done": fetched})
        processes.append({"go": process_go, "pause": process_pause, "cwd": str(folder), "done": processed,
                          "args": ["--db", url, *game.process]})
    reader, processor = side(tmp_path, fetches), side(tmp_path, processes)
    results = []
    try:
        for number, url in enumerate(urls):
            (tmp_path / f"trial{number}" / "go").touch()
            read = json.loads(reader.stdout.readline())
            processed = json.loads(processor.stdout.readline())
            assert read[0] in (0, 1) and read[2] in ("None", "SystemExit(0)", "SystemExit(1)"), read
            assert processed[0] == 0, processed
            results.append(game.outcome(url))
        assert reader.wait(timeout=60) == 0 and processor.wait(timeout=60) == 0
    finally:  # a failed trial leaves no side waiting for the next one's go file
        for running in (reader, processor):
            running.kill()
            running.wait()
    return results


def databases(request, backend: str, count: int) -> list[str | None]:
    if backend == "postgresql":
        server = request.getfixturevalue("pg_server")
        return [server.new_database() for _ in range(count)]
    return [None] * count


@pytest.mark.parametrize("command", ["fetch", "run"])
def test_mail_accepted_while_a_turn_is_processed_is_in_that_turn_or_refused_as_late(tmp_path, command):
    """The fast variant: a few trials on SQLite."""
    results = race(tmp_path, [None] * 3, command)
    assert all(r["accepted"] + r["late"] == MAILS for r in results)


@pytest.mark.slow
@pytest.mark.parametrize("backend", ["sqlite", "postgresql"])
@pytest.mark.parametrize("command", ["fetch", "run"])
def test_sixty_races_of_mail_against_turn_process(request, tmp_path, backend, command):
    results = race(tmp_path, databases(request, backend, RACES), command)
    split = [r for r in results if r["accepted"] and r["late"]]
    print(f"{backend} {command}: {len(results)} trials, {len(split)} split by the race, "
          f"{sum(r['late'] for r in results)} late of {MAILS * len(results)}")
    assert split, results  # the race really ran through the middle of the mail


@pytest.mark.slow
@pytest.mark.parametrize("backend", ["sqlite", "postgresql"])
@pytest.mark.parametrize("timing", ["before", "during", "after"])
def test_a_fetch_timed_before_during_and_after_processing(request, tmp_path, backend, timing):
    """#37: not only the fetch losing the race. Before: every order in the turn; after: every one late; during:
    each accepted one in the turn, each other one late — what the checks in `outcome` hold in every trial."""
    results = race(tmp_path, databases(request, backend, TIMED), "fetch", timing)
    print(f"{backend} {timing}: {[(r['accepted'], r['late']) for r in results]}")
    if timing == "before":
        assert all(r["accepted"] == MAILS for r in results), results
    if timing == "after":
        assert all(r["late"] == MAILS for r in results), results
