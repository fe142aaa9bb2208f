"""Whole numbers are bounded where they enter (#28): any spelling YAML 1.1 reads as an integer (decimal, 0x hex,
0 octal, 0b binary, underscores, sexagesimal 1:30, signs), of any size, in orders, rooms, scenarios, transcripts
and DM actions, is read or refused with a problem naming the file, the line and the field — never a traceback."""
from __future__ import annotations

import pytest
from cli_process import run_pbem
from hypothesis import given, settings
from hypothesis import strategies as st
from mail_fixtures import new_campaign

from pbem.formats.yamlfile import MAX_INT, FormatError, load_yaml

HUGE = {"hex": "0x" + "f" * 4000, "octal": "0" + "7" * 4000, "binary": "0b" + "1" * 4000,
        "underscores": "1_" * 3000 + "1", "sexagesimal": "1:" * 3000 + "59", "signed": "-0x" + "f" * 30,
        "decimal": "9" * 5000, "just over": str(MAX_INT + 1)}


def spell(value: int, how: str) -> str:
    """`value` written the way YAML 1.1 reads `how`."""
    sign = "-" if value < 0 else ""
    size = abs(value)
    if how == "hex":
        return f"{sign}0x{size:x}"
    if how == "octal":
        return f"{sign}0{size:o}" if size else "0"
    if how == "binary":
        return f"{sign}0b{size:b}"
    if how == "underscores":
        return sign + "_".join(str(size))
    if how == "sexagesimal":
        parts = []
        while size:
            size, part = divmod(size, 60)
            parts.append(str(part))
        return sign + ":".join(reversed(parts or ["0"])) if len(parts) > 1 else sign + str(abs(value))
    return str(value)


SPELLINGS = ["decimal", "hex", "octal", "binary", "underscores", "sexagesimal"]


@settings(max_examples=300, deadline=None)
@given(st.integers(min_value=-(1 << 80), max_value=1 << 80), st.sampled_from(SPELLINGS))
def test_every_spelling_of_a_whole_number_reads_as_it_or_is_refused_with_its_line_and_field(value, how):
    text = f"game: halls\nrobots:\n  Zapper: {{program: [{spell(value, how)}]}}\n"
    try:
        document = load_yaml(text, "o.yaml")
    except FormatError as err:
        assert abs(value) > MAX_INT
        [problem] = err.problems
        assert str(problem).startswith("o.yaml:3: robots.Zapper.program[1]: ") and "too large" in str(problem)
    else:
        assert abs(value) <= MAX_INT and document["robots"]["Zapper"]["program"] == [value]


@pytest.mark.parametrize("how", sorted(HUGE))
def test_a_huge_number_in_any_spelling_is_a_problem_in_turn_check(tmp_path, how):
    url, _ = new_campaign(tmp_path)
    for field, line in (("turn", "turn: {}"), ("game", "game: {}"), ("secret", "secret: {}"),
                        ("robots.Zapper.program[1]", "robots:\n  Zapper: {{program: [{}]}}")):
        text = "game: halls\nturn: 1\nplayer: alice\nrobots: {}\n"
        key = line.split(":")[0]
        text = "\n".join(line.format(HUGE[how]) if row.startswith(key + ":") else row for row in text.split("\n"))
        if key == "secret":
            text += line.format(HUGE[how]) + "\n"
        (tmp_path / "o.yaml").write_text(text)
        result = run_pbem("--db", url, "turn", "check", "halls", tmp_path / "o.yaml", cwd=tmp_path)
        assert result.returncode == 1 and "Traceback" not in result.stderr, result.stderr
        where = text.split("\n").index(next(row for row in text.split("\n") if HUGE[how] in row)) + 1
        assert f"o.yaml:{where}: {field}: " in result.stdout and "too large" in result.stdout, (field, result.stdout)


def test_a_card_number_of_thousands_of_digits_is_not_a_card(tmp_path):
    url, _ = new_campaign(tmp_path)
    (tmp_path / "o.yaml").write_text("game: halls\nturn: 1\nplayer: alice\nrobots:\n"
                                     f"  Zapper: {{program: [FWD1#{'9' * 5000}]}}\n  Spanner: {{program: []}}\n")
    result = run_pbem("--db", url, "turn", "check", "halls", tmp_path / "o.yaml", cwd=tmp_path)
    assert result.returncode == 1 and "o.yaml:5: robots.Zapper register 1: not a card" in result.stdout


@pytest.mark.parametrize("how", ["hex", "sexagesimal", "decimal"])
def test_a_huge_gyulbot_claim_in_dm_replay_is_a_problem_with_its_line(tmp_path, how):
    (tmp_path / "t.yaml").write_text("game: gyulbot\nplayers: [a, b]\npuzzles:\n"
                                     "  - {size: 4, robots: {red: [r4c1]}, goal: r1c4}\n"
                                     f"actions:\n  - {{player: a, claim: {HUGE[how]}}}\n")
    result = run_pbem("dm", "replay", tmp_path / "t.yaml", cwd=tmp_path)
    assert result.returncode == 1 and "Traceback" not in result.stderr
    assert "t.yaml:6: actions[1].claim: " in result.stdout + result.stderr


@pytest.mark.parametrize("text, where", [
    ("name: r\nsize: 0x{h}x5\nstarts: [r1c1]\nelements: []\n", None),
    ("name: r\nsize: 5x5\nstarts: [r1c1]\nelements:\n  - {{type: wrench, at: r2c2, count: 0x{h}}}\n",
     "r.yaml:5: elements[1].count: "),
    ("name: r\nsize: 5x5\nstarts: [r{d}c1]\nelements: []\n", None),
])
def test_a_huge_number_in_a_room_is_a_problem_in_room_check(tmp_path, text, where):
    (tmp_path / "r.yaml").write_text(text.format(h="f" * 4000, d="9" * 5000))
    result = run_pbem("room", "check", tmp_path / "r.yaml", cwd=tmp_path)
    assert result.returncode == 1 and "Traceback" not in result.stderr, result.stderr
    assert "r.yaml:" in result.stdout + result.stderr
    if where:
        assert where in result.stdout + result.stderr


def test_a_huge_seed_in_a_scenario_is_a_problem_with_its_line(tmp_path):
    (tmp_path / "s.yaml").write_text("rules: [B1]\ntitle: t\nseed: 0b" + "1" * 4000
                                     + "\nroom: {size: 3x3, elements: []}\nrobots: []\nprograms: {}\nexpect: {}\n")
    result = run_pbem("scenario", "check", tmp_path / "s.yaml", cwd=tmp_path)
    assert result.returncode == 1 and "Traceback" not in result.stderr
    assert "s.yaml:3: seed: " in result.stdout + result.stderr
