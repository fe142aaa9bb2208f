"""`pbem ARGS…` run in the test's own interpreter, through the same `main()` as the installed command (its OSError
handling included), returning what a subprocess would: exit code, stdout and stderr.

A subprocess pays about a second of imports per run; tests where a separate process is not the point use this.
"""
from __future__ import annotations

import os
import subprocess
import sys
from contextlib import chdir
from pathlib import Path
from unittest import mock

from typer.testing import CliRunner

from pbem.cli import main

# what a GM's environment may set, cleared so each run sees only what the test gives
CLEARED = {"PBEM_DB": None, "PBEM_NOW": None, "PBEM_MAIL_CONFIG": None}


def run_pbem(*args: object, cwd: Path | str | None = None, env: dict[str, str] | None = None) \
        -> subprocess.CompletedProcess:
    argv = ["pbem", *map(str, args)]
    with CliRunner().isolation(env={**CLEARED, **(env or {})}) as (stdout, stderr, _), \
            chdir(cwd or os.getcwd()), mock.patch.object(sys, "argv", argv):
        try:
            main()
            code = 0
        except SystemExit as exit:
            code = exit.code if isinstance(exit.code, int) else 0 if exit.code is None else 1
        sys.stdout.flush()
        sys.stderr.flush()
        out, err = stdout.getvalue().decode(), stderr.getvalue().decode()
    return subprocess.CompletedProcess(argv, code, out, err)
