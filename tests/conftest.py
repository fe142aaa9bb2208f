"""Shared test fixtures."""
from __future__ import annotations

import atexit
import os
import shutil
import sys
import tempfile
from pathlib import Path

import nimgame
import pytest
import typer.testing

from pbem import games
from pbem.cli.lazy import click_command

ROOT = Path(__file__).resolve().parent.parent
SHARED = ROOT.parent / "shared"


def _in_memory(folder: str = "/dev/shm", room: int = 1 << 30) -> bool:
    """Whether temporary files can go to `folder`, a writable file system with `room` bytes free (Linux's
    memory-backed /dev/shm; a container may give it only 64 MB)."""
    try:
        stats = os.statvfs(folder)
    except OSError:
        return False
    return os.access(folder, os.W_OK) and stats.f_bavail * stats.f_frsize >= room


# SQLite syncs the disk at every commit (~18 ms on the 2-core VM, 0.1 ms in memory) and the tests commit very
# often: their temporary folders (tmp_path, and those of the commands and servers they start) go to memory,
# unless TMPDIR says where they go.
if "TMPDIR" not in os.environ and _in_memory():
    os.environ["TMPDIR"] = tempfile.tempdir = "/dev/shm"

# Commands keep pictures between runs (pbem.cli.shelf): in the suite's own folder, never the user's cache.
os.environ["PBEM_CACHE_DIR"] = tempfile.mkdtemp(prefix="pbem-test-cache-")
atexit.register(shutil.rmtree, os.environ["PBEM_CACHE_DIR"], True)

# Bytecode is kept even where the environment asks for none (PYTHONDONTWRITEBYTECODE): without it each xdist
# worker rewrites the asserts of every test module again and each `python -m pbem` a test starts compiles pbem.
sys.dont_write_bytecode = False
os.environ.pop("PYTHONDONTWRITEBYTECODE", None)

# The games that live only in the tests, each one folder here and one line: registered for the whole session, as
# an installed game would be, so every test over the registry (tests/test_dm_conformance.py,
# tests/test_conformance_workflow.py) plays them too.
TEST_GAMES = (nimgame.ENTRY,)
for _game in TEST_GAMES:
    games.register(_game)

# typer's CliRunner builds the command tree anew on every invoke; the command line's own cache builds it once
# per set of commands, as `main()` does for tests/cli_process.py.
typer.testing._get_command = click_command


@pytest.fixture
def repo_root() -> Path:
    return ROOT


@pytest.fixture(scope="session")
def pg_server():
    """A throwaway PostgreSQL server (tests/postgres_server.py), one per pytest-xdist worker (each worker is its own
    session); skipped only when no binaries exist."""
    from postgres_server import start_server

    server = start_server()
    yield server
    server.stop()


@pytest.fixture(scope="session")
def geeko_campaign(tmp_path_factory) -> Path:
    """The bundled Geek-o sample campaign (turns/geeko: six processed turns) in a SQLite file, played once per
    worker; a test copies the file (`shutil.copyfile`) and works on its copy."""
    from cycle_fixtures import AT

    from pbem.gm.archive import import_game
    from pbem.resources import resource_dir
    from pbem.store.games import Store

    path = tmp_path_factory.mktemp("geeko-campaign") / "pbem.db"
    store = Store(f"sqlite:///{path}")
    try:
        import_game(store, resource_dir("turns") / "geeko", at=AT)
    finally:
        store.close()
    return path


# pytest-xdist hands each worker whole groups (`--dist loadgroup` in pyproject.toml, where the workers read it too):
# a module's tests are one group, so its module-scoped fixtures (the demo campaign, a browser, a site) are built
# once, not on both workers.


@pytest.hookimpl(tryfirst=True)  # before pytest-xdist reads the groups
def pytest_collection_modifyitems(items: list[pytest.Item]) -> None:
    for item in items:
        item.add_marker(pytest.mark.xdist_group(item.path.stem))
