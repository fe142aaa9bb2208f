"""Words that cross a layer are enums, checked where they enter; events are told apart by their class, never by
the class's name (issue #26). The stored and printed forms stay the plain words."""
from __future__ import annotations

from dataclasses import dataclass
from datetime import datetime, timezone

import pytest
import yaml

from pbem.engine import events as ev
from pbem.engine.cards import Card
from pbem.engine.events import EVENT_TYPES, Event
from pbem.engine.geometry import Dir, Square
from pbem.engine.vocabulary import Cause, MissingOrders, Mode
from pbem.formats.canonical import dumps, from_data, to_data
from pbem.formats.schedule import Process, ScheduleError, parse_schedule, schedule_of
from pbem.mail.letters import Letter, LetterKind
from pbem.render.model import describe, fate_note, stage_table
from tests.render_support import position, robot, room


def test_a_stored_event_s_mode_comes_back_as_the_enum_and_a_misspelt_one_is_refused():
    event = ev.Reinstated(0, "Zapper", Square(2, 3), Dir.E, Mode.VIRTUAL, 10)  # B9: reinstated virtual
    data = to_data(event)
    assert data["mode"] == "virtual" and type(data["mode"]) is str  # the stored word stays plain
    assert from_data(ev.Reinstated, data).mode is Mode.VIRTUAL
    assert from_data(ev.RebootEnded, {"stage": 0, "robot": "Zapper", "mode": "real"}).mode is Mode.REAL
    with pytest.raises(ValueError, match="virtul"):
        from_data(ev.Reinstated, {**data, "mode": "virtul"})


def test_a_cause_is_stored_as_its_word_and_reads_the_same_back_from_the_store():
    hit = ev.Damaged(1, "Rusty", 1, Cause.ROBOT_LASER, "Zapper", 9)  # B6b.5: a robot's own laser
    blocked = ev.Obstacle(1, "Rusty", Square(2, 2), Dir.N, Cause.ROBOT, "Zapper")  # B6.3: a robot that cannot move
    for event, text in [(hit, "-1 HP (Zapper's laser)"), (blocked, "obstacle: robot Zapper (N of r2c2)")]:
        data = to_data(event)
        assert type(data["cause"]) is str
        stored = from_data(type(event), data)  # the store gives the cause back as plain text
        assert describe(event) == describe(stored) == text


def test_a_misspelt_process_is_refused_naming_the_option_and_its_words():
    with pytest.raises(ScheduleError, match=r"^--process: 'al-in': one of all-in, deadline$"):
        parse_schedule("5d", process="al-in")
    with pytest.raises(ScheduleError, match="--process"):
        schedule_of({"deadline": "5d", "timezone": "UTC", "remind": [24], "process": ["all-in"]})


def test_the_process_is_the_enum_inside_and_the_plain_word_outside():
    schedule = parse_schedule("fri 20:00", process="all-in")
    assert schedule.process is Process.ALL_IN
    data = schedule.to_data()
    assert type(data["process"]) is str and data["process"] == "all-in"
    assert yaml.safe_load(yaml.safe_dump(data)) == data  # the game file writes it as YAML
    assert schedule_of(data) == schedule


@pytest.mark.parametrize("text, kind", [
    ("game: Botwars-1\nplayer: alice\n", LetterKind.ORDERS),
    ("match: gyul-7\naction: north\n", LetterKind.DM),
    ("Hello, when is the next turn?", LetterKind.NONE),
    (None, LetterKind.NONE),
])
def test_a_letter_s_kind_is_read_from_its_first_field(text, kind):
    letter = Letter("k", 10, "a@example.org", "orders", None, datetime(2026, 11, 27, tzinfo=timezone.utc),
                    orders=text)
    assert letter.kind is kind
    assert dumps({"kind": letter.kind}) == dumps({"kind": kind.value})  # stored and printed as the plain word


def test_the_missed_orders_policy_reaches_the_note_as_the_enum():
    hand = {"Zapper": [Card(500, "FWD1")]}
    assert "robot pilot" in fate_note(hand, MissingOrders.BOT)[0]  # B4.6 bot
    assert "stand still" in fate_note(hand, MissingOrders.IDLE)[0]  # B4.6 idle
    assert fate_note(hand, MissingOrders.FILL)[-1] == "  Zapper: FWD1#500"  # B4.6 fill: the hand's first cards


def test_events_are_sorted_into_the_report_rows_by_class_not_by_class_name(monkeypatch):
    """A plug-in's event class that happens to share a name with an engine event is not that event: it is not a
    card played (CARDS row) and does not start the mechanisms part of the stage (MECHANISMS row)."""
    monkeypatch.setitem(EVENT_TYPES, "CardPlayed", ev.CardPlayed)  # restored after the plug-in class registers
    monkeypatch.setitem(EVENT_TYPES, "Conveyed", ev.Conveyed)

    @dataclass(frozen=True)
    class CardPlayed(Event):
        note: str

    @dataclass(frozen=True)
    class Conveyed(Event):
        note: str

    the_room = room("3x3")
    start = position(the_room, robot("Zapper", "r2c2"))
    card = Card(500, "FWD1")
    events = [ev.CardPlayed(1, "Zapper", 1, card), CardPlayed(1, "Zapper", "plug-in A"),
              Conveyed(1, "Zapper", "plug-in B"), ev.Moved(1, "Zapper", card, Square(2, 2), Square(1, 2), Dir.N)]
    rows = {row.label: row.cells[0] for row in stage_table(1, start, start, events).rows}
    assert rows["CARDS"] == ["FWD1#500"]
    assert rows["MOVE"] == ["CardPlayed: note=plug-in A", "Conveyed: note=plug-in B", "r2c2 → r1c2"]
    assert rows["MECHANISMS"] == ["—"]
