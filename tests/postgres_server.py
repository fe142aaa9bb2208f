"""A throwaway PostgreSQL server for the store tests.

`PBEM_TEST_PG_URL` names a server to use instead. Otherwise Debian's `initdb` and
`pg_ctl` (on PATH or under /usr/lib/postgresql/*/bin) start a cluster in a
temporary folder on a free localhost port, as the `postgres` user when run as
root (initdb refuses root). No binaries: the tests that need it are skipped,
saying why — unless PBEM_REQUIRE_POSTGRES is set, as `.ci/run` does after
installing them, so CI never skips.
"""
from __future__ import annotations

import glob
import os
import shutil
import socket
import subprocess
import tempfile
import time
import uuid
from pathlib import Path

import pytest

SKIP_REASON = ("no PostgreSQL binaries (initdb, pg_ctl): `apt-get install postgresql` "
               "or set PBEM_TEST_PG_URL to a server")


def _binary(name: str) -> str | None:
    found = shutil.which(name)
    if found:
        return found
    candidates = sorted(glob.glob(f"/usr/lib/postgresql/*/bin/{name}"))
    return candidates[-1] if candidates else None


def _free_port() -> int:
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        return sock.getsockname()[1]


class Server:
    def __init__(self, url: str, stop=None):
        self.url, self._stop = url, stop

    def new_database(self, copy_of: str | None = None) -> str:
        """A fresh, empty database on the server (or a copy of the database at the URL `copy_of`, which nobody may
        be connected to); its SQLAlchemy URL."""
        import psycopg

        name = f"pbem_{uuid.uuid4().hex[:12]}"
        source = copy_of.rsplit("/", 1)[1] if copy_of else None
        template = f' TEMPLATE "{source}"' if source else ""
        with psycopg.connect(self.url.replace("postgresql+psycopg://", "postgresql://"), autocommit=True) as conn:
            for attempt in range(50):
                try:
                    conn.execute(f'CREATE DATABASE "{name}"{template}')
                    break
                except psycopg.errors.ObjectInUse:  # the template's last session is still on its way out
                    if attempt == 49:
                        raise
                    conn.execute("SELECT pg_terminate_backend(pid) FROM pg_stat_activity WHERE datname = %s AND "
                                 "pid <> pg_backend_pid()", (source,))
                    time.sleep(0.1)
        return self.url.rsplit("/", 1)[0] + f"/{name}"

    def stop(self) -> None:
        if self._stop:
            self._stop()


def start_server() -> Server:
    if os.environ.get("PBEM_TEST_PG_URL"):
        return Server(os.environ["PBEM_TEST_PG_URL"])
    initdb, pg_ctl = _binary("initdb"), _binary("pg_ctl")
    if not (initdb and pg_ctl):
        if os.environ.get("PBEM_REQUIRE_POSTGRES"):
            pytest.fail(SKIP_REASON)
        pytest.skip(SKIP_REASON)
    folder = Path(tempfile.mkdtemp(prefix="pbem-pg-"))
    as_user: list[str] = []
    if os.geteuid() == 0:
        shutil.chown(folder, "postgres", "postgres")
        as_user = ["runuser", "-u", "postgres", "--"]
    data = folder / "data"
    run = lambda *args: subprocess.run([*as_user, *args], check=True, capture_output=True, text=True)
    run(initdb, "-D", str(data), "-U", "postgres", "--auth=trust", "-E", "UTF8", "--no-sync")
    for attempt in range(3):  # pytest-xdist workers start their servers at once: a port may be taken meanwhile
        port = _free_port()
        try:
            run(pg_ctl, "-D", str(data), "-l", str(folder / "log"), "-w", "-o",
                f"-p {port} -k {folder} -c listen_addresses=127.0.0.1 -c fsync=off", "start")
            break
        except subprocess.CalledProcessError:
            if attempt == 2:
                raise

    def stop() -> None:
        subprocess.run([*as_user, pg_ctl, "-D", str(data), "-m", "immediate", "stop"], capture_output=True)
        shutil.rmtree(folder, ignore_errors=True)

    return Server(f"postgresql+psycopg://postgres@127.0.0.1:{port}/postgres", stop)
