"""The rule scenario suite (tests/scenarios/): pbem's executable rulebook.

Every file is one hand-worked turn (DESIGN.md "Rule scenario"). Each runs
through the engine's scenario checker as its own test, id = path relative to
tests/scenarios. Files listed in tests/scenarios/DISPUTES.md are scenarios whose
expectation the engine does not meet yet while RULES.md says the scenario is
right: they are strict xfails, so the suite stays green and a fix shows up.
"""
from __future__ import annotations

import re
from pathlib import Path

import pytest
import yaml

from pbem.engine.cards import standard_cards, upgrade_cards
from pbem.formats.scenario import check_scenario

SCENARIOS = Path(__file__).parent / "scenarios"
FILES = sorted(SCENARIOS.rglob("*.yaml"))
IDS = [str(path.relative_to(SCENARIOS)) for path in FILES]

# Rule ids every scenario together must cite: the leaves of B2-B12 plus these of Part G.
PART_G_IDS = {"G3", "G6", "G7"}
# B4.7 (replacing a submission before processing) is about order handling, which a
# one-turn board cannot show; tests/test_orders* own it.
NOT_ON_A_BOARD = {"B4.7"}


def _disputed() -> dict[str, str]:
    """DISPUTES.md rows `| file | rule | expected | got | why |` -> file: reason."""
    path = SCENARIOS / "DISPUTES.md"
    if not path.exists():
        return {}
    rows = {}
    for line in path.read_text(encoding="utf-8").splitlines():
        cells = [c.strip().strip("`") for c in line.strip().strip("|").split("|")]
        if len(cells) >= 5 and cells[0].endswith(".yaml"):
            rows[cells[0]] = f"{cells[1]}: expected {cells[2]}, engine gives {cells[3]}"
    return rows


DISPUTED = _disputed()


def _params():
    for path, ident in zip(FILES, IDS):
        marks = [pytest.mark.xfail(strict=True, reason=DISPUTED[ident])] if ident in DISPUTED else []
        yield pytest.param(path, id=ident, marks=marks)


def _load(path: Path) -> dict:
    """The file as plain data, parsed by libyaml where PyYAML has it (7x the pure-Python parser, same data)."""
    with path.open(encoding="utf-8") as handle:
        return yaml.load(handle, Loader=getattr(yaml, "CSafeLoader", yaml.SafeLoader))


@pytest.mark.parametrize("path", list(_params()))
def test_scenario(path: Path) -> None:
    """RULES as cited in the file: the engine's resolution matches the hand-worked `expect`."""
    differences = check_scenario(path)
    assert not differences, f"{path.relative_to(SCENARIOS)}:\n" + "\n".join(map(str, differences))


def test_enough_scenarios() -> None:
    assert len(FILES) >= 130


def test_disputes_name_existing_files() -> None:
    assert set(DISPUTED) <= set(IDS), set(DISPUTED) - set(IDS)


KNOWN_CARDS = {str(card) for card in standard_cards() + upgrade_cards()}
CARD_TEXT = re.compile(r"^[A-Z0-9]{4}#\d+$")


@pytest.mark.parametrize("path", FILES, ids=IDS)
def test_scenario_shape(path: Path) -> None:
    """Every file has the fields of the format, cites rules, and plays real cards, each at most once per player."""
    data = _load(path)
    turns = data.get("turns") or [data]  # a multi-turn file: each turn its programs, and its expect if any
    for key in ("rules", "title", "ruleset", "robots", "expect" if "turns" not in data else "turns"):
        assert key in data, f"missing {key}"
    assert ("room" in data) != ("rooms" in data), "a room, or (multi-turn) the rooms"
    assert all("programs" in turn for turn in turns), "missing programs"
    assert data["rules"] and all(isinstance(rule, str) for rule in data["rules"])
    names = [robot["name"] for robot in data["robots"]]
    for turn in turns + [data]:
        assert set(turn.get("programs") or {}) <= set(names)
        assert set((turn.get("expect") or {}).get("robots", {})) <= set(names)
    owner = {robot["name"]: robot.get("owner", "") for robot in data["robots"]}
    cards = [(owner[name], card) for turn in turns for name, program in (turn["programs"] or {}).items()
             for card in program]
    cards += [(robot.get("owner", ""), card) for robot in data["robots"]
              for card in (robot.get("registers") or {}).values()]
    for _, text in cards:
        assert CARD_TEXT.match(text) and text in KNOWN_CARDS, f"not a deck card: {text}"
    assert len(cards) == len(set(cards)), "a card is used twice by one player (G2: players draw apart)"
    for robot in data["robots"]:
        assert set(robot.get("registers") or {}) == fused_registers(data, robot.get("hp", 10)), (
            f"{robot['name']}: the fused registers listed do not match its damage (RULES B7.1)")


def fused_registers(data: dict, hp: int) -> set[int]:
    """The registers a robot with this HP has fused at the start of the turn (B7.1 defaults, 10 max HP)."""
    top, first = (9, 1) if data["ruleset"] == "geeko" else (5, 5)
    first = (data.get("ruleset_options") or {}).get("fuse_from_damage", first)
    fused = max(0, 10 - hp - first + 1)
    return set(range(top - fused + 1, top + 1))


RULEBOOK = Path(__file__).parents[1] / "docs" / "rules.md"  # the project's own rulebook, same ids as RULES.md


def required_rule_ids(text: str) -> set[str]:
    """Leaf rule ids of Part B sections B2-B12 (a section with numbered items needs
    the items, one without needs itself), plus G3, G6 and G7."""
    sections = re.findall(r"^### (B(\d+)b?)\b", text, flags=re.MULTILINE)
    items = set(re.findall(r"^- (?:\*\*)?(B\d+b?\.\d+)\b", text, flags=re.MULTILINE))  # `- **B6.1** …` or `- B6.1 …`
    required = set()
    for section, number in sections:
        if not 2 <= int(number) <= 12:
            continue
        own = {item for item in items if item.startswith(section + ".")}
        required |= own or {section}
    return required | PART_G_IDS


def test_rule_ids_all_cited() -> None:
    """Every rule id of the rulebook's B2-B12, G3, G6 and G7 is exercised by some scenario (docs/rules.md ships
    with the project, so this runs in any checkout)."""
    required = required_rule_ids(RULEBOOK.read_text(encoding="utf-8"))
    assert {"B2.1", "B6b.6", "B9", "B12", "G7"} <= required  # the parser found the rulebook's ids
    cited = {rule for path in FILES for rule in _load(path)["rules"]}
    missing = sorted(required - cited - NOT_ON_A_BOARD)
    assert not missing, f"rule ids no scenario cites: {missing}"
