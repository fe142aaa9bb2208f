"""A stored setup's rooms and deck kept between processes (#36: `pbem site` decoded a Geek-o campaign's five YAML
rooms, ~10 ms, every run that drew a turn): with a shelf lent (`pbem.store.shelf`), a fresh process reads them
back without parsing YAML, equal to the parsed ones; a damaged entry is parsed again, a plug-in mechanism keeps
nothing, a room that does not parse is refused every time, and the games of one process still share their rooms."""
from __future__ import annotations

from pathlib import Path
from typing import ClassVar

import pytest

from pbem.cli.shelf import FolderShelf
from pbem.engine.mechanism import MECHANISMS, Mechanism, register
from pbem.formats import yamlfile
from pbem.formats.canonical import canonical_json
from pbem.formats.game import read_description
from pbem.formats.yamlfile import FormatError
from pbem.store import states
from pbem.store.games import setup_document
from pbem.store.shelf import lend

ROOT = Path(__file__).resolve().parent.parent
DOCUMENT = setup_document(read_description(ROOT / "turns" / "geeko"))


def fresh() -> None:
    """As a new process: nothing parsed yet."""
    states.load_setup.cache_clear()
    states._parsed.cache_clear()


@pytest.fixture
def shelf(tmp_path):
    shelf = FolderShelf(tmp_path, "setups", (ROOT / "pbem" / "store",))
    lend(shelf)
    fresh()
    yield shelf
    lend(None)
    fresh()


def no_yaml(monkeypatch) -> None:
    def refused(text, source="<input>"):
        raise AssertionError(f"{source} parsed")
    monkeypatch.setattr(states, "load_yaml", refused)


def test_a_fresh_process_reads_the_rooms_and_deck_back_without_parsing_equal_to_the_parsed(shelf, monkeypatch):
    lend(None)
    parsed = states.load_setup(DOCUMENT)
    fresh()
    lend(shelf)
    states.load_setup(DOCUMENT)  # parsed, then kept
    assert len(list(shelf.folder.iterdir())) == len(parsed.rooms) + 1  # each room and the deck
    fresh()
    no_yaml(monkeypatch)
    kept = states.load_setup(DOCUMENT)
    assert kept == parsed and kept is not parsed
    assert [canonical_json(room) for room in kept.rooms] == [canonical_json(room) for room in parsed.rooms]
    assert [[e.line for e in room.elements] for room in kept.rooms] == \
        [[e.line for e in room.elements] for room in parsed.rooms]  # a room's lines for messages too
    assert [dict(room.lines) for room in kept.rooms] == [dict(room.lines) for room in parsed.rooms]
    assert [e.key for e in kept.rooms[0].elements] == [e.key for e in parsed.rooms[0].elements]
    assert kept.rooms[0].elements[0].get("id") == parsed.rooms[0].elements[0].get("id")


def test_the_games_of_one_process_share_their_rooms(shelf):
    states.load_setup(DOCUMENT)
    fresh()
    first = states.load_setup(DOCUMENT)
    states.load_setup.cache_clear()  # another game's setup with the same rooms
    assert all(a is b for a, b in zip(states.load_setup(DOCUMENT).rooms, first.rooms))


def test_a_damaged_entry_is_parsed_again(shelf):
    parsed = states.load_setup(DOCUMENT)
    for entry in shelf.folder.iterdir():
        entry.write_bytes(b"not a pickle")
    fresh()
    assert states.load_setup(DOCUMENT) == parsed


class Puddle(Mechanism):
    type: ClassVar[str] = "puddle"


def test_with_a_plug_in_mechanism_loaded_nothing_is_kept_or_read(shelf, monkeypatch):
    register(Puddle)
    try:
        states.load_setup(DOCUMENT)
        assert not shelf.folder.exists() or list(shelf.folder.iterdir()) == []
    finally:
        MECHANISMS.pop("puddle")
    fresh()
    states.load_setup(DOCUMENT)  # kept now
    fresh()
    register(Puddle)
    try:
        read = []
        parse = yamlfile.load_yaml
        monkeypatch.setattr(states, "load_yaml", lambda text, source: read.append(source) or parse(text, source))
        states.load_setup(DOCUMENT)
        assert len(read) == 6  # every room and the deck parsed: the plug-in might read them otherwise
    finally:
        MECHANISMS.pop("puddle")


def test_a_room_that_does_not_parse_is_refused_every_time(shelf):
    import json

    document = json.loads(DOCUMENT)
    document["rooms"][0]["text"] = document["rooms"][0]["text"].replace("size:", "sighs:")
    broken = json.dumps(document)
    for _ in range(2):
        fresh()
        with pytest.raises(FormatError) as refused:
            states.load_setup(broken)
        assert document["rooms"][0]["source"] in str(refused.value)
