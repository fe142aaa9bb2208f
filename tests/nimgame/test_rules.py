"""Nim's own rules, worked by hand (rules.py's docstring): a take of N from one heap, the last object deciding the
game (the misere variant turning it round), the turn clock of every match (D5) and the set-up refused with its
fields."""
from __future__ import annotations

from datetime import datetime, timedelta, timezone

import pytest

from pbem.dm.base import Action, Config, SetupError
from pbem.engine.vocabulary import Termination

from .rules import Ending, Nim

T0 = datetime(2026, 12, 1, 8, 0, tzinfo=timezone.utc)
NIM = Nim()


def new(heaps: list[int], variant: str | None = None, **options) -> object:
    return NIM.new_state(Config("nim", ("ann", "bob"), variant, {"heaps": heaps, **options}))


def take(state, player: str, text: str, at: datetime | None = None):
    return NIM.apply(state, Action(player, {"take": text}, at))


def test_a_take_leaves_the_rest_of_the_heap_and_passes_the_turn():
    state = take(new([3, 4, 5]), "ann", "2 from A")  # 3 - 2 = 1 left in A
    assert NIM.render_data(state)["heaps"] == {"A": 1, "B": 4, "C": 5} and state.to_move == "bob"
    assert NIM.check(state, Action("ann", {"take": "1 from B"})) == "it is bob's turn, not ann's"


@pytest.mark.parametrize("text, reason", [
    ("2 from A", "heap A holds 1: take 1 to 1, not 2"),
    ("0 from B", "heap B holds 4: take 1 to 4, not 0"),
    ("1 from D", "a take is N from HEAP (heaps A-C), like 'take: 2 from B', not '1 from D'"),
    ("all of it", "a take is N from HEAP (heaps A-C), like 'take: 2 from B', not 'all of it'"),
])
def test_a_take_of_more_than_the_heap_holds_or_from_no_heap_is_refused(text, reason):
    state = take(new([3, 4, 5]), "ann", "2 from A")
    assert NIM.check(state, Action("bob", {"take": text})) == reason


def test_whoever_takes_the_last_object_wins_and_in_misere_loses():
    ann_last = take(take(new([2]), "ann", "1 from A"), "bob", "1 from A")  # bob takes the last one
    assert NIM.result(ann_last).winner == "bob" and NIM.result(ann_last).termination is Ending.LAST_OBJECT
    misere = take(take(new([2], "misere"), "ann", "1 from A"), "bob", "1 from A")
    assert NIM.result(misere).winner == "ann" and NIM.is_over(misere)


def test_a_turn_has_a_day_and_out_of_time_loses():
    """The default clock: 24 h a turn, no reserve. Ann's take at T0 starts bob's day; his take a second after it ends
    counts as his loss on time (D5)."""
    state = take(new([3, 4, 5]), "ann", "1 from A", T0)
    deadline = NIM.deadline(state)
    assert deadline.at == T0 + timedelta(hours=24) and deadline.waiting == "bob"
    late = take(state, "bob", "1 from B", T0 + timedelta(hours=24, seconds=1))
    assert NIM.result(late).winner == "ann" and NIM.result(late).termination is Termination.OUT_OF_TIME


def test_a_bad_set_up_is_refused_naming_each_field():
    with pytest.raises(SetupError) as refused:
        new([3, 0], "fast")
    assert [field for field, _ in refused.value.problems] == ["variant", "options.heaps"]
    assert "not [3, 0]" in refused.value.problems[1][1]
