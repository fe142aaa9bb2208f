"""An installed package registers a game (issue #34): an entry point of the group `pbem.games`, named as its game,
names its `pbem.games.Entry`, and pbem plays it as a shipped one (`dm options`, `dm new`, `dm act`). Nim
(tests/nimgame) is installed here as a throwaway package: a `.dist-info` folder on `sys.path` of a `pbem` process,
the way pip leaves one. A broken entry point, or one that takes a built-in game's name, ends the command with an
error naming the package; the quiet tick never reads the installed packages (a broken one does not stop it)."""
from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

from dm_desk import Desk
from test_dm_gm import gyulbot

ROOT = Path(__file__).resolve().parent.parent
CLASH = "from dataclasses import replace\nimport nimgame\nENTRY = replace(nimgame.ENTRY, name='gyulbot')\n"


def installed(folder: Path, points: str, module: str = "") -> Path:
    """A site folder holding the package nim-by-mail 1.0 whose `pbem.games` entry points are `points` (and, given,
    its own module `clash.py`)."""
    site = folder / "site"
    info = site / "nim_by_mail-1.0.dist-info"
    info.mkdir(parents=True)
    (info / "METADATA").write_text("Metadata-Version: 2.1\nName: nim-by-mail\nVersion: 1.0\n")
    (info / "entry_points.txt").write_text(f"[pbem.games]\n{points}\n")
    if module:
        (site / "clash.py").write_text(module)
    return site


def pbem(site: Path, folder: Path, *args: str, now: str = "2026-12-01T20:00:00Z") -> subprocess.CompletedProcess:
    """`python -m pbem ARGS` with the site folder (and the tests' folder, where nimgame lives) on its path."""
    path = os.pathsep.join(map(str, (ROOT, ROOT / "tests", site)))
    return subprocess.run([sys.executable, "-m", "pbem", "--db", f"sqlite:///{folder / 'pbem.db'}",
                           "--now", now, *args], capture_output=True, text=True, cwd=folder,
                          env={**os.environ, "PYTHONPATH": path}, timeout=300)


def test_an_installed_package_registers_nim_and_pbem_plays_it(tmp_path):
    site = installed(tmp_path, "nim = nimgame:ENTRY")
    options = pbem(site, tmp_path, "dm", "options", "nim")
    assert options.returncode == 0, options.stderr
    assert options.stdout.startswith("heaps") and "clock" in options.stdout, options.stdout
    made = pbem(site, tmp_path, "dm", "new", "m", "--game", "nim", "--player", "ann", "--player", "bob",
                "--option", "heaps=[3, 4, 5]", "--out", str(tmp_path))
    assert made.returncode == 0, made.stderr
    acted = pbem(site, tmp_path, "dm", "act", "m", "{take: 2 from B}", "--player", "ann", "--json")
    assert acted.returncode == 0, acted.stderr
    assert '"accepted": true' in acted.stdout
    refused = pbem(site, tmp_path, "dm", "act", "m", "{take: 9 from A}", "--player", "bob")
    assert refused.returncode == 1 and "heap A holds 3: take 1 to 3, not 9" in refused.stderr + refused.stdout


def test_a_broken_entry_point_ends_the_command_naming_its_package(tmp_path):
    site = installed(tmp_path, "nim = nimgame:MISSING")
    failed = pbem(site, tmp_path, "dm", "options", "nim")
    assert failed.returncode == 1 and "Traceback" not in failed.stderr, failed.stderr
    assert "the installed package nim-by-mail 1.0 (entry point pbem.games: nim = nimgame:MISSING) does not load: " \
           "AttributeError" in failed.stderr


def test_an_installed_game_may_not_take_a_built_in_games_name(tmp_path):
    site = installed(tmp_path, "gyulbot = clash:ENTRY", CLASH)
    failed = pbem(site, tmp_path, "dm", "list")
    assert failed.returncode == 1 and "Traceback" not in failed.stderr, failed.stderr
    assert "the installed package nim-by-mail 1.0 (entry point pbem.games: gyulbot = clash:ENTRY): its name " \
           "'gyulbot' is pbem's built-in game's (Gyulbot)" in failed.stderr


def test_the_quiet_tick_never_reads_the_installed_packages(tmp_path, monkeypatch):
    """With a broken game installed, `pbem run`, `pbem status` and `pbem game list` with nothing due still answer:
    the quiet path tells a match from a campaign without the installed games. (A Gyulbot match opened at 20:00,
    its first window closing at 20:10, RULES D1.4.)"""
    monkeypatch.chdir(tmp_path)
    monkeypatch.delenv("PBEM_MAIL_CONFIG", raising=False)
    desk = Desk(tmp_path)
    gyulbot(desk)
    desk.run("20:00:00")
    site = installed(tmp_path, "nim = nimgame:MISSING")
    ran = pbem(site, tmp_path, "run", "--maildir", str(desk.inbox), "--json", now="2026-12-01T20:05:00Z")
    assert ran.returncode == 0 and '"done": []' in ran.stdout, ran.stderr
    for command in (("status", "--json"), ("game", "list")):
        done = pbem(site, tmp_path, *command, now="2026-12-01T20:05:00Z")
        assert done.returncode == 0 and "g1" in done.stdout, (command, done.stderr)
    assert pbem(site, tmp_path, "dm", "list", now="2026-12-01T20:05:00Z").returncode == 1  # it lists every game
