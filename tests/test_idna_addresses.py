"""Non-ASCII domains (#37): `alice@exämple.org` is accepted at `game new`, at `game address` and by the `address:`
mail command, kept as written, and sent over SMTP with its domain in IDNA's ASCII form (`xn--exmple-cua.org`) —
to a loopback server that offers no SMTPUTF8, headers all ASCII; her mail from either form of the address is
hers. What IDNA cannot write in ASCII (a snowman domain, a space) is refused, saying what an address must be."""
from __future__ import annotations

import json
import mailbox
from email import message_from_bytes, policy

import pytest
from mail_fixtures import mail
from mail_servers import SmtpServer, spring_game

A_LABEL = "xn--exmple-cua.org"  # exämple.org in IDNA 2008, from RFC 5891's algorithm by hand: ä at 2 → "cua"


@pytest.fixture
def gm(tmp_path, tmp_path_factory, monkeypatch):
    return (*spring_game(tmp_path, tmp_path_factory, monkeypatch, "alice@exämple.org"), tmp_path)


def players(pbem) -> dict[str, dict]:
    return {p["name"]: p for p in json.loads(pbem("game", "show", "spring", "--secrets", "--json").stdout)["players"]}


def test_a_non_ascii_domain_is_kept_as_written_and_sent_in_ascii_without_smtputf8(gm):
    pbem, cert, key, port, _ = gm
    assert players(pbem)["alice"]["email"] == "alice@exämple.org"
    assert pbem("turn", "deal", "spring").exit_code == 0
    smtp = SmtpServer(cert, key, port=port).start()  # no SMTPUTF8
    try:
        sent = pbem("mail", "send", "--game", "spring", "--json")
    finally:
        smtp.stop()
    assert sent.exit_code == 0, sent.output
    assert sorted(m["recipient"] for m in json.loads(sent.stdout)["messages"]) == ["alice@exämple.org",
                                                                                    "bob@example.org"]
    assert sorted(to[0] for _, to, _ in smtp.messages) == [f"alice@{A_LABEL}", "bob@example.org"]
    data = next(data for _, to, data in smtp.messages if to == [f"alice@{A_LABEL}"])
    head = data.split(b"\r\n\r\n")[0]
    assert head.isascii() and message_from_bytes(data, policy=policy.default)["To"] == f"alice@{A_LABEL}"


def test_game_address_and_the_address_mail_command_take_a_non_ascii_domain(gm):
    pbem, _, _, _, folder = gm
    assert pbem("game", "address", "spring", "bob", "bob@bücher.example").exit_code == 0
    inbox = mailbox.Maildir(str(folder / "inbox"), create=True)
    secret = players(pbem)["alice"]["secret"]
    body = f"game: spring\nplayer: alice\nsecret: {secret}\naddress: alice@exämple.net\n"
    inbox.add(mail(f"Alice <alice@{A_LABEL}>", body, "<move@alice>"))  # her client wrote the ASCII form
    fetched = pbem("mail", "fetch", "--maildir", folder / "inbox", "--json")
    assert [h["outcome"] for h in json.loads(fetched.stdout)] == ["accepted"], fetched.output
    assert {name: p["email"] for name, p in players(pbem).items()} == {"alice": "alice@exämple.net",
                                                                        "bob": "bob@bücher.example"}


@pytest.mark.parametrize("address", ["alice@☃.example", "alice@exä mple.org", "alice@exämple"])
def test_what_idna_cannot_write_in_ascii_is_refused_saying_what_an_address_is(gm, address):
    pbem, *_ = gm
    result = pbem("game", "address", "spring", "bob", address)
    assert result.exit_code == 1
    assert "is not a plain mail address" in result.output and "a dotted domain that IDNA can write in ASCII" \
        in result.output
