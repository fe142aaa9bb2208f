"""Every reader built on the field reader, given any value in any of its fields (issue #26): it reads the file
or refuses it with problems naming the file, never with a traceback. Two such tracebacks were found while the
readers moved onto `formats/fields.py` (a list as a Flower Field variant; a turn count that is no number next
to `open_turn`); these cases and their neighbours are kept here."""
from __future__ import annotations

import tempfile
from datetime import date, datetime, timezone
from pathlib import Path
from typing import Any, Callable

import pytest
import yaml
from hypothesis import given, settings
from hypothesis import strategies as st

from pbem.formats.decks import parse_deck
from pbem.formats.flowerboard import parse_flower_board
from pbem.formats.game import read_description
from pbem.formats.gyulbot import parse_puzzle
from pbem.formats.orders import parse_orders
from pbem.formats.rooms import check_room_data
from pbem.formats.scenario import load_scenario
from pbem.formats.transcript import parse_transcript, plain
from pbem.formats.yamlfile import FormatError, load_yaml
from pbem.resources import resource_dir

ROOT = Path(__file__).resolve().parent.parent
SCENARIO = ROOT / "tests" / "scenarios" / "movement" / "fwd3_open_floor.yaml"


def _room(data: Any, source: str) -> Any:
    room, problems = check_room_data(data, source)
    if problems:
        raise FormatError(problems)
    return room


def _description(data: Any, source: str) -> Any:
    with tempfile.TemporaryDirectory() as folder:
        (Path(folder) / "game.yaml").write_text(yaml.safe_dump(plain(data), allow_unicode=True))
        return read_description(folder)


READERS: dict[str, tuple[Path, Callable[[Any, str], Any]]] = {
    "orders": (resource_dir("turns") / "botwars" / "turn-001" / "ann.yaml",
               lambda data, source: parse_orders(yaml.safe_dump(data, allow_unicode=True), source)),
    "transcript": (resource_dir("turns") / "dm" / "takebacktoe-example.yaml", parse_transcript),
    "puzzle": (resource_dir("turns") / "dm" / "puzzles" / "gyulbot-8x8-min5.yaml", parse_puzzle),
    "board": (resource_dir("turns") / "dm" / "boards" / "flowerfield-example-board.yaml", parse_flower_board),
    "deck": (resource_dir("decks") / "standard.yaml", parse_deck),
    "room": (resource_dir("rooms") / "botwars" / "foundry.yaml", _room),
    "scenario": (SCENARIO, lambda data, source: load_scenario(data, source, SCENARIO.parent)),
    "game": (resource_dir("turns") / "botwars" / "game.yaml", _description),
}

SCALARS = st.one_of(st.none(), st.booleans(), st.integers(-2**70, 2**70), st.text(max_size=12),
                    st.dates(), st.datetimes(timezones=st.just(timezone.utc)), st.sampled_from(
                        ["r1c1", "r99c99", "5x5", "FWD1#500", "fri 20:00", "classic", "[", "0x1F", "on"]))
VALUES = st.recursive(SCALARS, lambda inner: st.one_of(st.lists(inner, max_size=3),
                                                       st.dictionaries(st.text(max_size=6), inner, max_size=3)),
                      max_leaves=6)


def _document(kind: str) -> dict[str, Any]:
    path, _ = READERS[kind]
    return plain(load_yaml(path.read_text(), str(path)))


def _read(kind: str, document: dict[str, Any]) -> None:
    """Reads `document` as a `kind`; only a FormatError may come out, each problem naming a field or a file."""
    _, reader = READERS[kind]
    text = yaml.safe_dump(document, allow_unicode=True)  # the value as a file would hold it, lines and all
    try:
        reader(load_yaml(text, "x.yaml") if kind != "orders" else yaml.safe_load(text), "x.yaml")
    except FormatError as err:
        assert err.problems and all(p.source for p in err.problems), err.problems


@pytest.mark.parametrize("kind", sorted(READERS))
@settings(max_examples=60, deadline=None)
@given(data=st.data())
def test_any_value_in_any_field_is_read_or_refused(kind: str, data: st.DataObject) -> None:
    document = _document(kind)
    key = data.draw(st.sampled_from(sorted(document) + ["bogus"]), label="field")
    document[key] = data.draw(VALUES, label="value")
    _read(kind, document)


@pytest.mark.parametrize("kind, field, value", [
    ("board", "variant", ["genius4"]), ("board", "variant", {"a": 1}),
    ("game", "turns", "three"), ("game", "turns", datetime(2026, 1, 1, tzinfo=timezone.utc)),
    ("game", "turns", {"a": 1}), ("game", "turns", date(2026, 1, 1)),
])
def test_the_tracebacks_found_on_the_way_are_problems(kind: str, field: str, value: Any) -> None:
    document = _document(kind)
    document[field] = value
    if kind == "game":
        document["open_turn"] = 2
    with pytest.raises(FormatError) as refused:
        _read_raising(kind, document)
    assert field in [p.field for p in refused.value.problems], refused.value.problems


def _read_raising(kind: str, document: dict[str, Any]) -> None:
    _, reader = READERS[kind]
    reader(load_yaml(yaml.safe_dump(document, allow_unicode=True), "x.yaml"), "x.yaml")
