"""Every file or stream a command is given is bounded before it is read (#37): `pbem mail broadcast` of /dev/zero,
of a 1 GB file, of a FIFO nobody writes to and of too much on standard input; `pbem mail send` of a FIFO;
`pbem mail fetch --mbox` of a 1 GB zero-filled file, and of a 1 GB mbox whose one message is zeros. Each is
refused saying what and why, in a child process whose peak memory (VmHWM) is measured under a 2 GiB cap, as the
attack ran it; the one message over the size limit is refused from its headers, as a Maildir's is."""
from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

import pytest
from mail_fixtures import new_campaign
from test_intake_big import CHILD

ROOT = Path(__file__).resolve().parent.parent
CAP = 2 * 1024 ** 3
PEAK = 200 * 1024 ** 2  # what a refused read may cost at most: imports and one limit's worth of bytes
GIGABYTE = 1024 ** 3


def pbem_child(tmp_path: Path, *args: object, stdin: bytes | None = None) -> tuple[subprocess.CompletedProcess, int]:
    """`pbem ARGS` in a child under the cap: what it printed, and its peak resident memory in bytes."""
    environment = {**os.environ, "PYTHONPATH": str(ROOT), "PBEM_MAIL_CONFIG": "", "PEAK_FILE": str(tmp_path / "peak")}
    result = subprocess.run([sys.executable, "-c", CHILD, str(CAP), *map(str, args)], cwd=tmp_path, env=environment,
                            capture_output=True, input=stdin, timeout=120)  # a read that blocks fails here
    return result, int((tmp_path / "peak").read_text())


def sparse(path: Path, size: int, head: bytes = b"") -> Path:
    with path.open("wb") as file:
        file.write(head)
        file.truncate(size)  # the rest reads as NUL bytes, costing no disk
    return path


@pytest.fixture
def url(tmp_path):
    return new_campaign(tmp_path)[0]


@pytest.mark.parametrize("given, refusal", [
    ("/dev/zero", "/dev/zero: a character device, not a regular file: not read"),
    ("big.txt", "big.txt: 1,073,741,824 bytes, more than the limit (1,000,000 bytes): not read"),
    ("pipe", "pipe: a named pipe (FIFO), not a regular file: not read"),
])
def test_mail_broadcast_refuses_what_is_no_bounded_regular_file_unread(tmp_path, url, given, refusal):
    if given == "big.txt":
        sparse(tmp_path / given, GIGABYTE)
    elif given == "pipe":
        os.mkfifo(tmp_path / given)  # nobody ever writes to it
    result, peak = pbem_child(tmp_path, "--db", url, "mail", "broadcast", "halls", given)
    assert result.returncode == 1 and refusal in result.stderr.decode(), result.stderr
    assert b"MemoryError" not in result.stderr and peak < PEAK, peak


def test_mail_broadcast_refuses_more_than_the_limit_on_standard_input(tmp_path, url):
    result, peak = pbem_child(tmp_path, "--db", url, "mail", "broadcast", "halls", "-", stdin=b"x" * 5_000_000)
    assert result.returncode == 1, result.stderr
    assert "standard input: more than the limit (1,000,000 bytes): not read" in result.stderr.decode()
    assert peak < PEAK, peak


def test_mail_send_refuses_a_fifo_unopened(tmp_path, url):
    os.mkfifo(tmp_path / "out.eml")
    result, _ = pbem_child(tmp_path, "--db", url, "mail", "send", "out.eml", "--dry-run")
    assert result.returncode == 1
    assert "out.eml: a named pipe (FIFO), not a regular file: not read, nothing queued" in result.stderr.decode()


def test_mail_fetch_refuses_a_1_gb_zero_filled_mbox_unread(tmp_path, url):
    sparse(tmp_path / "in.mbox", GIGABYTE)
    result, peak = pbem_child(tmp_path, "--db", url, "mail", "fetch", "--mbox", "in.mbox")
    assert result.returncode == 1, result.stderr
    assert "in.mbox: not an mbox file (it does not begin with a `From ` line): not read" in result.stderr.decode()
    assert b"MemoryError" not in result.stderr and peak < PEAK, peak


def test_a_1_gb_mbox_message_is_refused_from_its_headers(tmp_path, url):
    head = b"From bob@example.org Mon Nov 30 09:00:00 2026\nFrom: bob@example.org\nMessage-ID: <zeros@bob>\n\n"
    sparse(tmp_path / "in.mbox", GIGABYTE, head)
    result, peak = pbem_child(tmp_path, "--db", url, "mail", "fetch", "--mbox", "in.mbox", "--json")
    assert result.returncode == 1, result.stderr
    [handled] = json.loads(result.stdout)
    size = GIGABYTE - len(head.split(b"\n", 1)[0]) - 1  # the message: all but its `From ` line
    assert handled["outcome"] == "refused" and f"the message is {size:,} bytes" in handled["reasons"][0]
    assert b"MemoryError" not in result.stderr and peak < PEAK, peak
