"""The declarative field reader every input format uses (pbem/formats/fields.py, issue #26): types, ranges,
defaults, unknown fields, a bool is not a number, and every problem of a file at once, each on its line."""
from __future__ import annotations

import pytest
from hypothesis import given
from hypothesis import strategies as st

from pbem.formats.fields import Field, Fields, each, flag, is_whole, mapping, sequence, string, whole, word
from pbem.formats.yamlfile import load_yaml

SPEC = {
    "turn": Field(whole(), missing="missing", null=False),
    "hp": Field(whole("must be {value!r} HP?", least=1, most=10, outside="must be 1 to 10")),
    "quiet": Field(flag(), default=False),
    "name": Field(word(), default="anon"),
}


def read(yaml_text: str, spec: dict[str, Field] = SPEC) -> tuple[dict[str, object], list[str]]:
    fields = Fields("f.yaml")
    values = fields.read(load_yaml(yaml_text, "f.yaml"), spec)
    return values, [str(problem) for problem in fields.problems]


def test_values_as_given_and_defaults_for_the_absent() -> None:
    assert read("turn: 3\nhp: 10\n") == ({"turn": 3, "hp": 10, "quiet": False, "name": "anon"}, [])
    assert read("turn: 0x10\nquiet: yes\nname: 7\n")[0] == {"turn": 16, "hp": None, "quiet": True, "name": 7}


def test_null_is_the_default_unless_the_field_says_otherwise() -> None:
    values, problems = read("turn: null\nquiet: null\n")
    assert values["quiet"] is False and values["turn"] is None
    assert problems == ["f.yaml:1: turn: must be a whole number"]


def test_a_bool_is_not_a_whole_number_nor_a_word() -> None:
    assert not is_whole(True) and not is_whole(False) and is_whole(0) and not is_whole(1.0)
    values, problems = read("turn: true\nname: no\n")
    assert values == {"turn": None, "hp": None, "quiet": False, "name": "anon"}
    assert problems == ["f.yaml:1: turn: must be a whole number", "f.yaml:2: name: must be a name"]


@pytest.mark.parametrize("hp, problem", [("0", "must be 1 to 10"), ("11", "must be 1 to 10"),
                                         ("-0b1", "must be 1 to 10"), ("on", "must be True HP?"),
                                         ("'5'", "must be '5' HP?")])
def test_ranges_and_the_value_in_the_message(hp: str, problem: str) -> None:
    values, problems = read(f"turn: 1\nhp: {hp}\n")
    assert values["hp"] is None and problems == [f"f.yaml:2: hp: {problem}"]


def test_a_missing_field_is_a_problem_on_the_mapping_line() -> None:
    fields = Fields("f.yaml")
    document = load_yaml("top: 1\nnested:\n  hp: 2\n", "f.yaml")
    assert fields.read(document["nested"], {"turn": Field(whole(), missing="missing")}, "nested") == {"turn": None}
    assert [str(p) for p in fields.problems] == ["f.yaml:3: nested.turn: missing"]


def test_unknown_fields_in_file_order_with_the_reader_s_words() -> None:
    fields = Fields("f.yaml")
    document = load_yaml("zeta: 1\nturn: 2\nalpha: 3\n", "f.yaml")
    fields.unknown(document, SPEC, "unknown field (known: turn)", "top")
    assert [str(p) for p in fields.problems] == ["f.yaml:1: top.zeta: unknown field (known: turn)",
                                                 "f.yaml:3: top.alpha: unknown field (known: turn)"]


def test_every_problem_at_once_in_the_spec_s_order() -> None:
    _, problems = read("name: [x]\nquiet: 1\nhp: 99\nextra: 1\n")
    assert problems == ["f.yaml:1: turn: missing", "f.yaml:3: hp: must be 1 to 10",
                        "f.yaml:2: quiet: must be true or false", "f.yaml:1: name: must be a name"]


def test_containers_and_lists_of_items() -> None:
    spec = {"m": Field(mapping("must map")), "s": Field(sequence("must list")), "t": Field(string()),
            "e": Field(each(whole(), "must be whole numbers"), default=[])}
    assert read("m: {a: 1}\ns: [1]\nt: x\ne: 5\n", spec)[0] == {"m": {"a": 1}, "s": [1], "t": "x", "e": [5]}
    values, problems = read("m: [1]\ns: {a: 1}\nt: 5\ne: [1, true]\n", spec)
    assert values == {"m": None, "s": None, "t": None, "e": []}
    assert problems == ["f.yaml:1: m: must map", "f.yaml:2: s: must list", "f.yaml:3: t: must be a name",
                        "f.yaml:4: e: must be whole numbers"]


@given(st.one_of(st.none(), st.booleans(), st.integers(), st.text(max_size=5), st.floats(allow_nan=False),
                 st.lists(st.integers(), max_size=2), st.dictionaries(st.text(max_size=2), st.integers(), max_size=2)))
def test_any_value_reads_or_is_refused_with_a_message(value: object) -> None:
    fields = Fields("f.yaml")
    spec = {"v": Field(whole(least=0, most=5), default=-1)}
    got = fields.read({"v": value}, spec)["v"]
    if value is None:
        assert got == -1 and not fields.problems
    elif is_whole(value) and 0 <= value <= 5:  # type: ignore[operator]
        assert got == value and not fields.problems
    else:
        assert got == -1 and [p.message for p in fields.problems] == ["must be a whole number"]
