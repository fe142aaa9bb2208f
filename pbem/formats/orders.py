"""Order files (DESIGN.md "Orders"): reading them, finding every problem, and writing them.

A player may paste the whole turn sheet back: anything before the first
`game:` line is ignored (blanked, so line numbers still match the file), and
so is a mail signature after the orders (from a `-- ` line on).
An optional `secret:` carries the player's secret from the turn sheet; the
mail layer requires it (an address alone is easy to forge), files given to
`pbem turn submit` by the GM need none. Structure problems are found here; card problems come from
`engine.orders.check_programs` and get their lines from `lines_for`. Only a file whose game, turn or
player cannot be read is refused at once; its other structure problems are reported with the card problems.
"""
from __future__ import annotations

import json
import re
from dataclasses import dataclass
from typing import Any, Sequence

from ..engine.orders import OrderProblem, Submission
from .fields import Field, Fields, each, flag, string, whole, word
from .yamlfile import MAX_BYTES, FormatError, LinedDict, LinedList, Problem, decode, load_yaml

FIELDS = ("game", "turn", "player", "robots", "reboot", "option_hp", "no_cards", "secret", "name", "notes", "preview")
_START = re.compile(r"^game\s*:", re.MULTILINE)
_SIGNATURE = re.compile(r"^-- ?\r?$", re.MULTILINE)  # a mail signature's separator line (CRLF too)


@dataclass(frozen=True)
class OrderFile:
    source: str
    game: str
    turn: int
    player: str
    submission: Submission
    data: LinedDict  # the parsed document, for line numbers
    text: str  # the whole text, as given
    secret: str | None = None  # the player's secret from the turn sheet (checked by the mail layer)
    format_problems: tuple[Problem, ...] = ()  # found reading the file, but not in the way of checking the cards

    no_cards: bool = False  # the player means every program to be empty (an unedited sheet is refused instead)
    preview: bool = False  # by mail: rehearse these programs and answer with the path, store nothing (issue #24)

    def problems(self, engine_problems: list[OrderProblem], header: Sequence[Problem] = ()) -> list[Problem]:
        """Every problem of the file in line order: the header's, the file's own, and the engine's with this
        file's name and lines."""
        found = list(header) + list(self.format_problems) + [
            Problem(self.source, line_for(self.data, p.path), _field_name(p.path), p.message) for p in engine_problems]
        return sorted(found, key=lambda p: (p.line is None, p.line or 0))

    def unedited(self) -> Problem | None:
        """The turn sheet's order file sent back as it was: no card in any program, no reboot declared, and no
        `no_cards: true`."""
        if self.no_cards or self.submission.reboot or any(self.submission.programs.values()):
            return None
        return Problem(self.source, self.data.line_of("robots"), "robots",
                       "no cards chosen: fill in each robot's program from your hand (to send empty programs on "
                       "purpose, add the line `no_cards: true`)")


_robot_names = each(string(), "must be a list of robot names")
HEADER = {  # without game, turn and player the cards cannot be checked: the file is refused
    "game": Field(word(), missing="missing", null=False),
    "player": Field(word(), missing="missing", null=False),
    "turn": Field(whole(), missing="missing", null=False),
}
CHOICES = {
    "reboot": Field(lambda value: _robot_names(value) if value else [], default=[]),
    "option_hp": Field(whole()),
    "no_cards": Field(flag(), default=False, null=False),
    "preview": Field(flag(), default=False, null=False),
    "secret": Field(word("must be the secret from your turn sheet")),
}


def parse_orders(data: bytes | str, source: str = "<orders>") -> OrderFile:
    """An order file (or a pasted turn sheet) → OrderFile; FormatError lists every structural problem."""
    text = decode(data, source, MAX_BYTES) if isinstance(data, bytes) else data
    if len(text.encode("utf-8")) > MAX_BYTES:
        raise FormatError([Problem(source, None, "", f"more than {MAX_BYTES} bytes")])
    document = load_yaml(_from_game_line(text), source)
    if not isinstance(document, LinedDict):
        raise FormatError([Problem(source, getattr(document, "line", None), "",
                                   "an order file is a mapping with game, turn, player and robots")])
    fields = Fields(source)
    fields.unknown(document, FIELDS, f"unknown field (expected {', '.join(FIELDS[:6])})")
    refused = len(fields.problems)
    header = fields.read(document, HEADER)
    refused -= len(fields.problems)
    programs = _programs(document, fields)
    choices = fields.read(document, CHOICES)
    if refused:
        raise FormatError(fields.problems)
    secret = choices["secret"]
    return OrderFile(source, str(header["game"]), header["turn"], str(header["player"]),
                     Submission(programs, list(choices["reboot"]), choices["option_hp"]), document, text,
                     None if secret is None else str(secret), tuple(fields.problems), choices["no_cards"],
                     choices["preview"])


def _programs(document: LinedDict, fields: Fields) -> dict[str, list[Any]]:
    if "robots" not in document:
        fields.add(document, "robots", "robots", "missing")
        return {}
    robots = document["robots"]
    if robots is None:
        return {}
    if not isinstance(robots, LinedDict):
        fields.add(document, "robots", "robots", "must map each robot's name to {program: [cards]}")
        return {}
    programs: dict[str, list[Any]] = {}
    for name, entry in robots.items():
        field = f"robots.{name}"
        if entry is None:
            programs[str(name)] = []
        elif isinstance(entry, LinedDict):
            fields.unknown(entry, ("program",), "unknown field (expected program)", field)
            program = entry.get("program") or []
            if not isinstance(program, LinedList):
                if program:
                    fields.add(entry, "program", f"{field}.program", "must be a list of cards")
                program = []
            programs[str(name)] = list(program)
        elif isinstance(entry, LinedList):
            programs[str(name)] = list(entry)  # a bare list is the program
        else:
            fields.add(robots, name, field, "must be {program: [cards]}")
    return programs


def _from_game_line(text: str) -> str:
    """The YAML of a mail: blank everything before the first `game:` line (a pasted turn sheet), keeping
    line numbers, and drop a signature (from a `-- ` line on)."""
    match = _START.search(text)
    start = match.start() if match else 0
    signature = _SIGNATURE.search(text, start)
    end = signature.start() if signature else len(text)
    return "\n" * text.count("\n", 0, start) + text[start:end]


def without_secret(text: str) -> str:
    """An order file to share (`game export --no-secrets`): only its YAML (a pasted sheet's preamble and a
    signature may quote the secret), with the top-level `secret:` entry cut out."""
    import yaml

    text = _from_game_line(text)
    try:
        node = yaml.compose(text, Loader=yaml.SafeLoader)
    except yaml.YAMLError:
        node = None
    if not isinstance(node, yaml.MappingNode):
        return text
    for key, value in reversed(node.value):
        if key.value != "secret":
            continue
        if node.flow_style:  # {game: x, secret: y}: the value becomes "" (an empty secret, which no mail carries)
            text = text[:value.start_mark.index] + '""' + text[value.end_mark.index:]
        else:  # its own lines go
            lines = text.splitlines(keepends=True)
            last = value.end_mark.line - (value.end_mark.column == 0)
            text = "".join(lines[:key.start_mark.line] + lines[last + 1:])
    return text


def line_for(document: Any, path: tuple[Any, ...]) -> int | None:
    """The line of the deepest part of `path` found in the document."""
    line, node = getattr(document, "line", None), document
    for part in path:
        if isinstance(node, LinedDict) and part in node:
            line, node = node.line_of(part), node[part]
        elif isinstance(node, LinedList) and isinstance(part, int) and 0 <= part < len(node):
            line, node = node.line_of(part), node[part]
        else:
            break
    return line


def _field_name(path: tuple[Any, ...]) -> str:
    """A problem's field as the player sees it: registers and list items counted from 1, as on the turn sheet
    (`robots.Zapper register 1`, `reboot item 2`)."""
    text = ""
    for number, part in enumerate(path):
        if isinstance(part, int):
            text += f" register {part + 1}" if path[number - 1] == "program" else f" item {part + 1}"
            if path[number - 1] == "program":
                text = text.replace(".program register", " register")
        else:
            text += f".{part}" if text else str(part)
    return text


def order_template(game: str, turn: int, player: str, robots: list[str], *,
                   reboot: bool = True, option_hp: bool = False, secret: str | None = None) -> str:
    """A pre-filled order file for a turn sheet: the player fills in the programs."""
    lines = [f"game: {yaml_scalar(game)}", f"turn: {turn}", f"player: {yaml_scalar(player)}"]
    if secret:  # short lines only: a client that wraps at 72 (or sends format=flowed) must not break one
        lines += ["# the secret proves these orders are yours:", "# keep it, share it with nobody",
                  f"secret: {json.dumps(secret)}"]
    lines.append("robots:")
    lines += [f"  {yaml_scalar(name)}: {{program: []}}" for name in robots] or ["  {}"]
    if reboot:
        lines += ["# robots to reboot next turn:", "reboot: []"]
    if option_hp:
        lines += ["# give up an option at this HP:", "option_hp: 6"]
    return "\n".join(lines) + "\n"


def order_text(game: str, turn: int, player: str, programs: dict[str, list[Any]], reboot: Sequence[str] = (),
               option_hp: int | None = None) -> str:
    """An order file with the programs written out as `KIND#NUMBER` (the robot pilot's, the sample's)."""
    import yaml

    document: dict[str, Any] = {"game": game, "turn": turn, "player": player,
                                "robots": {name: {"program": [str(card) for card in cards]}
                                           for name, cards in programs.items()}}
    if reboot:
        document["reboot"] = list(reboot)
    if option_hp is not None:
        document["option_hp"] = option_hp
    if not reboot and not any(programs.values()):
        document["no_cards"] = True  # empty on purpose (every register fused, say), not an unedited sheet
    return yaml.safe_dump(document, sort_keys=False, default_flow_style=None, allow_unicode=True, width=100)


def yaml_scalar(value: str) -> str:
    """A name as a YAML scalar, quoted where YAML would read it otherwise (`yes`, `123`, `a: b`). A word of letters,
    digits, `_` and `-` that starts with a letter and is no YAML 1.1 boolean or null is written as it is, as PyYAML
    writes it, without loading PyYAML: a due tick writes every robot's name in its sheets (#36)."""
    if _PLAIN_WORD.fullmatch(value) and value.lower() not in _YAML_WORDS:
        return value
    import yaml

    return yaml.safe_dump(value, width=1000).split("\n")[0]


_PLAIN_WORD = re.compile(r"[A-Za-z][A-Za-z0-9_-]*")
_YAML_WORDS = frozenset({"yes", "no", "true", "false", "on", "off", "null"})  # read as booleans or null, any case
