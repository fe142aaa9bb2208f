"""Mail benchmark: how fast `pbem mail fetch` handles orders and `pbem mail send` delivers.

    python3 benchmarks/mail.py [--messages N] [--repeat R]

Prints one JSON document: milliseconds per message for fetching N order
messages from a Maildir (half accepted, half refused for a wrong secret, each
archived and acknowledged), for a second fetch that finds them all handled,
and for delivering the N acknowledgements to a folder; plus the time to read
(and refuse unparsed) one 20 MB message. Medians of R runs, each in a fresh
temporary campaign (SQLite).
"""
from __future__ import annotations

import argparse
import json
import mailbox
import platform
import statistics
import sys
import tempfile
import time
from datetime import datetime, timezone
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))
sys.path.insert(0, str(ROOT / "tests"))

from mail_fixtures import mail, new_campaign, order_mail

from pbem.gm.intake import fetch
from pbem.gm.outgoing import deliver
from pbem.mail.config import MailConfig
from pbem.mail.inbox import maildir_messages
from pbem.mail.letters import read_letter
from pbem.mail.outbox import FolderTransport
from pbem.store.games import Store

AT = datetime(2026, 1, 1, 12, 0, tzinfo=timezone.utc)  # the CLI's clock for each fetch and delivery


def one_run(count: int) -> dict[str, float]:
    with tempfile.TemporaryDirectory() as folder:
        folder = Path(folder)
        url, hands = new_campaign(folder)
        inbox = mailbox.Maildir(str(folder / "inbox"), create=True)
        for n in range(count):
            player = ("alice", "bob")[n % 2]
            inbox.add(order_mail(player, hands[player], f"<{n}@bench>", secret="same" if n % 4 < 2 else "wrong"))
        config = MailConfig(archive=folder / "archive")
        store = Store(url)
        timings = {}
        with store.session() as session:
            start = time.perf_counter()
            handled = fetch(session, maildir_messages(folder / "inbox", config.max_bytes), config, AT)
            timings["fetch_ms_per_message"] = (time.perf_counter() - start) * 1000 / count
            assert sum(h.outcome == "accepted" for h in handled) == count // 2
            start = time.perf_counter()
            again = fetch(session, maildir_messages(folder / "inbox", config.max_bytes), config, AT)
            timings["refetch_ms_per_message"] = (time.perf_counter() - start) * 1000 / count
            assert {h.outcome for h in again} == {"duplicate"}
            start = time.perf_counter()
            sent = deliver(session, FolderTransport(folder / "out"), AT)
            timings["deliver_ms_per_message"] = (time.perf_counter() - start) * 1000 / count
            assert len(sent) == count
        store.close()
        big = mail("alice@example.org", "see attachment", "<big@bench>",
                   attachments=(("orders.yaml", "application/yaml", b"#" * 20_000_000),))
        start = time.perf_counter()
        assert read_letter(big, 1_000_000, AT).problems
        timings["read_20mb_ms"] = (time.perf_counter() - start) * 1000
    return timings


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--messages", type=int, default=200)
    parser.add_argument("--repeat", type=int, default=3)
    args = parser.parse_args()
    runs = [one_run(args.messages) for _ in range(args.repeat)]
    result = {key: round(statistics.median(run[key] for run in runs), 3) for key in runs[0]}
    print(json.dumps({"benchmark": "mail", "messages": args.messages, "repeat": args.repeat,
                      "python": platform.python_version(), **result}, indent=2, sort_keys=True))


if __name__ == "__main__":
    main()
