"""`pbem` commands run side by side, each in a process of its own, without a second of imports each.

A server process imports every pbem module once, then for each batch of commands forks one child per command,
all at once, and answers with their exit codes, stdout and stderr. The children are real processes (their own
database connections, locks and sockets), started within milliseconds of each other: overlapping `pbem run`s on
every tick of a long campaign cost what the runs cost, not what starting Python costs.
"""
from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent

SERVER = r"""import importlib, json, os, pkgutil, sys, traceback
import pbem
from pbem.cli import main

for module in pkgutil.walk_packages(pbem.__path__, "pbem."):  # what the commands would import lazily, once
    if ".migrations" not in module.name and not module.name.endswith("__main__"):
        importlib.import_module(module.name)
folder = sys.argv[1]


def child(argv, out, err):
    for fd, path in ((1, out), (2, err)):
        os.dup2(os.open(path, os.O_WRONLY | os.O_CREAT | os.O_TRUNC), fd)
    sys.argv = ["pbem", *argv]
    try:
        main()
        code = 0
    except SystemExit as exit:
        code = exit.code if isinstance(exit.code, int) else 0 if exit.code is None else 1
    except BaseException:
        traceback.print_exc()
        code = 70
    sys.stdout.flush()
    sys.stderr.flush()
    os._exit(code)


for batch, line in enumerate(sys.stdin):
    started = []
    for n, argv in enumerate(json.loads(line)):
        out, err = (os.path.join(folder, f"{batch}.{n}.{name}") for name in ("out", "err"))
        pid = os.fork()
        if pid == 0:
            child(argv, out, err)
        started.append((pid, out, err))
    answers = []
    for pid, out, err in started:
        status = os.waitpid(pid, 0)[1]
        answers.append([os.waitstatus_to_exitcode(status), *(open(p, encoding="utf-8").read() for p in (out, err))])
        os.remove(out)
        os.remove(err)
    print(json.dumps(answers), flush=True)
"""


class ForkedPbem:
    """`together(argv, …)`: run each `pbem ARGV` in its own process, all started at once, in `cwd` with the
    environment as it is when this is made; [(exit code, stdout, stderr)] in the order given."""

    def __init__(self, cwd: Path, scratch: Path):
        scratch.mkdir(parents=True, exist_ok=True)
        self.process = subprocess.Popen([sys.executable, "-c", SERVER, str(scratch)], cwd=cwd, text=True,
                                        env={**os.environ, "PYTHONPATH": str(ROOT)},
                                        stdin=subprocess.PIPE, stdout=subprocess.PIPE)

    def together(self, *commands: list[str]) -> list[tuple[int, str, str]]:
        assert self.process.stdin is not None and self.process.stdout is not None
        self.process.stdin.write(json.dumps(commands) + "\n")
        self.process.stdin.flush()
        answer = self.process.stdout.readline()
        assert answer, f"the forking server ended (exit {self.process.wait()})"
        return [tuple(a) for a in json.loads(answer)]

    def close(self) -> None:
        if self.process.stdin is not None:
            self.process.stdin.close()
        try:
            self.process.wait(timeout=30)
        except subprocess.TimeoutExpired:
            self.process.kill()
            self.process.wait()
        if self.process.stdout is not None:
            self.process.stdout.close()
