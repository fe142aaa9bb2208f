"""The CPU time of one child process, the measure every command-timing benchmark here uses (user + system of the
child alone, which other jobs on the machine sway far less than wall time); a helper of tick.py, due_tick.py and
dm_new.py."""
from __future__ import annotations

import os
import subprocess
from pathlib import Path

# the child's environment: none of the variables that would point it at another database, time or mail config
ENVIRONMENT = {key: value for key, value in os.environ.items()
               if key not in ("PYTHONDONTWRITEBYTECODE", "PBEM_DB", "PBEM_NOW", "PBEM_MAIL_CONFIG")}


def cpu(command: list[str], source: Path, cwd: Path | None = None, env: dict[str, str] | None = None) -> float:
    """CPU seconds of one child running `command` with the checkout `source` first on its path, in `cwd` (by
    default `source` itself: `python -m` puts the working folder before PYTHONPATH, so a child working elsewhere
    inside another checkout would time that one), with the variables `env` added."""
    child = subprocess.Popen(command, cwd=cwd or source, env={**ENVIRONMENT, **(env or {}), "PYTHONPATH": str(source)},
                             stdout=subprocess.DEVNULL, stderr=subprocess.PIPE)
    _, status, usage = os.wait4(child.pid, 0)
    if os.waitstatus_to_exitcode(status) != 0:
        raise SystemExit(f"{' '.join(command)} failed: {child.stderr.read().decode() if child.stderr else ''}")
    return usage.ru_utime + usage.ru_stime
