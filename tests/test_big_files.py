"""#29: a big file does not take the machine. `pbem mail send FILE` checks the size before reading: a 1 GB
(sparse) file is refused at once, naming it and the limit, under a 500 MB address-space cap."""
from __future__ import annotations

import os
import resource
import subprocess
import sys
import time
from pathlib import Path

from mail_fixtures import new_campaign

ROOT = Path(__file__).resolve().parent.parent
CAP = 500 * 1024 * 1024


def capped() -> None:
    resource.setrlimit(resource.RLIMIT_AS, (CAP, CAP))


def test_mail_send_refuses_a_1_gb_file_unread_under_a_500_mb_memory_cap(tmp_path):
    url, _ = new_campaign(tmp_path)
    big = tmp_path / "big.eml"
    with open(big, "wb") as handle:
        handle.truncate(1024 ** 3)  # sparse: a gigabyte of nothing, as far as a reader can tell
    environment = {**os.environ, "PYTHONPATH": str(ROOT)}
    environment.pop("PBEM_MAIL_CONFIG", None)
    started = time.monotonic()
    result = subprocess.run([sys.executable, "-m", "pbem", "--db", url, "mail", "send", str(big)], cwd=tmp_path,
                            env=environment, capture_output=True, text=True, preexec_fn=capped, timeout=120)
    seconds = time.monotonic() - started
    assert result.returncode == 1, result.stderr
    assert f"{big}: 1,073,741,824 bytes, more than a mail can carry (25,000,000 bytes): not read" in result.stderr
    assert "MemoryError" not in result.stderr and seconds < 60
