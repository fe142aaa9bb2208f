"""Order lines a mail client hard-wrapped are read as the player wrote them (issue #35): a Geek-o program of
9+9 cards is a 110-column line, and Thunderbird (format=flowed off), Outlook and phones break it at a space."""
from __future__ import annotations

import mailbox
import textwrap
from email.message import EmailMessage
from email.policy import SMTP

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from mail_fixtures import SECRETS, new_campaign
from test_mail_fetch import acks
from typer.testing import CliRunner

from pbem.cli import app
from pbem.formats.orders import parse_orders
from pbem.formats.wrapped import open_after
from pbem.formats.yamlfile import FormatError
from pbem.mail.letters import orders_in_body

RUNNER = CliRunner()
NOW = "2026-01-01T13:00:00Z"


def program_lines(hand: list[str]) -> list[str]:
    """The order file as the builder writes it: one line per robot, 9 cards each."""
    return ["game: halls", "turn: 1", "player: alice", f"secret: {SECRETS['alice']}", "robots:",
            f"  Zapper: {{program: [{', '.join(hand[:9])}]}}", f"  Spanner: {{program: [{', '.join(hand[9:18])}]}}",
            "reboot: []"]


def hard_wrapped(lines: list[str], width: int, indent: str = "") -> str:
    """Each line broken at spaces to `width` columns, as a client does that does not send format=flowed;
    `indent` starts every continuation line."""
    out = []
    for line in lines:
        first = len(line) - len(line.lstrip())
        out += textwrap.wrap(line, width, initial_indent=line[:first], subsequent_indent=indent,
                             break_long_words=False, break_on_hyphens=False) or [""]
    return "\n".join(out) + "\n"


def client_mail(text: str, cte: str, **headers: str) -> bytes:
    """A text/plain message as a mail client sends it: its headers (From, Subject, Message_ID …) and encoding."""
    message = EmailMessage(policy=SMTP)
    message["To"] = "gm@example.org"
    for name, value in headers.items():
        message[name.replace("_", "-")] = value
    message.set_content(text, cte=cte)
    return message.as_bytes()


def thunderbird(body: str) -> bytes:
    """Thunderbird with format=flowed turned off: 7bit text/plain, lines of at most 72 columns."""
    return client_mail(f"Hi GM,\n\n{body}\nAlice\n", "7bit", From="Alice <alice@example.org>", Subject="orders",
                       Message_ID="<tb-1@example.org>",
                       User_Agent="Mozilla/5.0 (X11; Linux x86_64; rv:128.0) Gecko/20100101 Thunderbird/128.5.0")


def outlook(body: str) -> bytes:
    """Outlook's plain text: CRLF lines, quoted-printable, a signature block after the orders."""
    text = f"Hello,\r\n\r\n{body.replace(chr(10), chr(13) + chr(10))}\r\nRegards,\r\nAlice\r\n"
    return client_mail(text, "quoted-printable", From="\"Alice A.\" <alice@example.org>",
                       Subject="RE: [pbem] halls turn 1", Message_ID="<AM0PR01MB1234@EUR01.prod.outlook.com>",
                       X_Mailer="Microsoft Outlook 16.0")


def phone(body: str) -> bytes:
    """A phone's mail app: base64 UTF-8, continuation lines keeping the line's indentation, a sent-from line."""
    return client_mail(f"{body}\nSent from my iPhone\n", "base64", From="alice@example.org", Subject="Re: halls",
                       Message_ID="<ph-1@example.org>", X_Mailer="iPhone Mail (21G93)")


@pytest.mark.parametrize("client, width, indent", [(thunderbird, 72, ""), (outlook, 76, ""), (phone, 60, "    ")])
def test_a_hard_wrapped_geeko_program_is_accepted_by_mail(tmp_path, monkeypatch, client, width, indent):
    monkeypatch.chdir(tmp_path)
    url, hands = new_campaign(tmp_path)
    lines = program_lines(hands["alice"])
    assert max(len(line) for line in lines) > 100
    body = hard_wrapped(lines, width, indent)
    assert max(len(line) for line in body.splitlines()) <= width
    inbox = mailbox.Maildir(str(tmp_path / "inbox"), create=True)
    inbox.add(client(body))
    result = RUNNER.invoke(app, ["--db", url, "--now", NOW, "mail", "fetch", "--maildir", str(tmp_path / "inbox"),
                                 "--json"])
    assert result.exit_code == 0, result.stdout
    [(_, subject, text)] = acks(url)
    assert subject.startswith("[pbem: orders accepted]"), text
    read = " ".join(text.split())  # the acknowledgement is wrapped at 78 columns
    assert f"Zapper: {' '.join(hands['alice'][:9])}" in read and f"Spanner: {' '.join(hands['alice'][9:18])}" in read


def test_turn_check_reads_a_hard_wrapped_file_and_a_later_problem_keeps_its_line(tmp_path):
    url, hands = new_campaign(tmp_path)
    wrapped = hard_wrapped(program_lines(hands["alice"]), 72)
    (tmp_path / "orders.yaml").write_text(wrapped)
    checked = RUNNER.invoke(app, ["--db", url, "turn", "check", "halls", str(tmp_path / "orders.yaml")])
    assert checked.exit_code == 0, checked.stdout
    bad = wrapped.replace("reboot: []", "reboot: [Nobody]")
    (tmp_path / "bad.yaml").write_text(bad)
    refused = RUNNER.invoke(app, ["--db", url, "turn", "check", "halls", str(tmp_path / "bad.yaml")])
    line = bad.splitlines().index("reboot: [Nobody]") + 1
    assert refused.exit_code == 1 and f"bad.yaml:{line}: reboot item 1" in refused.stdout, refused.stdout


def test_a_problem_inside_a_wrapped_list_names_the_line_its_card_is_on():
    body = "game: halls\nturn: 1\nplayer: alice\nrobots:\n  Zapper: {program: [FWD1, FWD2,\nXYZ9, RT90]}\n\nAlice\n"
    order = parse_orders(orders_in_body(body), "mail")
    assert order.submission.programs == {"Zapper": ["FWD1", "FWD2", "XYZ9", "RT90"]}
    assert order.data["robots"]["Zapper"]["program"].line_of(2) == 6


@pytest.mark.parametrize("body, line", [
    ("game: halls\nrobots:\n  Zapper: {program: [FWD1,\nRT90}\nCheers\n", 3),  # `}` closes a `[`
    ("game: halls\nrobots:\n  Zapper: {program: [FWD1,\nRT90\n\nCheers, Alice\n", 3),  # never closed
    ("game: halls\nrobots:\n  Zapper: {program: [FWD1, 'RT90,\nFWD2]}\n", 3),  # a quote left open
])
def test_a_real_error_is_still_refused_on_the_players_line(body, line):
    """What is not a wrapped list is not read as one: YAML refuses it where the player can see why."""
    with pytest.raises(FormatError) as refused:
        parse_orders(orders_in_body(body), "mail")
    assert refused.value.problems[0].line == line, refused.value.problems


def test_the_orders_end_where_they_did_when_no_list_is_open():
    body = "game: halls\nrobots:\n  Zapper: {program: [FWD1]}\nThanks!\nnotes: [x\n"
    assert orders_in_body(body).splitlines()[3:] == []


@settings(max_examples=300, deadline=None)
@given(body=st.text(alphabet=st.sampled_from(list("[]{},:'\"#-|> \n\tab1")), max_size=200),
       open_=st.text(alphabet="[{", max_size=3))
def test_finding_the_orders_never_fails_and_keeps_every_line_number(body, open_):
    lines = ("game: x\n" + body).split("\n")
    kept = orders_in_body("game: x\n" + body).split("\n")[:-1]
    assert all(line in ("", lines[number]) for number, line in enumerate(kept))  # every line where it was
    for line in body.split("\n"):
        after = open_after(line, open_)
        assert after is None or set(after) <= {"[", "{"}
    try:
        parse_orders("\n".join(kept), "fuzz")
    except FormatError:
        pass


@settings(max_examples=150, deadline=None)
@given(programs=st.dictionaries(st.sampled_from(["Zapper", "Spanner", "Bolt"]),
                                st.lists(st.sampled_from(["FWD1#500", "RT90#80", "UTRN#50", "LF90", "640"]),
                                         max_size=9), min_size=1),
       width=st.integers(24, 72), indent=st.sampled_from(["", " ", "    "]))
def test_any_program_wrapped_at_any_width_reads_as_written(programs, width, indent):
    flowed = "game: halls\nturn: 1\nplayer: alice\nrobots:\n" + "".join(
        f"  {name}: {{program: [{', '.join(cards)}]}}\n" for name, cards in programs.items())
    wrapped = hard_wrapped(flowed.splitlines(), width, indent) + "\nCheers,\nAlice\n"
    read = parse_orders(orders_in_body(wrapped), "mail").submission.programs
    assert {name: [str(card) for card in cards] for name, cards in read.items()} == programs
