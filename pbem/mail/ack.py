"""Acknowledgements: the reply each incoming message gets, accepted or refused (death matches: `post.match_mail`).

Only cleaned text reaches a header (one line, no control characters), the
recipient is the bare address the message came from, and the Message-ID comes
from the incoming message's key (and the recipient), so one message can never
be acknowledged, or announced, twice.

A refusal teaches (`explained`): each problem quotes the player's own line with
a caret under the field, and, with the player's `OrderHelp`, shows a right line
made from their hand, the hand itself, and the deadline with the time left.
"""
from __future__ import annotations

import re
from dataclasses import dataclass, field
from datetime import datetime
from email.message import EmailMessage
from email.policy import SMTP

from ..formats.orders import FIELDS
from ..render.message import message_id
from ..render.text import WIDTH, fitted
from .letters import Letter, clean

PASSED = "the deadline has passed"  # `OrderHelp.left` once the deadline is behind
_REGISTER = re.compile(r"^robots\.(?P<robot>[^. ]+)(?: register (?P<register>\d+))?")
_ITEM = re.compile(r"^reboot item (?P<item>\d+)$")


@dataclass(frozen=True)
class OrderHelp:
    """What a refusal of a player's orders teaches from: this turn's hand, a legal program per robot made
    from it (the engine's `example_orders`), the robots whose program the player must change for them to be
    legal beside the ones they keep, and the deadline as the player reads it."""

    game: str
    turn: int
    hands: dict[str, list[str]]  # the shared hand under the player's name, else per robot
    examples: dict[str, list[str]] = field(default_factory=dict)
    due: str = ""  # "due Friday 28 November, 20:00 UTC"
    left: str = ""  # "2 days 3 hours left"
    change: tuple[str, ...] | None = None  # None: every robot's example stands alone


def acknowledgement(letter: Letter, sender: str, verdict: str, lines: list[str],
                    help: OrderHelp | None = None) -> EmailMessage:
    """A plain-text reply to `letter` headed by `verdict` (e.g. "orders accepted"), one item per line; with
    `help`, the player's hand and the deadline below."""
    message = EmailMessage(policy=SMTP)
    message["From"] = sender
    message["To"] = letter.sender
    message["Subject"] = clean(f"[pbem: {verdict}] {letter.subject or 'your message'}", 120)
    message["Message-ID"] = message_id("ack", letter.key)
    if letter.message_id:
        message["In-Reply-To"] = letter.message_id
        message["References"] = letter.message_id
    message["Auto-Submitted"] = "auto-replied"
    body = f"Your message {letter.message_id or ''} ({letter.size:,} bytes): {verdict}.".replace("  ", " ")
    message.set_content("\n".join(fitted([body, "", *lines, *(help_lines(help) if help else [])])) + "\n")
    return message


def help_lines(help: OrderHelp) -> list[str]:
    """The hand and the deadline, under every reply about a player's orders."""
    lines = [""]
    for holder, cards in help.hands.items():
        named = "Your hand" if holder == "" or holder not in help.examples else f"Hand of {holder}"
        lines.append(f"{named}: {' '.join(cards) or '(no cards)'}")
    if help.due and help.left == PASSED:
        lines.append(f"Orders for {help.game} turn {help.turn} were {help.due}: the deadline has passed, and no "
                     "order file received after it counts for this turn.")
    elif help.due:
        lines.append(f"Orders for {help.game} turn {help.turn} are {help.due}"
                     f"{f' ({help.left})' if help.left else ''}; until then a new order file replaces this one.")
    return lines


def explained(text: str | None, source: str, reasons: list[str], help: OrderHelp | None = None) -> list[str]:
    """Every problem as a player can fix it: what is wrong, their line with a caret under the field, and a
    right line from their own hand. `text` is the order text as read (`Letter.orders`)."""
    lines = (text or "").splitlines()
    out: list[str] = []
    shown: set[tuple[str, ...]] = set()  # a right line once, under the first problem it answers
    for reason in reasons:
        line, name, message = _split(reason, source)
        where = ", ".join(part for part in (f"line {line}" if line else "", name) if part)
        out.append(" ".join((f"{where}: {message}" if where else message).split()))  # one line, however it came
        if line and 0 < line <= len(lines) and lines[line - 1].strip():
            out += _quote(lines[line - 1], _span(lines[line - 1], name, message))
        said = lines[line - 1] if line and 0 < line <= len(lines) else ""
        example = tuple(_example(name, help, said[:len(said) - len(said.lstrip())] or "  "))
        out += [] if example in shown else example
        shown.add(example)
        out.append("")
    return out[:-1]


def _split(reason: str, source: str) -> tuple[int | None, str, str]:
    """(line, field, message) of a problem as `Problem.__str__` wrote it; anything else is all message."""
    if not reason.startswith(source + ":"):
        return None, "", reason
    rest = reason[len(source) + 1:]
    found = re.match(r"(\d+): ", rest)
    line = int(found[1]) if found else None
    rest = rest[found.end():] if found else rest.lstrip()
    name, colon, message = rest.partition(": ")
    is_field = colon and (re.split(r"[. ]", name)[0] in FIELDS or message.startswith(("unknown field", "given twice")))
    return (line, name, message) if is_field else (line, "", rest)


def _quote(text: str, span: tuple[int, int] | None) -> list[str]:
    """The player's line, indented, cut to fit 78 columns around the caret."""
    room = WIDTH - 4
    start = 0 if span is None or span[1] <= room else span[1] - room + 8
    shown = text[start:start + room]
    quoted = ["    " + ("…" + shown[1:] if start else shown).rstrip()]
    if span is not None and span[0] - start < room:
        width = max(1, min(span[1], start + room) - span[0])
        quoted.append("    " + " " * (span[0] - start) + "^" * width)
    return quoted


def _span(text: str, name: str, message: str) -> tuple[int, int] | None:
    """The columns [start, end) of the field `name` on its line: a register's card, a program's list, a
    key's value; a missing `]`/`}` is pointed at the end of the line."""
    if not name:
        end = len(text.rstrip())
        return (end, end + 1) if "is missing at the end" in message else None
    register, item = _REGISTER.match(name), _ITEM.match(name)
    index = int(register["register"]) - 1 if register and register["register"] else \
        int(item["item"]) - 1 if item else None
    items = _flow_items(text)
    if index is not None:
        if items is not None:
            return items[index] if index < len(items) else None
        dash = re.match(r"\s*- ?", text)  # a block list: one card per line
        return (dash.end(), len(text.rstrip())) if dash else None
    if register and items is not None:  # the program as a whole
        return (items[0][0] - 1, items[-1][1] + 1) if items else (text.index("[") if "[" in text else 0, len(text.rstrip()))
    key = (register["robot"] if register else name.split(".")[-1])
    found = re.search(rf"(^|[\s{{,])({re.escape(key)})\s*:\s*", text)
    if found is None:
        return None
    value = re.split(r"\s#", text[found.end():])[0].rstrip()
    return (found.end(), found.end() + len(value)) if value else (found.start(2), found.end(2))


def _flow_items(text: str) -> list[tuple[int, int]] | None:
    """The columns of each item of the `[…]` list on a line (None when it has none)."""
    start = text.find("[", text.find("program") if "program" in text else 0)
    if start < 0:
        return None
    items, begin = [], start + 1
    for column in range(start + 1, len(text) + 1):
        comment = text[column:column + 1] == "#" and text[column - 1].isspace()  # `FWD1#500` is a card
        if column == len(text) or text[column] in ",]" or comment:
            token = text[begin:column]
            if token.strip():
                left = begin + len(token) - len(token.lstrip())
                items.append((left, left + len(token.strip())))
            if column == len(text) or text[column] != ",":
                break
            begin = column + 1
    return items


def _example(name: str, help: OrderHelp | None, indent: str) -> list[str]:
    """What a right line for the field looks like, from the player's hand and this turn: a robot's program as a
    line of its own at the player's `indent`, to copy whole (`program_lines`)."""
    if help is None or not name:
        return []
    register = _REGISTER.match(name)
    if register and register["robot"] in help.examples:
        robot = register["robot"]
        beside = [other for other in help.change or () if other != robot]  # lines that must change with it
        lines = ["    A right line from your hand, to copy whole in place of yours:",
                 *program_lines(f"{indent}{robot}: {{program: [", help.examples[robot], "]}")]
        for other in beside:
            lines += [f"    with, in place of your line for {other}:",
                      *program_lines(f"{indent}{other}: {{program: [", help.examples[other], "]}")]
        return lines
    expected = {"turn": f"    Expected: `turn: {help.turn}`", "game": f"    Expected: `game: {help.game}`"}.get(name)
    return [expected] if expected else []


def program_lines(opening: str, cards: list[str], closing: str) -> list[str]:
    """`opening`, the cards separated by commas, `closing`: one line when it fits 78 columns, else broken after
    a comma with each continuation indented four more than the first line (still one YAML flow list)."""
    indent = " " * (len(opening) - len(opening.lstrip(" ")) + 4)
    pieces = [f"{card}," for card in cards[:-1]] + [cards[-1] + closing] if cards else [closing]
    lines = [opening]
    for piece in pieces:
        joiner = "" if lines[-1].endswith("[") or lines[-1] == indent else " "
        if lines[-1] != indent and len(lines[-1]) + len(joiner) + len(piece) > WIDTH:
            lines.append(indent)
            joiner = ""
        lines[-1] += joiner + piece
    return lines


def time_left(due: datetime, now: datetime) -> str:
    """'2 days 3 hours left', '40 minutes left', or 'the deadline has passed'."""
    minutes = int((due - now).total_seconds() // 60)
    if minutes <= 0:
        return PASSED
    days, hours = divmod(minutes // 60, 24)
    parts = [(days, "day"), (hours, "hour")] if days else [(hours, "hour"), (minutes % 60, "minute")]
    shown = [f"{n} {unit}{'s' if n != 1 else ''}" for n, unit in parts if n]
    return " ".join(shown) + " left"
