"""`pbem ARGS…` run in the test's own interpreter, through the same `main()` as the installed command (its OSError
handling included), returning what a subprocess would: exit code, stdout and stderr.

A subprocess pays about a second of imports per run; tests where a separate process is not the point use this.
"""
from __future__ import annotations

import json
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


CHILD = """import json, sys
from typer.testing import CliRunner
from pbem.cli import app
runs = [CliRunner().invoke(app, args) for args in json.loads(sys.argv[1])]
print(json.dumps([[run.exit_code, run.stdout] for run in runs]))
"""


def under_hash_seeds(folders: dict[str, Path], *commands: list[str]) -> dict[str, list[tuple[int, str]]]:
    """For each PYTHONHASHSEED (a key of `folders`, the folder its commands run in): the (exit code, stdout) of
    `pbem COMMAND` for every command. The seed is fixed when an interpreter starts, so each seed gets its own
    process, running every command; the processes run side by side."""
    environment = {**os.environ, "PYTHONPATH": str(Path(__file__).resolve().parent.parent)}
    children = {seed: subprocess.Popen([sys.executable, "-c", CHILD, json.dumps(commands)], cwd=folder, text=True,
                                       env={**environment, "PYTHONHASHSEED": seed}, stdout=subprocess.PIPE)
                for seed, folder in folders.items()}
    return {seed: [tuple(run) for run in json.loads(child.communicate(timeout=300)[0])]
            for seed, child in children.items()}


def imported_by(*args: str, cwd, whole_names: bool = False) -> set[str]:
    """The top-level packages (or, `whole_names`, the modules) a fresh `pbem ARGS…` imports (its own interpreter:
    what a GM's shell pays)."""
    script = ("import atexit, runpy, sys\nsys.argv = ['pbem', *sys.argv[1:]]\n"  # the process ends in pbem: told at exit
              "atexit.register(lambda: print('MODULES', ' '.join(sorted(sys.modules))))\n"
              "runpy.run_module('pbem', run_name='__main__')")
    run = subprocess.run([sys.executable, "-c", script, *args], cwd=cwd, capture_output=True, text=True,
                         env={**os.environ, "PYTHONPATH": str(Path(__file__).resolve().parent.parent)}, timeout=120)
    modules = set(run.stdout.split("MODULES ")[1].split())
    return modules if whole_names else {module.split(".")[0] for module in modules}
