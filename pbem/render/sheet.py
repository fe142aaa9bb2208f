"""The turn sheet laid out: the board the player programs, HP, fused registers, the dealt hand and the
pre-filled order file.

The content comes from the turn cycle (`pbem.store.turns.TurnSheet`: robots with mode, hp,
fused registers, whether they receive cards and how many registers are free; the hands;
the order file to edit and send back); this module only presents it, as HTML, text and email.
"""
from __future__ import annotations

import base64
import re
import textwrap
from dataclasses import dataclass, field
from datetime import datetime, timezone
from email.message import EmailMessage
from email.utils import parseaddr
from functools import lru_cache
from typing import Any, Mapping, Sequence

from ..formats.orders import yaml_scalar
from . import html
from .ascii import LEGEND, ascii_map, robot_letters, staged_lines
from .board import position_png
from .message import cid, report_message
from .model import Position
from .static import image_size
from .style import Colour
from .text import fitted
from .turn import slug

NO_ORDERS_NEEDED = ("None of your robots gets cards this turn, so you need send no orders (RULES B4.7); "
                    "send the order file only to declare a reboot.")
SHEET_WIDTH = 72  # the text sheet's and the builder's lines: a reply quoting them ("> " and a client's wrap at 76),
# or a mail program wrapping at 72, leaves them whole


def program_note(robot: Any, exact: bool = False, most: int | None = None) -> str:
    """What the robot's program may hold, as the order checker counts it: BotWars fills every free register
    (B4.5), Geek-o up to them, or up to `most` where programs must be of one length (B4.5)."""
    if not robot.receives_cards:
        return f"no program this turn: {robot.no_cards_reason or robot.mode}"
    if exact:
        return f"exactly {_cards(robot.free_registers)}"
    if most is not None and most < robot.free_registers:
        return f"up to {_cards(most)} (every program of one length, B4.5)"
    return f"up to {_cards(robot.free_registers)}"


def _cards(count: int) -> str:
    return f"{count} card{'s' if count != 1 else ''}"


def longest_program(sheet: Any) -> int | None:
    """Where programs must be of one length (Geek-o, B4.5), the longest each may be: the shortest free registers
    among the robots that get cards; None where each robot has its own limit."""
    receiving = [r.free_registers for r in sheet.robots if r.receives_cards]
    equal = getattr(sheet, "equal_lengths", False) and not sheet.exact_program
    return min(receiving) if equal and len(receiving) > 1 else None


def sheet_position(sheet: Any) -> Position:
    """The board the player programs this turn, as it stands when the turn starts; in BotWars each of the
    player's robots' next flag is marked, and on a board shared with other players their own robots are ringed."""
    board = sheet.board
    marks = () if not sheet.exact_program else tuple(
        flag.at for robot in sheet.robots for flag in board.room.of_type("flag")
        if int(flag.get("number", 0) or 0) == board.robots[robot.name].next_flag)
    mine = tuple(robot.name for robot in sheet.robots)
    shared = any(robot.name not in mine for robot in board.robots.values())
    return Position.of(board.room, board, marks, mine if shared else ())


def sheet_png(sheet: Any, colours: dict[str, Colour] | None = None) -> bytes:
    """The sheet's board picture (byte-stable, like every picture)."""
    return position_png(sheet_position(sheet), colours)


@dataclass(frozen=True)
class DrawnSheets:
    """A dealt turn's sheets with their board pictures drawn and their texts written once (a picture is the
    costliest part of a sheet), for the mail and the report folder alike (`pbem run`)."""

    sheets: Sequence[Any]
    pictures: Mapping[str, bytes] = field(default_factory=dict)  # by player
    texts: Mapping[str, str] = field(default_factory=dict)  # by player

    @classmethod
    def of(cls, sheets: Sequence[Any]) -> "DrawnSheets":
        return cls(tuple(sheets), {s.player: sheet_png(s) for s in sheets if s.board is not None},
                   {s.player: turn_sheet_text(s) for s in sheets})

    def picture(self, sheet: Any) -> bytes:
        """The sheet's board picture, drawn now when it was not drawn with the others."""
        drawn = self.pictures.get(sheet.player)
        return drawn if drawn is not None else sheet_png(sheet)

    def text(self, sheet: Any) -> str:
        """The text sheet, written now when it was not written with the others."""
        written = self.texts.get(sheet.player)
        return written if written is not None else turn_sheet_text(sheet)


def picture_name(sheet: Any) -> str:
    return f"{slug(sheet.player)}-board.png"


def board_lines(sheet: Any) -> list[str]:
    """The text sheet's map: the board, the robots by letter, the legend."""
    position = sheet_position(sheet)
    robots = list(position.robots)  # the board's order, as the report tables list them
    letters = robot_letters([r for r in robots if r.at is not None])
    lines = [f"The board: {sheet.room}", "", *ascii_map(position, letters), ""]
    for robot in robots:
        if robot.name in letters:
            whose = "yours" if robot.owner == sheet.player else robot.owner
            lines.append(f"  {letters[robot.name]} = {robot.name} ({whose}) at {robot.at}, facing "
                         f"{robot.facing.name}, HP {robot.hp}")
    lines += [f"  next flag for {r.name}: {flag.get('number')} at {flag.at}" for r in robots
              if r.owner == sheet.player and sheet.exact_program for flag in position.room.of_type("flag")
              if int(flag.get("number", 0) or 0) == r.next_flag]
    return lines + ["", *LEGEND, *staged_lines(position)]


def fused_lines(robot: Any) -> list[str]:
    return [f"register {n}: {card or '(empty)'}" for n, card in sorted(robot.fused.items(), reverse=True)]


def _context(sheet: Any) -> dict[str, Any]:
    most = longest_program(sheet)
    robots = [{"name": r.name, "mode": r.mode, "hp": r.hp, "note": program_note(r, sheet.exact_program, most),
               "fused": fused_lines(r), "at": r.at, "facing": r.facing,
               "square": f"{r.at}, facing {r.facing}" if r.at else "off the board"}
              for r in sheet.robots]
    shared = list(sheet.hands) == [sheet.player]
    hands = [("" if shared else key, cards) for key, cards in sheet.hands.items()]
    free = "" if any(r.receives_cards for r in sheet.robots) else NO_ORDERS_NEEDED
    return {"sheet": sheet, "robots": robots, "hands": hands, "free": free}


def builder_data(sheet: Any, to: str = "") -> dict[str, Any]:
    """What the sheet's order builder needs, all of it from the turn cycle (the engine's answers): the order
    file's head, each robot's YAML key, usable cards and program length, the hands, the sheet's `option_hp`
    (B11), and where to send: the bare address, as a mailto: link carries it (RFC 6068)."""
    exact, most = sheet.exact_program, longest_program(sheet)
    robots = [{"name": r.name, "key": yaml_scalar(r.name), "receives": r.receives_cards,
               "note": program_note(r, exact, most), "free": r.free_registers,
               "registers": getattr(r, "registers", 0) or r.free_registers + len(r.fused),
               "fused": {str(n): card or "(empty)" for n, card in r.fused.items()}, "usable": getattr(r, "usable", []),
               "min": r.free_registers if exact else min(1, r.free_registers),
               "max": r.free_registers if most is None else min(most, r.free_registers)}
              for r in sheet.robots]
    return {"head": sheet.orders.split("\nrobots:")[0] + "\n", "robots": robots, "hands": sheet.hands,
            "equal": most is not None, "reboot": "\nreboot:" in sheet.orders, "to": parseaddr(to)[1],
            "option_hp": _option_hp(sheet.orders), "width": SHEET_WIDTH,
            "subject": f"orders: {sheet.game}, turn {sheet.turn}, {sheet.player}"}


@lru_cache(maxsize=64)
def _option_hp(orders: str) -> Any:
    """The `option_hp` a pre-filled order file gives (None without one), read once per file: the mailed page and
    the page kept in the report folder both need it. A file without the word has none, and the one line pbem's
    template writes (`formats.orders.order_template`) is read as YAML reads it, without loading PyYAML: reading YAML
    was most of a sheet's builder, and its import ~8 ms of a due tick (#36). Any other file is read as YAML."""
    if "option_hp" not in orders:
        return None
    line = _OPTION_HP.search(orders)
    if line is not None and orders.count("option_hp") == 1:
        return int(line.group(1))
    import yaml

    return (yaml.safe_load(orders) or {}).get("option_hp")


_OPTION_HP = re.compile(r"^option_hp: ([1-9][0-9]*)$", re.MULTILINE)  # a decimal YAML reads as that int


def turn_sheet_html(sheet: Any, templates: Sequence[str] = (), picture: str | None = None, *,
                    builder: bool = True, to: str = "") -> str:
    """The sheet as a page; `picture` is the board picture's address (a file name, `cid:` in mail, or a
    `data:` address in the attachment). With `builder`, the order builder (a script; the page reads the
    same without it); `to` is the GM's address its "send" button writes to."""
    width, height = image_size(sheet.board.room) if sheet.board is not None else (0, 0)
    src = picture if picture is not None else picture_name(sheet)
    return html.render("turn_sheet.html", templates, picture=src if sheet.board is not None else None,
                       width=width, height=height, builder=builder_data(sheet, to) if builder else None,
                       script=html.source("order_builder.js", tuple(templates)) if builder else "",
                       option_hp_max=getattr(sheet, "option_hp_max", 0), **_context(sheet))


def turn_sheet_text(sheet: Any) -> str:
    context = _context(sheet)
    lines = [f"{sheet.game}, turn {sheet.turn}: turn sheet for {reader(sheet)}", ""]
    if context["free"]:
        lines += textwrap.wrap(context["free"], 66) + [""]
    if sheet.due:
        lines[1:1] = [*fitted([f"Orders {sheet.due}."], hang=0), ""]
    for robot in context["robots"]:
        lines += fitted([f"{robot['name']}: {robot['mode']}, HP {robot['hp']}, {robot['note']}"], SHEET_WIDTH)
        lines += [f"    fused {line}" for line in robot["fused"]]
    for holder, cards in context["hands"]:  # wrapped: a mail client would cut a long line anywhere
        lines += textwrap.wrap(f"Hand{' of ' + holder if holder else ''}: {' '.join(cards) or '(none)'}", 66,
                               subsequent_indent="    ", break_long_words=False, break_on_hyphens=False)
    if sheet.board is not None:
        lines += ["", *board_lines(sheet)]
    lines += ["", "Your order file (edit the programs and send it back):", "", sheet.orders]
    return "\n".join(lines)


def reader(sheet: Any) -> str:
    """Whom the sheet is for: the player, or the newcomer who took over their seat ("carol, in bob's seat")."""
    holder = getattr(sheet, "holder", "")
    return f"{holder}, in {sheet.player}'s seat" if holder else sheet.player


def turn_sheet_message(sheet: Any, sender: str, templates: Sequence[str] = (),
                       drawn: DrawnSheets | None = None) -> EmailMessage:
    """The sheet by mail: the text sheet (with its map), the page with the board picture inline (from `drawn`,
    when drawn already), and the same page with its order builder as an attachment to open in a browser (mail
    programs drop scripts)."""
    name, drawn = picture_name(sheet), drawn or DrawnSheets(())
    images = {name: drawn.picture(sheet)} if sheet.board is not None else {}
    inline = f"data:image/png;base64,{base64.b64encode(images[name]).decode()}" if images else None
    page = turn_sheet_html(sheet, templates, inline, to=sender)
    return report_message(sender=sender, recipient=sheet.email,
                          subject=f"{sheet.game}: turn {sheet.turn} cards for {reader(sheet)}",
                          text=drawn.text(sheet),
                          html=turn_sheet_html(sheet, templates, f"cid:{cid(name)}", builder=False), images=images,
                          attachments={f"{slug(sheet.player)}-sheet.html": page, **deadline_entry(sheet)})


def deadline_entry(sheet: Any) -> dict[str, str]:
    """The deadline as a calendar entry (RFC 5545) a player adds with one click, named `GAME-turn-N.ics`, with an
    alarm for each reminder the game sends; none when the game has no schedule. Its stamp is when the turn was
    dealt (`written_at`, a stored time): the same sheet mailed again gives the same bytes, so it is queued once."""
    due = getattr(sheet, "due_at", None)
    if due is None:
        return {}
    start, stamp = _ics_time(due), _ics_time(sheet.written_at)
    game = _ics_text(sheet.game)
    alarms = [line for hours in sheet.reminders for line in (
        "BEGIN:VALARM", "ACTION:DISPLAY", f"TRIGGER:-PT{hours}H",
        f"DESCRIPTION:{game}: turn {sheet.turn} orders due in {hours} hour{'s' if hours != 1 else ''}", "END:VALARM")]
    lines = ["BEGIN:VCALENDAR", "VERSION:2.0", "PRODID:-//pbem//turn deadline//EN", "METHOD:PUBLISH",
             "BEGIN:VEVENT", f"UID:{slug(sheet.game)}-turn-{sheet.turn}-{slug(sheet.player)}@pbem",
             f"DTSTAMP:{stamp}", f"DTSTART:{start}", f"DTEND:{start}",
             f"SUMMARY:{game}: turn {sheet.turn} orders due",
             f"DESCRIPTION:Orders for {game} turn {sheet.turn} are {_ics_text(sheet.due)}.",
             *alarms, "END:VEVENT", "END:VCALENDAR"]
    return {f"{slug(sheet.game)}-turn-{sheet.turn}.ics": "".join(_folded(line) for line in lines)}


def _ics_time(moment: datetime) -> str:
    return f"{moment.astimezone(timezone.utc):%Y%m%dT%H%M%SZ}"


def _folded(line: str) -> str:
    """A content line folded at 74 characters, each continuation starting with a space (RFC 5545 3.1)."""
    pieces = [line[:74]] + [" " + line[n:n + 73] for n in range(74, len(line), 73)]
    return "".join(piece + "\r\n" for piece in pieces)


def _ics_text(text: str) -> str:
    """A calendar TEXT value: backslash, comma, semicolon and line breaks escaped (RFC 5545 3.3.11)."""
    return (text.replace("\\", "\\\\").replace(",", "\\,").replace(";", "\\;")
            .replace("\r", "").replace("\n", "\\n"))
