"""Acknowledgements that teach: a refused line is quoted with a caret under the field, a right line from the
player's own hand follows, the hand and the deadline close the reply; a mail program's typography is undone."""
from __future__ import annotations

import mailbox
from datetime import datetime, timezone

import pytest
import yaml
from hypothesis import given, settings
from hypothesis import strategies as st
from mail_fixtures import mail, new_campaign, orders_text
from test_mail_fetch import acks
from typer.testing import CliRunner

from pbem.cli import app
from pbem.engine.campaign import check_orders, example_orders
from pbem.engine.orders import Submission
from pbem.formats.orders import parse_orders
from pbem.mail.ack import OrderHelp, explained, time_left
from pbem.mail.letters import plain_typing
from pbem.store.games import Store, current_state, get_game

RUNNER = CliRunner()
HELP = OrderHelp("halls", 1, {"alice": ["FWD1#500", "RT90#80", "FWD2#610"]},
                 {"Zapper": ["FWD1#500"], "Spanner": ["RT90#80"]}, "due Friday 2 January, 20:00 UTC",
                 "1 day 8 hours left")


def caret_under(lines: list[str], quoted: str) -> str:
    """The text of the quoted line that the caret line below it underlines."""
    row = next(i for i, line in enumerate(lines) if line.strip() == quoted.strip())
    carets = lines[row + 1]
    start, end = carets.index("^"), carets.rindex("^") + 1
    return lines[row][start:end]


def test_a_card_problem_quotes_the_line_with_a_caret_under_the_register_and_a_right_line():
    text = "game: halls\nturn: 1\nplayer: alice\nrobots:\n  Zapper: {program: [FWD1, 999]}\n"
    lines = explained(text, "your message", ["your message:5: robots.Zapper register 2: card 999 is not in your hand"],
                      HELP)
    assert lines[0] == "line 5, robots.Zapper register 2: card 999 is not in your hand"
    assert caret_under(lines, "  Zapper: {program: [FWD1, 999]}") == "999"
    intro = lines.index("    A right line from your hand, to copy whole in place of yours:")
    assert lines[intro + 1] == "  Zapper: {program: [FWD1#500]}"  # at the player's own indentation


def test_a_length_problem_underlines_the_whole_program_and_a_key_problem_its_value():
    text = "game: halls\nturn: 7\nplayer: alice\nrobots:\n  Zapper: {program: [FWD1, RT90, FWD2]}\n"
    lines = explained(text, "your message", [
        "your message:2: turn: these orders are for turn 7, but the game is at turn 1",
        "your message:5: robots.Zapper.program: 3 cards but Zapper has 2 free registers (B4.5)"], HELP)
    assert caret_under(lines, "turn: 7") == "7"
    assert "    Expected: `turn: 1`" in lines
    assert caret_under(lines, "  Zapper: {program: [FWD1, RT90, FWD2]}") == "[FWD1, RT90, FWD2]"


def test_a_block_list_register_and_a_reason_without_a_line_are_shown_as_they_can_be():
    text = "game: halls\nrobots:\n  Zapper:\n    program:\n      - FWD1\n      - XYZ\n"
    lines = explained(text, "your message", ["your message:6: robots.Zapper register 2: not a card: 'XYZ'",
                                             "mail for alice must come from alice's own address, not x@y"])
    assert caret_under(lines, "      - XYZ") == "XYZ"
    assert lines[-1] == "mail for alice must come from alice's own address, not x@y"


@pytest.mark.parametrize("text, line, words", [
    ("game: halls\nrobots:\n  Zapper: {program: [FWD1, RT90}\n", 3, "a `]` is missing at the end of the list"),
    ("game: halls\nrobots:\n  Zapper: {program: [FWD1]\n  Spanner: x\n", 3, "a `}` is missing"),
    ("game: halls\nrobots:\n  Zapper: program: [FWD1]\n", 3, "a second `key:` on one line"),
    ("game: halls\nrobots:\n  Zapper: {program: []}\n Spanner: {program: []}\n", 4, "not indented like"),
    ('game: halls\nsecret: "abc\nrobots: {}\n', 2, "a quote opened on this line is never closed"),
])
def test_yaml_syntax_errors_are_said_in_words_on_the_line_to_fix(text, line, words):
    from pbem.formats.orders import parse_orders
    from pbem.formats.yamlfile import FormatError

    with pytest.raises(FormatError) as refused:
        parse_orders(text, "your message")
    [problem] = refused.value.problems
    assert problem.line == line and words in problem.message, problem


def test_a_missing_bracket_is_pointed_at_the_end_of_its_line():
    text = "game: halls\nrobots:\n  Zapper: {program: [FWD1, RT90}\n"
    lines = explained(text, "your message", ["your message:3: a `]` is missing at the end of the list"])
    assert lines[1:3] == ["      Zapper: {program: [FWD1, RT90}", " " * 36 + "^"]


def test_a_long_line_is_cut_to_78_columns_around_its_caret():
    cards = ", ".join(f"FWD1#{n}" for n in range(500, 520))
    text = f"robots:\n  Zapper: {{program: [{cards}, 999]}}\n"
    lines = explained(text, "your message", ["your message:2: robots.Zapper register 21: card 999 is not in your hand"])
    assert max(len(line) for line in lines) <= 78
    assert caret_under(lines, lines[1]) == "999"


def test_typography_a_mail_program_adds_is_read_as_the_plain_characters():
    assert plain_typing("secret: \u201cs-alice\u201d\n\trobots:\u00a0{}\n") == 'secret: "s-alice"\n  robots: {}\n'
    assert plain_typing("it\u2019s") == "it's"


def test_time_left_in_words():
    due = datetime(2026, 1, 3, 20, 0, tzinfo=timezone.utc)
    assert time_left(due, datetime(2026, 1, 2, 11, 0, tzinfo=timezone.utc)) == "1 day 9 hours left"
    assert time_left(due, datetime(2026, 1, 3, 19, 20, tzinfo=timezone.utc)) == "40 minutes left"
    assert time_left(due, datetime(2026, 1, 3, 20, 0, tzinfo=timezone.utc)) == "the deadline has passed"


def test_the_example_programs_from_the_engine_pass_the_engine_check(tmp_path):
    url, _ = new_campaign(tmp_path)
    store = Store(url)
    try:
        with store.session() as session:
            state = current_state(session, get_game(session, "halls"))
    finally:
        store.close()
    for player in ("alice", "bob"):
        examples = example_orders(state, player)
        assert examples and all(examples.values())
        checked = check_orders(state, player, Submission({r: [str(c) for c in cards] for r, cards in examples.items()}))
        assert checked.ok, checked.problems


def test_a_refused_mail_teaches_and_curly_quotes_around_the_secret_are_accepted(tmp_path, monkeypatch):
    monkeypatch.chdir(tmp_path)
    url, hands = new_campaign(tmp_path)
    inbox = mailbox.Maildir(str(tmp_path / "inbox"), create=True)
    bad = orders_text("alice", hands["alice"]).replace("Zapper: {program: [", "Zapper: {program: [999, ")
    inbox.add(mail("alice@example.org", bad, "<t1@x>"))
    curly = orders_text("alice", hands["alice"]).replace("secret: s-alice", "secret: \u201cs-alice\u201d")
    inbox.add(mail("alice@example.org", curly.replace("  Spanner", "\tSpanner"), "<t2@x>"))
    result = RUNNER.invoke(app, ["--db", url, "--now", "2026-01-01T13:00:00Z", "mail", "fetch", "--maildir",
                                 str(tmp_path / "inbox"), "--json"])
    assert result.exit_code == 1, result.stdout
    [(_, _, refused), (_, subject, accepted)] = acks(url)
    lines = refused.splitlines()
    assert any(line.endswith("robots.Zapper register 1: card 999 is not in your hand") for line in lines)
    assert caret_under(lines, next(line for line in lines if "{program: [999" in line)) == "999"
    start = lines.index("    A right line from your hand, to copy whole in place of yours:") + 1
    end = next(n for n in range(start, len(lines)) if lines[n].endswith("]}"))
    right = yaml.safe_load("\n".join(lines[start:end + 1]))  # lines of their own, together one YAML mapping
    assert list(right) == ["Zapper"] and set(right["Zapper"]["program"]) <= set(hands["alice"])
    assert f"Your hand: {' '.join(hands['alice'])}"[:60] in refused
    assert max(len(line) for line in lines) <= 78
    assert subject == "[pbem: orders accepted] orders"



def test_a_right_line_longer_than_78_columns_is_broken_as_yaml_the_order_reader_takes_whole():
    """#38: the right line for a Geek-o robot of nine cards (here with a long name) was wrapped inside its
    backticks; now it stands alone at the player's indentation, broken after a comma with the rest indented, and
    copied whole into the order file in place of the player's line it is read as the program it shows."""
    cards = [f"{kind}#{n}" for kind, n in zip(["FWD1", "RT90", "FWD2", "LF90", "UTRN", "RVS1", "FWD3", "RT90",
                                               "FWD1"], range(110, 990, 100))]
    help = OrderHelp("halls", 1, {"alice": cards}, {"Zapper-the-Magnificent": cards})
    text = "game: halls\nturn: 1\nplayer: alice\nrobots:\n  Zapper-the-Magnificent: {program: [FWD1, 999]}\n"
    lines = explained(text, "your message", ["your message:5: robots.Zapper-the-Magnificent register 2: card 999 is "
                                             "not in your hand"], help)
    start = lines.index("    A right line from your hand, to copy whole in place of yours:") + 1
    right = lines[start:]
    assert len(right) == 2 and all(len(line) <= 78 and "`" not in line for line in right), right
    copied = text.replace("  Zapper-the-Magnificent: {program: [FWD1, 999]}\n", "\n".join(right) + "\n")
    assert [str(c) for c in parse_orders(copied).submission.programs["Zapper-the-Magnificent"]] == cards


def test_the_right_line_comes_once_under_the_first_problem_of_its_robot():
    """Nine refused registers of one robot used to repeat its right line nine times."""
    text = "game: halls\nturn: 1\nplayer: alice\nrobots:\n  Zapper: {program: [999, 998]}\n"
    lines = explained(text, "your message", [f"your message:5: robots.Zapper register {n}: card {c} is not in your "
                                             "hand" for n, c in ((1, 999), (2, 998))], HELP)
    assert lines.count("  Zapper: {program: [FWD1#500]}") == 1
    assert lines.index("  Zapper: {program: [FWD1#500]}") < lines.index("line 5, robots.Zapper register 2: card 998 "
                                                                         "is not in your hand")

@settings(max_examples=200, deadline=None)
@given(text=st.text(max_size=300), line=st.integers(0, 12),
       name=st.sampled_from(["", "robots.Zapper register 3", "robots.Zapper.program", "turn", "reboot item 2", "x"]),
       message=st.text(max_size=60))
def test_any_text_and_reason_is_explained_without_failing(text, line, name, message):
    reason = f"your message:{line}: {name}: {message}" if name else f"your message:{line}: {message}"
    lines = explained(text, "your message", [reason], HELP)
    assert lines and all("\n" not in shown for shown in lines)
