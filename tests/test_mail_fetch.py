"""`pbem mail fetch` from a Maildir and an mbox: orders stored as `turn submit` stores them, each message once,
archived whatever happens, authenticated by address and secret, answered with an acknowledgement; DM actions too."""
from __future__ import annotations

import json
import mailbox
import os
from email import message_from_bytes, policy

import pytest
from mail_fixtures import mail, new_campaign, order_mail, orders_text
from sqlmodel import Session, create_engine, select
from typer.testing import CliRunner

from pbem.cli import app
from pbem.store.mail import MailOutgoing

RUNNER = CliRunner()


@pytest.fixture(params=["sqlite", "postgresql"])
def campaign(request, tmp_path, monkeypatch):
    monkeypatch.chdir(tmp_path)
    url, hands = new_campaign(tmp_path, request.getfixturevalue("pg_server").new_database()
                              if request.param == "postgresql" else None)
    inbox = mailbox.Maildir(str(tmp_path / "inbox"), create=True)

    def pbem(*args):
        result = RUNNER.invoke(app, ["--db", url, *[str(a) for a in args]])
        if result.exception is not None and not isinstance(result.exception, SystemExit):
            raise result.exception
        return result.exit_code, result.stdout, result.stderr
    return pbem, hands, inbox, url


def acks(url, purpose: str = "ack") -> list[tuple[str, str, str]]:
    """(recipient, subject, text) of every queued acknowledgement (or notice)."""
    with Session(create_engine(url)) as session:
        rows = session.exec(select(MailOutgoing).where(MailOutgoing.purpose == purpose).order_by(MailOutgoing.id)).all()
    return [(r.recipient, r.subject, _plain(r.data)) for r in rows]


def _plain(data: bytes) -> str:
    """The text a plain-text reader sees, plus the Content-IDs of inline pictures (one line each)."""
    message = message_from_bytes(data, policy=policy.default)
    text = message.get_body(("plain",)).get_content().replace("\r\n", "\n")
    pictures = [f"Content-ID: {part['Content-ID']}" for part in message.walk() if part["Content-ID"]]
    return text + "".join(f"\n{line}" for line in pictures)


def status(pbem) -> dict[str, int | None]:
    return {p["player"]: p["latest"] for p in json.loads(pbem("turn", "status", "halls", "--json")[1])["players"]}


def test_orders_by_mail_are_stored_like_turn_submit_and_acknowledged_with_the_programs_understood(campaign, tmp_path):
    pbem, hands, inbox, url = campaign
    inbox.add(order_mail("alice", hands["alice"], "<1@alice>"))
    code, out, _ = pbem("mail", "fetch", "--maildir", tmp_path / "inbox", "--json")
    handled = json.loads(out)
    assert code == 0 and [(h["outcome"], h["player"], h["game"]) for h in handled] == [("accepted", "alice", "halls")]
    assert status(pbem) == {"alice": 1, "bob": None}
    [(to, subject, text)] = acks(url)
    cards = hands["alice"]
    assert to == "alice@example.org" and subject == "[pbem: orders accepted] orders"
    assert f"  Zapper: {cards[0]} {cards[1]}\n  Spanner: {cards[2]} {cards[3]}\n" in text
    assert len(list(mailbox.Maildir(str(tmp_path / "mail-archive")))) == 1
    assert [m.get_flags() for m in inbox] == ["S"]  # marked read in the inbox
    assert pbem("mail", "fetch", "--maildir", tmp_path / "inbox")[0] == 0  # seen before: nothing happens
    assert status(pbem) == {"alice": 1, "bob": None} and len(acks(url)) == 1


def test_refusals_forged_sender_wrong_or_missing_secret_unknown_sender_bad_cards(campaign, tmp_path):
    pbem, hands, inbox, url = campaign
    inbox.add(order_mail("alice", hands["alice"], "<2@x>", sender="bob@example.org"))  # bob sends alice's orders
    inbox.add(order_mail("alice", hands["alice"], "<3@x>", secret="s-bob"))
    inbox.add(order_mail("alice", hands["alice"], "<4@x>", secret=None))
    inbox.add(order_mail("alice", hands["alice"], "<5@x>", sender="mallory@evil.example"))
    bad = orders_text("bob", hands["alice"][::-1]).replace("Bolt: {program: [", "Bolt: {program: [FWD9, ")
    inbox.add(mail("bob@example.org", bad, "<6@x>"))
    code, out, _ = pbem("mail", "fetch", "--maildir", tmp_path / "inbox", "--json")
    handled = {h["key"].split()[0]: h for h in json.loads(out)}
    assert code == 1 and [h["outcome"] for h in handled.values()] == ["refused"] * 3 + ["unknown", "refused"]
    assert handled["<2@x>"]["reasons"] == ["mail for alice must come from alice's own address, not bob@example.org"]
    assert handled["<3@x>"]["reasons"] == ["your message:8: secret: this is not alice's secret (see your turn sheet)"]
    assert handled["<4@x>"]["reasons"] == ["your message: secret: missing: copy the `secret:` line from your turn sheet"]
    assert "not the address of any player" in handled["<5@x>"]["reasons"][0]
    assert any("robots.Bolt register 1" in r and ":6:" in r for r in handled["<6@x>"]["reasons"])
    assert status(pbem) == {"alice": None, "bob": None}  # nothing stored from a refused message
    recipients = [a[0] for a in acks(url)]
    assert sorted(recipients) == ["alice@example.org", "alice@example.org", "bob@example.org", "bob@example.org"]
    # the stranger is never answered (a forged From would make it backscatter), but listed for the GM
    strangers = json.loads(pbem("mail", "unknown", "--json")[1])
    assert [s["sender"] for s in strangers] == ["mallory@evil.example"]
    assert all("Nothing was stored" in text for _, _, text in acks(url))
    assert len(list(mailbox.Maildir(str(tmp_path / "mail-archive")))) == 5  # every one archived


def test_a_message_that_breaks_something_is_refused_and_the_next_one_still_handled(campaign, tmp_path, monkeypatch):
    pbem, hands, inbox, url = campaign
    from pbem.gm import intake

    real_take_orders = intake.take_orders

    def take_orders(session, name, files, *, store, at):
        if b"Zapper" in files[0][1]:
            raise RuntimeError("disk on fire")
        return real_take_orders(session, name, files, store=store, at=at)
    monkeypatch.setattr(intake, "take_orders", take_orders)
    inbox.add(order_mail("alice", hands["alice"], "<b1@x>"))
    inbox.add(order_mail("bob", hands["bob"], "<b2@x>"))
    code, out, _ = pbem("mail", "fetch", "--maildir", tmp_path / "inbox", "--json")
    handled = {h["key"].split()[0]: h for h in json.loads(out)}
    assert code == 1 and (handled["<b1@x>"]["outcome"], handled["<b2@x>"]["outcome"]) == ("refused", "accepted")
    assert handled["<b1@x>"]["reasons"] == ["pbem could not read this message (RuntimeError: disk on fire); "
                                            "it is kept in the archive for the game master"]
    assert status(pbem) == {"alice": None, "bob": 1} and len(acks(url)) == 2


def test_auto_replies_are_archived_and_refused_but_never_answered(campaign, tmp_path):
    pbem, _, inbox, url = campaign
    inbox.add(b"From: alice@example.org\r\nAuto-Submitted: auto-replied\r\nMessage-ID: <v1@x>\r\n"
              b"Subject: Out of office\r\n\r\nI am away.\r\n")
    code, out, _ = pbem("mail", "fetch", "--maildir", tmp_path / "inbox", "--json")
    assert code == 1 and json.loads(out)[0]["outcome"] == "refused" and acks(url) == []
    assert len(list(mailbox.Maildir(str(tmp_path / "mail-archive")))) == 1


def test_attachment_names_are_never_used_as_paths(campaign, tmp_path):
    pbem, hands, inbox, _ = campaign
    text = orders_text("alice", hands["alice"]).encode()
    inbox.add(mail("alice@example.org", "attached", "<p1@x>", attachments=(("../../escaped.yaml", "text/yaml", text),)))
    code, out, _ = pbem("mail", "fetch", "--maildir", tmp_path / "inbox", "--json")
    assert code == 0 and json.loads(out)[0]["outcome"] == "accepted"
    assert not list(tmp_path.parent.rglob("escaped*")) and not list(tmp_path.rglob("escaped*"))
    [archived] = (tmp_path / "mail-archive" / "new").iterdir()
    assert "escaped" not in archived.name and "../../escaped.yaml" in archived.read_text()


def test_the_same_message_twice_is_handled_once(campaign, tmp_path):
    pbem, hands, inbox, url = campaign
    data = order_mail("bob", hands["bob"], "<7@bob>")
    inbox.add(data)
    inbox.add(data)
    code, out, _ = pbem("mail", "fetch", "--maildir", tmp_path / "inbox", "--json")
    assert [h["outcome"] for h in json.loads(out)] == ["accepted", "duplicate"]
    assert status(pbem) == {"alice": None, "bob": 1} and len(acks(url)) == 1


def test_a_maildir_is_read_in_order_of_delivery_so_the_later_orders_count(campaign, tmp_path):
    """B4.7: the latest accepted orders count, so mail must be handled in the order it arrived."""
    pbem, hands, inbox, _ = campaign
    later = inbox.add(order_mail("alice", hands["alice"], "<o2@alice>"))
    earlier = inbox.add(order_mail("alice", hands["alice"][4:], "<o1@alice>"))
    for key, when in ((earlier, 1_000_000_000), (later, 1_000_000_100)):
        os.utime(tmp_path / "inbox" / "new" / key, (when, when))
    code, out, _ = pbem("mail", "fetch", "--maildir", tmp_path / "inbox", "--json")
    assert code == 0 and [h["key"].split()[0] for h in json.loads(out)] == ["<o1@alice>", "<o2@alice>"]
    assert status(pbem) == {"alice": 2, "bob": None}


def test_two_fetches_at_once_store_a_message_once(campaign, tmp_path, monkeypatch):
    """A second `mail fetch` that read the message before the first recorded it loses at the commit."""
    pbem, hands, inbox, url = campaign
    from pbem.gm import intake as fetch

    monkeypatch.setattr(fetch, "is_known", lambda session, *keys: False)  # as if both runs checked at once
    data = order_mail("bob", hands["bob"], "<c1@bob>")
    inbox.add(data)
    inbox.add(data)
    code, out, _ = pbem("mail", "fetch", "--maildir", tmp_path / "inbox", "--json")
    assert code == 0 and sorted(h["outcome"] for h in json.loads(out)) == ["accepted", "duplicate"], out
    assert status(pbem) == {"alice": None, "bob": 1} and len(acks(url)) == 1


def test_an_mbox_is_read_and_left_as_it_is(campaign, tmp_path):
    pbem, hands, _, url = campaign
    box = mailbox.mbox(str(tmp_path / "in.mbox"))
    box.add(order_mail("alice", hands["alice"], "<8@alice>"))
    box.add(order_mail("bob", hands["bob"], "<9@bob>"))
    box.close()
    before = (tmp_path / "in.mbox").read_bytes()
    code, out, _ = pbem("mail", "fetch", "--mbox", tmp_path / "in.mbox", "--json")
    assert code == 0 and [h["outcome"] for h in json.loads(out)] == ["accepted", "accepted"]
    assert status(pbem) == {"alice": 1, "bob": 1} and (tmp_path / "in.mbox").read_bytes() == before
    assert [h["outcome"] for h in json.loads(pbem("mail", "fetch", "--mbox", tmp_path / "in.mbox", "--json")[1])] \
        == ["duplicate", "duplicate"]


def test_death_match_actions_by_mail_take_the_dm_act_path(campaign, tmp_path):
    pbem, _, inbox, url = campaign
    assert pbem("dm", "new", "m1", "--game", "takebacktoe", "--player", "Red", "--player", "Green",
                "--option", "dice=gm", "--out", tmp_path)[0] == 0
    code, out, _ = pbem("mail", "dm-player", "m1", "Red", "alice@example.org", "--secret", "red-secret", "--json")
    assert code == 0 and json.loads(out)["secret"] == "red-secret"
    assert pbem("mail", "dm-player", "m1", "Green", "bob@example.org")[0] == 0
    assert pbem("mail", "dm-player", "m1", "Blue", "bob@example.org")[0] == 1  # not a player of m1
    rolled = pbem("dm", "roll", "m1", "4", "--json")  # the GM's die; players who play by mail are told
    assert rolled[0] == 0 and json.loads(rolled[1])["mailed"] == ["alice@example.org", "bob@example.org"]
    action = "match: m1\nplayer: Red\nsecret: red-secret\naction: {move: B2-A2}\n"
    inbox.add(mail("alice@example.org", "Move:\n\n" + action, "<d1@x>"))
    inbox.add(mail("alice@example.org", action.replace("B2-A2", "B2-A3"), "<d2@x>"))
    inbox.add(mail("alice@example.org", action.replace("red-secret", "guess"), "<d3@x>"))
    inbox.add(mail("alice@example.org", action.replace("{move", "{roll: 6, move"), "<d4@x>"))
    code, out, _ = pbem("mail", "fetch", "--maildir", tmp_path / "inbox", "--json")
    handled = {h["key"].split()[0]: h for h in json.loads(out)}
    assert handled["<d1@x>"]["outcome"] == "accepted" and handled["<d1@x>"]["kind"] == "dm"
    assert handled["<d2@x>"]["outcome"] == "refused" and handled["<d2@x>"]["reasons"][0].startswith(
        "action {move: B2-A3}:")
    assert handled["<d3@x>"]["reasons"] == [
        "your message:3: secret: this is not Red's secret (see the game master's mail)"]
    assert handled["<d4@x>"]["reasons"] == [
        "your message:4: action.roll: the GM rolls the die in this match; send only the move"]
    shown = json.loads(pbem("dm", "show", "m1", "--json")[1])
    assert [(s["seq"], s["player"], s["accepted"]) for s in shown["submissions"]] == [
        (1, "GM", True), (2, "Red", True), (3, "Red", False)]
    assert shown["position"]["rows"][0] == [0, 4, 0, 0]
    ack = acks(url)[0][2]
    # the acknowledgement carries the text board, the picture (inline, by Content-ID) and what to do next
    assert "Action 2 of m1 by Red: {move: B2-A2}" in ack and "home of Red" in ack
    assert "Nothing to send now" in ack and "Content-ID: <position.png@pbem>" in ack
    assert handled["<d1@x>"]["notified"] == ["bob@example.org"]
    notices = [(to, subject) for to, subject, _ in acks(url, "notice")]
    assert notices == [("alice@example.org", "[pbem] m1: your Take-Back-Toe match begins"),  # at dm-player
                       ("bob@example.org", "[pbem] m1: your Take-Back-Toe match begins"),
                       ("bob@example.org", "[pbem] m1: the GM rolled 4"), ("alice@example.org", "[pbem] m1: the GM rolled 4"),
                       ("bob@example.org", "[pbem] m1: Red has acted")]
