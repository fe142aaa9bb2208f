"""The CPU time of one child process, the measure every command-timing benchmark here uses (user + system of the
child alone, which other jobs on the machine sway far less than wall time), and the tail of their JSON documents; a
helper of tick.py, due_tick.py, dm_new.py and server.py."""
from __future__ import annotations

import os
import platform
import statistics
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


def machine() -> dict[str, object]:
    """Where a benchmark ran: its JSON document's last keys."""
    return {"python": platform.python_version(), "machine": platform.machine(), "cpu_count": os.cpu_count()}


def timings(times: dict[str, list[float]], load_before: float) -> dict[str, object]:
    """The tail of a timing benchmark's JSON document: every command's median CPU and each of its runs (ms), the
    load average before and after, and the machine."""
    return {"cpu_ms_median": {key: round(statistics.median(values) * 1000, 1) for key, values in times.items()},
            "cpu_ms_runs": {key: [round(v * 1000, 1) for v in values] for key, values in times.items()},
            "load": {"before": round(load_before, 2), "after": round(os.getloadavg()[0], 2)}, **machine()}
