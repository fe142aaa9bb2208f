"""Rooms, positions and the golden-image cases shared by the render tests and their regeneration script."""
from __future__ import annotations

from html.parser import HTMLParser
from pathlib import Path
from types import MappingProxyType

import numpy as np
from PIL import Image

from pbem.engine.geometry import Dir, Size, Square
from pbem.engine.room import Element, Room
from pbem.engine.state import Robot
from pbem.render.model import Position

REFS = Path(__file__).resolve().parent / "render_refs"


def element(element_type: str, at: str, **attrs) -> Element:
    """An element as the room loader builds it (direction fields as `Dir`)."""
    for name in ("side", "wall", "bridge", "dir"):
        if name in attrs:
            attrs[name] = Dir.parse(attrs[name])
    return Element(element_type, Square.parse(at), MappingProxyType(attrs))


def room(size: str, *elements: Element, starts: tuple[str, ...] = (), name: str = "Test room") -> Room:
    return Room(name, Size.parse(size), tuple(Square.parse(s) for s in starts), tuple(elements))


def robot(name: str, at: str | None, facing: str = "N", owner: str = "alice", mode: str = "real",
          hp: int = 10) -> Robot:
    return Robot(name, owner, Square.parse(at) if at else None, Dir.parse(facing), hp, mode)


def position(the_room: Room, *robots: Robot, **states: str) -> Position:
    return Position(the_room, tuple(robots), MappingProxyType(dict(states)))


def _one(element_type: str, state: str | None = None, **attrs) -> Position:
    """A 3x3 room with one element in the middle square (r2c2), in the given state."""
    e = element(element_type, "r2c2", **attrs)
    return position(room("3x3", e), **({e.key: state} if state else {}))


def _robot_case(mode: str, facing: str = "E") -> Position:
    return position(room("3x3"), robot("Robbie", "r2c2", facing, mode=mode))


# name -> position; every element kind in each of its states, and every robot mode (RULES B2.2, B6, B6b, G3, G7)
GOLDEN_CASES: dict[str, Position] = {
    "wall": _one("wall", side="E"),
    "fence": _one("fence", side="E"),
    "pit": _one("pit"),
    "trapdoor-closed": _one("trapdoor", "closed", control="s1"),
    "trapdoor-open": _one("trapdoor", "open", control="s1"),
    "drawbridge-raised": _one("drawbridge", "raised", bridge="N", control="s2"),
    "drawbridge-lowered": _one("drawbridge", "lowered", bridge="N", control="s2"),
    "switch-pressure-off": _one("switch", "off", id="s1", kind="pressure"),
    "switch-pressure-on": _one("switch", "on", id="s1", kind="pressure"),
    "switch-toggle-off": _one("switch", "off", id="s2", kind="toggle"),
    "switch-toggle-on": _one("switch", "on", id="s2", kind="toggle"),
    "eye-off": _one("eye", "off", id="e1", wall="N"),
    "eye-on": _one("eye", "on", id="e1", wall="N"),
    "teleporter-active": _one("teleporter", "active", colour="amber"),
    "teleporter-inactive": _one("teleporter", "inactive", colour="amber"),
    "teleporter-blue": _one("teleporter", "active", colour="blue"),
    "gate-closed": _one("gate", "closed", control="s1"),
    "gate-open": _one("gate", "open", control="s1"),
    "conveyor": _one("conveyor", dir="E"),
    "conveyor-express": _one("conveyor", dir="E", speed=2),
    "conveyor-turning": position(room("3x3", element("conveyor", "r2c1", dir="E"),
                                      element("conveyor", "r2c2", dir="N"))),
    "pusher": _one("pusher", wall="W", stages=[1, 3, 5]),
    "gear-left": _one("gear", turn="left"),
    "gear-right": _one("gear", turn="right"),
    "gear-half": _one("gear", turn="half"),
    "crusher": _one("crusher", stages=[2, 4]),
    "laser": _one("laser", wall="N", beams=1),
    "laser-two-beams": _one("laser", wall="N", beams=2),
    "blaser-on": _one("blaser", "on", wall="N", control="s1"),
    "blaser-off": _one("blaser", "off", wall="N", control="s1"),
    "buzzsaw": _one("buzzsaw"),
    "wrench-1": _one("wrench", count=1),
    "wrench-2": _one("wrench", count=2),
    "armoury": _one("armoury", option="laser"),
    "computer": _one("computer", set="strafe"),
    "flag": _one("flag", number=1),
    "start": position(room("3x3", starts=("r2c2",))),
    "robot-real": _robot_case("real"),
    "robot-facing-south": _robot_case("real", "S"),
    "robot-virtual": _robot_case("virtual"),
    "robot-rebooting": _robot_case("rebooting"),
    "robot-destroyed": _robot_case("destroyed"),
}


def pixels(image: Image.Image) -> np.ndarray:
    return np.asarray(image.convert("RGB"), dtype=np.int16)


def differing_fraction(a: Image.Image, b: Image.Image, threshold: int = 40) -> float:
    """Share of pixels whose largest channel difference exceeds `threshold` (1.0 if sizes differ)."""
    if a.size != b.size:
        return 1.0
    return float((np.abs(pixels(a) - pixels(b)).max(axis=2) > threshold).mean())


SCRIPT = "<script>alert(1)</script>"  # a robot name a player might type


def sample_room() -> Room:
    """6x6: a belt that turns north, a laser along row 1, a toggle switch that opens a trap door."""
    return room("6x6",
                element("conveyor", "r4c1", dir="E"), element("conveyor", "r4c2", dir="E", speed=2),
                element("conveyor", "r4c3", dir="N"), element("laser", "r1c6", wall="E"),
                element("switch", "r5c5", id="s1", kind="toggle"), element("trapdoor", "r2c3", control="s1"),
                element("gear", "r6c3", turn="right"), element("wall", "r5c2", side="N"), element("pit", "r3c4"),
                element("wrench", "r6c6", count=1), starts=("r6c1", "r6c2"), name="Sample Works")


def sample_result():
    """One geeko turn on `sample_room` (RULES B5): Zapper rides the belts and falls through the trap door
    that the other robot's switch opened; the other robot walks into the laser's row."""
    from pbem.engine.cards import Card
    from pbem.engine.elements import new_board
    from pbem.engine.ruleset import get_ruleset
    from pbem.engine.turn import resolve_turn

    zapper = robot("Zapper", "r6c1", "N", owner="alice", hp=9)
    zapper.registers = {9: Card.parse("FWD1#600")}
    board = new_board(sample_room(), [zapper, robot(SCRIPT, "r6c5", "N", owner="alice")])
    programs = {"Zapper": [Card.parse(c) for c in ("FWD2#700", "RT90#80", "FWD1#500")],
                SCRIPT: [Card.parse(c) for c in ("FWD1#490", "FWD3#800", "FWD1#510")]}
    return board, resolve_turn(board, programs, get_ruleset("geeko"), seed=1, turn=1)


def sample_board_turn(players: tuple[str, ...] = ("alice",)):
    from pbem.render.turn import BoardTurn

    board, result = sample_result()
    return BoardTurn("alice — Sample Works", board.room, result.snapshots, result.events, result.board, players)


def write_sample_site(folder: Path) -> Path:
    """A site of one game with two turns of the sample; returns the game's folder."""
    from pbem.render.site import GameHistory, Summary, write_site
    from pbem.render.turn import build_turn_report

    board_turn = sample_board_turn()
    turns = [build_turn_report("Geek-o <2026>", n, [board_turn]) for n in (1, 2)]
    write_site(folder, [GameHistory("Geek-o <2026>", turns, Summary([{"place": 1, "player": "alice", "rooms_done": 2, "turns": None}]))])
    return folder / "Geek-o-2026"


def sample_sheet():
    """A turn sheet as the turn cycle hands it over (pbem.store.turns.TurnSheet's fields)."""
    from types import SimpleNamespace

    from pbem.engine.elements import new_board

    hand = ["FWD3#840", "FWD2#700", "RT90#80", "LF90#70", "UTRN#10", "FWD1#500", "RVS1#430", "FWD1#490"]
    robots = [SimpleNamespace(name="Zapper", mode="real", hp=9, at="r6c1", facing="N", fused={9: "FWD1#600"},
                              receives_cards=True, free_registers=8, no_cards_reason="", usable=hand, registers=9),
              SimpleNamespace(name=SCRIPT, mode="in-transit", hp=10, at=None, facing="N", fused={},
                              receives_cards=False, free_registers=9,
                              no_cards_reason="in transit: 1 turn to go before it is back (G5)", usable=[],
                              registers=9)]
    orders = ("game: Geek-o <2026>\nturn: 2\nplayer: alice\nrobots:\n  Zapper: {program: []}\n")
    board = new_board(sample_room(), [robot("Zapper", "r6c1", "N", owner="alice", hp=9)])
    return SimpleNamespace(game="Geek-o <2026>", turn=2, player="alice", email="alice@example.org",
                           room="Sample Works", robots=robots,
                           hands={"alice": hand}, orders=orders, exact_program=False, board=board,
                           due="due Friday 4 December, 20:00 UTC", equal_lengths=True, option_hp_max=0)


# Pages compared by screenshot with references (tests/render_refs/page-*.png).
SCREENSHOT_PAGES = {"page-stage": "Geek-o-2026/turn-001/stage-3.html", "page-turn-sheet": "sheet.html",
                    "page-report-mail": "mail.html"}


def write_screenshot_pages(folder: Path) -> None:
    from pbem.render.sheet import picture_name, sheet_png, turn_sheet_html

    write_sample_site(folder)
    sheet = sample_sheet()
    (folder / "sheet.html").write_text(turn_sheet_html(sheet), encoding="utf-8")
    (folder / picture_name(sheet)).write_bytes(sheet_png(sheet))
    (folder / "mail.html").write_text(mail_as_shown(sample_board_turn()), encoding="utf-8")


def mail_as_shown(board_turn, player: str = "alice") -> str:
    """A player's report mail's HTML as a mail reader shows it: each cid: picture resolved to its part."""
    from pbem.render.message import message_bytes
    from pbem.render.turn import Recipient, build_turn_report, player_message

    report = build_turn_report("Geek-o <2026>", 1, [board_turn])
    return html_as_shown(message_bytes(player_message(report, Recipient(player, "a@x.org"))))


def html_as_shown(data: bytes) -> str:
    """A message's HTML part as a mail reader shows it: each cid: picture resolved to its part."""
    import base64
    import email
    import re
    from email import policy

    message = email.message_from_bytes(data, policy=policy.default)
    html = message.get_body(("html",)).get_content()
    parts = {p["Content-ID"].strip("<>"): p for p in message.walk() if p["Content-ID"]}
    return re.sub(r'src="cid:([^"]+)"', lambda m: f'src="data:{parts[m[1]].get_content_type()};base64,'
                  f'{base64.b64encode(parts[m[1]].get_content()).decode()}"', html)


class _Links(HTMLParser):
    def __init__(self):
        super().__init__()
        self.targets: list[str] = []

    def handle_starttag(self, tag, attrs):
        for name, value in attrs:
            if name in ("href", "src") and value and not value.startswith(("data:", "#")):
                self.targets.append(value)


def link_targets(page: Path) -> list[str]:
    """Every link and picture a page refers to (data: and #anchors aside)."""
    parser = _Links()
    parser.feed(page.read_text(encoding="utf-8"))
    return parser.targets
