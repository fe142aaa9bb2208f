"""Reading incoming messages: where the orders are, what is ignored, what is refused; mail settings."""
from __future__ import annotations

from datetime import datetime, timezone

import pytest
from mail_fixtures import mail

from pbem.formats.yamlfile import FormatError
from pbem.mail.ack import acknowledgement
from pbem.mail.config import MailConfig, load_config
from pbem.mail.letters import clean, orders_in_body
from pbem.mail.letters import read_letter as read_letter_at

READ_AT = datetime(2026, 11, 24, 12, 0, tzinfo=timezone.utc)


def read_letter(data: bytes, max_bytes: int):
    return read_letter_at(data, max_bytes, READ_AT)

ORDERS = "game: halls\nturn: 1\nplayer: alice\nsecret: s-alice\nrobots:\n  Zapper: {program: [FWD1]}\n"


def test_quoted_text_greeting_and_signature_are_blanked_keeping_the_body_line_numbers():
    body = ("Hi,\n> game: quoted\n\n" + ORDERS + "\nThanks a lot\n-- \nAlice\n> robots: {}\n")
    text = orders_in_body(body)
    lines = text.split("\n")
    assert lines[3] == "game: halls"  # line 4 of the body, as the player sees it
    assert lines[:3] == ["", "", ""]
    assert "Thanks" not in text and "Alice" not in text and "quoted" not in text
    assert text.strip().endswith("Zapper: {program: [FWD1]}")


def test_orders_written_in_a_reply_above_the_quoted_turn_sheet_are_read():
    body = ORDERS + "\nOn Sunday the GM wrote:\n> game: halls\n> turn: 1\n"
    assert orders_in_body(body).strip() == ORDERS.strip()


def test_a_yaml_attachment_is_preferred_to_the_body_and_text_before_game_is_dropped():
    pasted = ("halls — turn 1 — alice\nHand: FWD1#500\n\n" + ORDERS).encode()
    letter = read_letter(mail("alice@example.org", "see attachment", "<m1@x>",
                              attachments=(("../../etc/passwd.yaml", "application/yaml", pasted),)), 10_000)
    assert letter.problems == [] and letter.kind == "orders"
    assert letter.orders.split("\n")[3] == "game: halls"  # still line 4 of the file
    assert letter.source == "attachment ../../etc/passwd.yaml"  # only shown, never opened


def test_a_text_attachment_holding_an_order_file_is_read_whatever_its_name():
    letter = read_letter(mail("alice@example.org", "see attachment", "<m8@x>",
                              attachments=(("notes.txt", "text/plain", b"hello"),
                                           ("orders.txt", "text/plain", ORDERS.encode()))), 10_000)
    assert letter.problems == [] and letter.source == "attachment orders.txt" and letter.orders == ORDERS


def test_non_text_attachments_are_left_unread_and_named_but_the_orders_still_count():
    letter = read_letter(mail("alice@example.org", ORDERS, "<m2@x>",
                              attachments=(("board.png", "image/png", b"\x89PNG..."),)), 10_000)
    assert letter.problems == [] and letter.kind == "orders" and letter.ignored == ["board.png (image/png)"]
    alone = read_letter(mail("alice@example.org", "see the picture", "<m2b@x>",
                             attachments=(("board.png", "image/png", b"\x89PNG..."),)), 10_000)
    assert "no orders found" in alone.problems[0] and "not read: board.png (image/png)" in alone.problems[0]


def test_a_message_over_the_size_limit_is_refused_without_being_parsed():
    data = mail("alice@example.org", ORDERS, "<m3@x>", attachments=(("big.yaml", "text/plain", b"x" * 5000),))
    letter = read_letter(data, 2000)
    assert letter.orders is None and letter.sender == "alice@example.org" and letter.key.startswith("<m3@x> oversize sha256:")
    assert letter.problems == [f"the message is {len(data):,} bytes; the limit is 2,000: "
                               "please send only the order file, as text"]


def test_a_message_without_orders_or_with_two_order_files_is_refused():
    assert "no orders found" in read_letter(mail("a@b.c", "hello", "<m4@x>"), 10_000).problems[0]
    two = (("a.yaml", "text/yaml", ORDERS.encode()), ("b.yml", "text/plain", ORDERS.encode()))
    assert read_letter(mail("a@b.c", "x", "<m5@x>", attachments=two), 10_000).problems == \
        ["2 YAML attachments: send one order file per message"]


def test_the_key_is_the_message_id_or_else_a_digest_of_the_bytes():
    data = mail("a@b.c", ORDERS, "not an id")
    letter = read_letter(data, 10_000)
    assert letter.message_id is None and letter.key.startswith("sha256:")
    assert read_letter(data, 10_000).key == letter.key


def test_player_provided_text_cannot_inject_headers_into_the_acknowledgement():
    data = (b"From: Eve <eve@example.org>\r\nMessage-ID: <m6@x>\r\n"
            b"Subject: =?utf-8?q?hi=0D=0ABcc=3A_victim=40example=2Eorg?=\r\n\r\n" + ORDERS.encode())
    letter = read_letter(data, 10_000)
    assert "\n" not in letter.subject and "\r" not in letter.subject
    ack = bytes(acknowledgement(letter, "GM <gm@example.org>", "orders refused", ["x"]))
    head = ack.split(b"\r\n\r\n")[0].split(b"\r\n")
    assert not any(line.lower().startswith(b"bcc") for line in head)
    assert b"To: eve@example.org" in head and clean("a\x00b\u2028c\td") == "a b c d"


def test_a_forged_from_with_two_addresses_has_no_sender():
    letter = read_letter(b"From: alice@example.org, eve@example.org\r\nMessage-ID: <m7@x>\r\n\r\n" + ORDERS.encode(),
                         10_000)
    assert letter.sender is None


def test_config_file_then_environment_tls_by_default(tmp_path):
    path = tmp_path / "mail.yaml"
    path.write_text("from: GM <gm@example.org>\nimap: {host: imap.example.org, user: gm}\n"
                    "smtp: {host: smtp.example.org, tls: ssl}\n")
    config = load_config(path, {"PBEM_IMAP_PASSWORD": "pw", "PBEM_SMTP_PORT": "2465"})
    assert (config.imap.tls, config.imap.port, config.imap.password) == ("ssl", 993, "pw")
    assert (config.smtp.tls, config.smtp.port, config.sender) == ("ssl", 2465, "GM <gm@example.org>")
    only_env = load_config(None, {"PBEM_SMTP_HOST": "mx", "PBEM_SMTP_USER": "u"})
    assert (only_env.smtp.tls, only_env.smtp.port, only_env.imap) == ("starttls", 587, None)


def test_config_problems_name_the_file_line_and_setting(tmp_path):
    path = tmp_path / "mail.yaml"
    path.write_text("imap:\n  host: x\n  tls: maybe\nsmpt: {}\n")
    with pytest.raises(FormatError) as caught:
        load_config(path, {})
    assert [str(p) for p in caught.value.problems] == [
        f"{path}:4: smpt: unknown setting (known: from, max_bytes, archive, imap, smtp, answer_unknown)",
        f"{path}:3: imap.tls: must be one of ssl, starttls, none"]


@pytest.mark.parametrize("text, problem", [
    ("max_bytes: 999\n", "1: max_bytes: must be a whole number ≥ 1000"),
    ("max_bytes: yes\n", "1: max_bytes: must be a whole number ≥ 1000"),
    ("max_bytes:\n", "1: max_bytes: must be a whole number ≥ 1000"),
    ("answer_unknown: 1\n", "1: answer_unknown: must be true or false"),
])
def test_config_numbers_and_switches_are_checked(tmp_path, text, problem):
    """A bool is no size (YAML reads `yes` as true) and 1 is no switch; an empty value is no default."""
    path = tmp_path / "mail.yaml"
    path.write_text("smtp: {host: mx}\n" + text)
    with pytest.raises(FormatError) as caught:
        load_config(path, {})
    assert [str(p) for p in caught.value.problems] == [f"{path}:{int(problem[0]) + 1}{problem[1:]}"]


def test_config_sizes_and_switches_as_given(tmp_path):
    path = tmp_path / "mail.yaml"
    path.write_text("smtp: {host: mx}\nmax_bytes: 0x1000\nanswer_unknown: yes\n")
    assert (load_config(path, {}).max_bytes, load_config(path, {}).answer_unknown) == (4096, True)
    assert (load_config(None, {"PBEM_SMTP_HOST": "mx"}).max_bytes,
            load_config(None, {"PBEM_SMTP_HOST": "mx"}).answer_unknown) == (MailConfig.max_bytes, False)
