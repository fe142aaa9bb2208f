"""Replies as real clients write them (#34): the player's lines on top, then the client's separator and the message
it answers, unquoted (Outlook) or quoted, as whole CRLF quoted-printable messages through the real fetch path.
Everything below the separator is the GM's own mail, never orders — for campaign orders and death-match actions
alike."""
from __future__ import annotations

import json
import mailbox
from email.message import EmailMessage
from email.policy import SMTP

import pytest
from dm_desk import Desk, reply_block
from mail_fixtures import new_campaign, orders_text
from typer.testing import CliRunner

from pbem.cli import app

RUNNER = CliRunner()
# the mail being answered, as a client pastes it under the separator: lines with and without colons, as the GM's
ORIGINAL = ("halls, turn 1: turn sheet for alice\r\n\r\nZapper: real, HP 10, up to 9 cards\r\nDeadline: Tuesday "
            "1 December, 20:00 UTC\r\nIf it passes: the turn is played\r\n\r\nYour order file (edit the programs "
            "and send it back):\r\n")

SEPARATORS = {
    "outlook-original-message": "-----Original Message-----\r\nFrom: Game Master <gm@example.org>\r\n"
                                "Sent: Tuesday, December 1, 2026 8:00 PM\r\nTo: Alice <alice@example.org>\r\n"
                                "Subject: halls, turn 1\r\n\r\n",
    "outlook-en": "________________________________\r\nFrom: Game Master <gm@example.org>\r\n"
                  "Sent: Tuesday, December 1, 2026 8:00 PM\r\nTo: Alice <alice@example.org>\r\n"
                  "Subject: halls, turn 1\r\n\r\n",
    "outlook-en-date": "From: Game Master <gm@example.org>\r\nDate: Tuesday, 1 December 2026 at 20:00\r\n"
                       "To: Alice <alice@example.org>\r\nSubject: halls, turn 1\r\n\r\n",
    "outlook-de": "Von: Game Master <gm@example.org>\r\nGesendet: Dienstag, 1. Dezember 2026 20:00\r\n"
                  "An: Alice <alice@example.org>\r\nBetreff: halls, turn 1\r\n\r\n",
    "outlook-fr": "De : Game Master <gm@example.org>\r\nEnvoyé : mardi 1 décembre 2026 20:00\r\n"
                  "À : Alice <alice@example.org>\r\nObjet : halls, turn 1\r\n\r\n",
    "outlook-es": "De: Game Master <gm@example.org>\r\nEnviado: martes, 1 de diciembre de 2026 20:00\r\n"
                  "Para: Alice <alice@example.org>\r\nAsunto: halls, turn 1\r\n\r\n",
    "outlook-hu": "Feladó: Game Master <gm@example.org>\r\nElküldve: 2026. december 1., kedd 20:00\r\n"
                  "Címzett: Alice <alice@example.org>\r\nTárgy: halls, turn 1\r\n\r\n",
    "gmail-wrapped": "On Tue, 1 Dec 2026 at 20:00, Game Master <gm@example.org>\r\nwrote:\r\n\r\n",
    "apple": "On 1 Dec 2026, at 20:00, Game Master <gm@example.org> wrote:\r\n\r\n",
    "gmail-de": "Am Di., 1. Dez. 2026 um 20:00 Uhr schrieb Game Master <gm@example.org>:\r\n\r\n",
    "gmail-fr": "Le mar. 1 déc. 2026 à 20:00, Game Master <gm@example.org> a écrit :\r\n\r\n",
    "gmail-es": "El mar, 1 dic 2026 a las 20:00, Game Master (<gm@example.org>) escribió:\r\n\r\n",
    "gmail-forward": "---------- Forwarded message ---------\r\nFrom: Game Master <gm@example.org>\r\n"
                     "Date: Tue, 1 Dec 2026 at 20:00\r\nSubject: halls, turn 1\r\n\r\n",
    "thunderbird-forward": "-------- Forwarded Message --------\r\nSubject: \thalls, turn 1\r\n"
                           "Date: \tTue, 1 Dec 2026 20:00:00 +0000\r\n\r\n",
    "apple-forward": "Begin forwarded message:\r\n\r\nFrom: Game Master <gm@example.org>\r\n"
                     "Subject: halls, turn 1\r\n\r\n",
}


def client_reply(sender: str, lines: str, separator: str, message_id: str) -> bytes:
    """The player's lines, the separator, the original unquoted: CRLF, quoted-printable, as Outlook sends it."""
    message = EmailMessage(policy=SMTP)
    message["From"], message["To"] = sender, "Game Master <gm@example.org>"
    message["Subject"], message["Message-ID"] = "RE: halls, turn 1", message_id
    body = lines.replace("\n", "\r\n").rstrip("\r\n") + "\r\n" + separator + ORIGINAL
    message.set_content(body, cte="quoted-printable")
    data = message.as_bytes()
    assert b"\r\n" in data and b"quoted-printable" in data
    return data


@pytest.mark.parametrize("client", sorted(SEPARATORS))
def test_campaign_orders_above_a_clients_reply_separator_are_accepted(client, tmp_path, monkeypatch):
    monkeypatch.chdir(tmp_path)
    url, hands = new_campaign(tmp_path)
    inbox = mailbox.Maildir(str(tmp_path / "inbox"), create=True)
    inbox.add(client_reply("Alice <alice@example.org>", orders_text("alice", hands["alice"]), SEPARATORS[client],
                           f"<{client}@alice>"))
    result = RUNNER.invoke(app, ["--db", url, "mail", "fetch", "--maildir", str(tmp_path / "inbox"), "--json"])
    [handled] = json.loads(result.stdout)
    assert (handled["outcome"], handled["player"]) == ("accepted", "alice"), handled["reasons"]


@pytest.mark.parametrize("client", sorted(SEPARATORS))  # every client, as for campaign orders
def test_a_match_action_above_a_clients_reply_separator_is_accepted(client, tmp_path):
    desk = Desk(tmp_path)
    made = desk.pbem("dm", "new", "m", "--game", "takebacktoe", "--player", "ann", "--player", "bob", "--seed", "1",
                     "--option", "start=2026-12-01T20:00:00Z", "--out", desk.folder, now="20:00:00")
    assert made.exit_code == 0, made.output
    for player in ("ann", "bob"):
        assert desk.pbem("mail", "dm-player", "m", player, f"{player}@example.org", "--secret", f"{player}-s",
                         now="20:00:00").exit_code == 0
    opening = {to: text for to, _, text in desk.new_mail()}
    data = client_reply("ann <ann@example.org>", reply_block(opening["ann@example.org"]), SEPARATORS[client],
                        "<reply@ann>")
    (desk.inbox / "new" / "1.mail").write_bytes(
        b"Received: from mx.example.org by gm.example.org; Tue, 01 Dec 2026 20:00:30 +0000\r\n" + data)
    desk.run("20:01:00")
    acks = [(subject, text) for to, subject, text in desk.new_mail() if to == "ann@example.org"]
    assert any("action accepted" in text for _, text in acks), acks
    assert desk.position("m")["position"]["to_move"] == "bob"


def test_orders_written_into_a_forwarded_sheet_are_read_below_its_marker():
    """A player who forwards their sheet with the orders filled in (tests/mail/clients/forwarded-sheet.eml): the
    orders start below the marker, and run to the next separator."""
    from pbem.mail.letters import orders_in_body

    body = ("Orders below.\n\n---------- Forwarded message ---------\nFrom: GM <gm@example.org>\nDate: Tue, 1 Dec\n\n"
            "game: halls\nturn: 1\n\n-----Original Message-----\nFrom: GM <gm@example.org>\nSent: Monday\n"
            "game: other\n")
    assert orders_in_body(body).strip() == "game: halls\nturn: 1"
