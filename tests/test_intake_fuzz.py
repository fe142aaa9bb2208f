"""Hostile input is normal input (#28 "done when"): mutated order files and mutated messages — senders and every
integer spelling YAML 1.1 reads included — are each read, judged and answered, never a traceback, never lost.

The fast suite runs a few hundred of each; the slow test runs ORDER_FUZZ order files and MAIL_FUZZ messages (the
attack's volume, #37), each message read again with LF line ends (an mbox's), a duplicate however mutated; and
`python tests/test_intake_fuzz.py ORDERS MESSAGES` runs any number and prints what became of them."""
from __future__ import annotations

import mailbox
import random
import sys
import tempfile
import time
from collections import Counter
from datetime import datetime, timedelta, timezone
from pathlib import Path

import pytest
from sqlmodel import select

sys.path.insert(0, str(Path(__file__).parent))
from mail_fixtures import mail, new_campaign, order_mail, orders_text

from pbem.gm import cycle
from pbem.gm.intake import handle
from pbem.mail.config import MailConfig
from pbem.mail.inbox import Incoming
from pbem.store.games import Store
from pbem.store.mail import MailReceived

NOW = datetime(2026, 11, 24, 12, tzinfo=timezone.utc)
NUMBERS = ["0x" + "f" * 4000, "-0x7fffffffffffffff", "0x8000000000000000", "0" + "7" * 30, "0b" + "1" * 70,
           "1_000_000", "1:30", "190:20:30", "-1:" * 50 + "0", "9" * 5000, "+12", "-0", "0o17", "1e400", ".inf",
           "9223372036854775807", "9223372036854775808", "١٢٣", "0x_ff"]
SENDERS = ["x\x1bc@evil.example", "jürgen@example.org", "alice@exämple.org", "<>", "a@b@c", "alice@example.org,"
           " bob@example.org", "=?utf-8?b?4oCu?= <alice@example.org>", "\"a\r\nBcc: x@y\" <alice@example.org>",
           "alice@example.org (comment \x00)", "a" * 500 + "@example.org", "alice@[127.0.0.1]",
           "\"alice@example.org\"@evil.example", "ALICE@EXAMPLE.ORG", "bob@example.org"]
TOKENS = ["game", "turn", "player", "robots", "program", "reboot", "option_hp", "secret", "Zapper", "Spanner",
          "{", "}", "[", "]", ":", ",", "-", "#", "\n", "  ", "\t", "&a", "*a", "!!python/object", "'", '"', "%"]


def mutate_text(chance: random.Random, text: str) -> str:
    """An order file with a few edits: a number in another spelling, a token, a cut, a stray character."""
    for _ in range(chance.randint(1, 6)):
        at = chance.randrange(len(text) + 1)
        kind = chance.random()
        if kind < 0.35:
            spots = [i for i, c in enumerate(text) if c.isdigit()] or [at]
            at = chance.choice(spots)
            end = at
            while end < len(text) and text[end].isalnum():
                end += 1
            text = text[:at] + chance.choice(NUMBERS) + text[end:]
        elif kind < 0.6:
            text = text[:at] + chance.choice(TOKENS) + text[at:]
        elif kind < 0.8:
            text = text[:at] + text[at + chance.randint(1, 40):]
        else:
            stray = chance.choice([0, 7, 27, 0x85, 0x2028, 0x202e, 0xfeff, chance.randrange(0x110000)])
            text = text[:at] + chr(stray) + text[at:]
    return text


def mutate_message(chance: random.Random, data: bytes) -> bytes:
    """A message with a few edits to its bytes, its headers and its sender, and its orders' numbers respelt."""
    message = bytearray(data)
    for _ in range(chance.randint(1, 6)):
        kind = chance.random()
        at = chance.randrange(len(message) + 1)
        if kind < 0.25:
            sender = chance.choice(SENDERS).encode("utf-8", "surrogateescape")
            message[0:0] = b"From: " + sender + b"\r\n"
        elif kind < 0.4:
            digits = [i for i, c in enumerate(message) if 48 <= c <= 57]
            if digits:
                at = chance.choice(digits)
                message[at:at + 1] = chance.choice(NUMBERS).encode()
        elif kind < 0.55:
            message[0:0] = chance.choice([b"Content-Type: multipart/mixed; boundary=\r\n", b"Message-ID: <\xff@[>\r\n",
                                          b"Content-Transfer-Encoding: base64\r\n", b"Received: ;\r\n",
                                          b"Date: Mon, 99 Foo 10000 99:99:99 +9999\r\n", b"Auto-Submitted: no\r\n",
                                          b"Subject: \x1b[2J=?utf-8?q?=E2=80=AE?=\r\n", b"Message-ID: <fuzz@x>\r\n"])
        elif kind < 0.75 and message:
            message[min(at, len(message) - 1)] = chance.randrange(256)
        elif kind < 0.9:
            del message[at:at + chance.randint(1, 200)]
        else:
            message[at:at] = bytes(chance.randrange(256) for _ in range(chance.randint(1, 40)))
    return bytes(message)


def fuzz_orders(url: str, hands: dict, count: int, seed: int) -> Counter:
    """`count` mutated order files through `turn check`'s path; what became of them."""
    chance = random.Random(seed)
    honest = [orders_text(player, hands[player]) for player in ("alice", "bob")]
    store = Store(url)
    outcomes: Counter = Counter()
    try:
        with store.session() as session:
            for number in range(count):
                text = mutate_text(chance, chance.choice(honest))
                data = text.encode("utf-8", "surrogatepass")
                [result] = cycle.submit(session, "halls", [(f"fuzz-{number}.yaml", data)], store=False, at=NOW)
                outcomes["accepted" if result.accepted else "refused"] += 1
                assert result.accepted or result.problems
    finally:
        store.close()
    return outcomes


def honest_orders(hands: dict) -> list[bytes]:
    """The campaign's mails the fuzz mutates: both players' orders, and a stranger sending alice's."""
    return [order_mail("alice", hands["alice"], "<h1@alice>"), order_mail("bob", hands["bob"], "<h2@bob>"),
            mail("mallory@evil.example", orders_text("alice", hands["alice"]), "<h3@evil>")]


def fuzz_messages(folder: Path, url: str, honest: list[bytes], count: int, seed: int, at: datetime = NOW,
                  step: timedelta = timedelta(0)) -> Counter:
    """`count` mutations of the `honest` mails of a game (a campaign's orders, a match's actions), the n-th read at
    `at + n * step` (a match's clock moves on) in the database at `url`, each three times (again, and with LF line ends: a duplicate both times); what became of
    them. Every one is kept in the archive and recorded, once."""
    chance = random.Random(seed)
    config = MailConfig(archive=folder / "archive")
    store = Store(url)
    outcomes: Counter = Counter()
    keys = set()
    try:
        with store.session() as session:
            for number in range(count):
                data = chance.choice(honest)
                if chance.random() < 0.9:  # most as new messages; the rest reuse a Message-ID (#29)
                    data = data.replace(b"Message-ID: <", f"Message-ID: <{number}-".encode(), 1)
                data = mutate_message(chance, data)
                read_at = at + number * step
                first = handle(session, Incoming("fuzz", data), config, read_at)
                again = handle(session, Incoming("fuzz", data), config, read_at)
                assert again.outcome == "duplicate" and (first.outcome == "duplicate") == (first.key in keys)
                from_mbox = handle(session, Incoming("fuzz", data.replace(b"\r\n", b"\n")), config, read_at)
                assert from_mbox.outcome == "duplicate" and from_mbox.key == first.key, (data, first.key)
                keys.add(first.key)
                outcomes[first.outcome] += 1
            recorded = len(session.exec(select(MailReceived.id)).all())
    finally:
        store.close()
    assert recorded == len(keys) == len(mailbox.Maildir(str(folder / "archive")).keys())  # each kept, once
    return outcomes


def fuzz(folder: Path, orders: int, messages: int, seed: int = 1) -> dict:
    url, hands = new_campaign(folder)
    started = time.perf_counter()
    found = {"orders": dict(fuzz_orders(url, hands, orders, seed))}
    found["messages"] = dict(fuzz_messages(folder, url, honest_orders(hands), messages, seed))
    found["seconds"] = round(time.perf_counter() - started, 1)
    return found


def test_mutated_order_files_and_messages_never_raise_nor_get_lost(tmp_path):
    found = fuzz(tmp_path, 300, 300)
    assert sum(found["orders"].values()) == 300 and sum(found["messages"].values()) == 300
    assert found["orders"].get("refused") and found["messages"].get("refused")


ORDER_FUZZ, MAIL_FUZZ = 5_000, 25_000  # the reliability attack's volumes (#37)


@pytest.mark.slow
def test_the_attack_volume_of_order_files_and_messages(tmp_path):
    found = fuzz(tmp_path, ORDER_FUZZ, MAIL_FUZZ, seed=2)
    print(found)
    assert sum(found["orders"].values()) == ORDER_FUZZ and sum(found["messages"].values()) == MAIL_FUZZ


if __name__ == "__main__":
    print(fuzz(Path(tempfile.mkdtemp()), int(sys.argv[1]), int(sys.argv[2]), int(sys.argv[3]) if sys.argv[3:] else 1))
