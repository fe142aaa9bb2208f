"""Shared test fixtures."""
from __future__ import annotations

from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent
SHARED = ROOT.parent / "shared"


@pytest.fixture
def repo_root() -> Path:
    return ROOT


@pytest.fixture(scope="session")
def pg_server():
    """A throwaway PostgreSQL server (tests/postgres_server.py); skipped only when no binaries exist."""
    from postgres_server import start_server

    server = start_server()
    yield server
    server.stop()
