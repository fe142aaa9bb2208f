"""The GM's controls of a running game (issue #22), each through the command line with `--now` on the halls
campaign (alice and bob, secrets s-alice and s-bob, a five-day deadline started at T0): the deadline moved and
told, the clock paused and resumed with the time left, a seat given to a newcomer, addresses changed, absences
under both policies, observers, broadcasts, and the players' mail commands and press read from a Maildir."""
from __future__ import annotations

import json
import mailbox
from datetime import datetime, timedelta, timezone
from email import message_from_bytes, policy

import pytest
import yaml
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from mail_fixtures import mail, new_campaign, order_mail, orders_text
from sqlmodel import Session, create_engine, select
from typer.testing import CliRunner

from pbem.cli import app
from pbem.formats.controls import Control, ControlEntry, controls_text, duration, read_controls, span_text
from pbem.formats.yamlfile import FormatError
from pbem.mail.notices import game_thread
from pbem.store.mail import MailOutgoing, MailReceived

RUNNER = CliRunner()
T0 = datetime(2026, 12, 1, 20, 0, tzinfo=timezone.utc)  # a Tuesday


def at(days: float = 0, hours: float = 0) -> str:
    return (T0 + timedelta(days=days, hours=hours)).isoformat()


@pytest.fixture
def campaign(tmp_path, monkeypatch):
    """(pbem, hands, inbox, url): the halls game dealt, its five-day clock started at T0 by a run."""
    monkeypatch.chdir(tmp_path)
    for name in ("PBEM_MAIL_CONFIG", "PBEM_MAIL_FROM"):
        monkeypatch.delenv(name, raising=False)
    url, hands = new_campaign(tmp_path)
    inbox = mailbox.Maildir(str(tmp_path / "inbox"), create=True)

    def pbem(now: str, *args, code: int | None = 0, input: str | None = None):
        result = RUNNER.invoke(app, ["--db", url, "--now", now, *map(str, args)], input=input)
        assert result.exception is None or isinstance(result.exception, SystemExit), result.exception
        assert code is None or result.exit_code == code, result.output
        return result
    pbem(at(), "game", "set", "halls", "--deadline", "5d", "--remind", "24")
    pbem(at(), "run", "--maildir", tmp_path / "inbox")
    return pbem, hands, inbox, url


def outbox(url: str, purpose: str | None = None) -> list[MailOutgoing]:
    engine = create_engine(url)
    with Session(engine) as session:
        query = select(MailOutgoing).order_by(MailOutgoing.id)
        rows = list(session.exec(query if purpose is None else query.where(MailOutgoing.purpose == purpose)).all())
    engine.dispose()
    return rows


def text_of(row: MailOutgoing) -> str:
    return message_from_bytes(row.data, policy=policy.default).get_body(("plain",)).get_content()


def said(row: MailOutgoing) -> str:
    """The mail's text with its lines joined again (a sentence may be wrapped at 78 columns)."""
    return " ".join(text_of(row).split())


def run(pbem, now: str, tmp_path) -> list[tuple[str, int]]:
    done = json.loads(pbem(now, "run", "--maildir", tmp_path / "inbox", "--json", code=None).stdout)["done"]
    return [(d["what"], d["turn"]) for d in done if d["what"] != "fetched"]


def status(pbem, now: str) -> dict:
    return json.loads(pbem(now, "status", "--json").stdout)["games"][0]


def fetched(url: str) -> list[tuple[str, str, str | None]]:
    engine = create_engine(url)
    with Session(engine) as session:
        rows = [(r.sender, r.outcome, r.player) for r in session.exec(select(MailReceived).order_by(MailReceived.id))]
    engine.dispose()
    return rows


def command(player: str, body: str, message_id: str, *, sender: str | None = None, secret: str | None = None,
            game: str = "halls") -> bytes:
    text = f"game: {game}\nplayer: {player}\nsecret: {secret or 's-' + player}\n{body}\n"
    return mail(sender or f"{player}@example.org", f"Hi,\n\n{text}\n-- \n{player}\n", message_id, "command")


# --- the deadline: extend, pause, resume ---------------------------------------------------------------

def test_extend_moves_the_running_deadline_tells_everyone_and_the_reminders_follow(campaign, tmp_path):
    pbem, _, _, url = campaign
    assert run(pbem, at(4, 1), tmp_path) == [("reminded", 1)]  # 24 h before the first deadline
    moved = json.loads(pbem(at(4, 2), "turn", "extend", "halls", "--by", "24h", "--json").stdout)
    assert moved == {"game": "halls", "turn": 1, "due": at(6)}
    told = outbox(url, "control")
    assert sorted(r.recipient for r in told) == ["alice@example.org", "bob@example.org"]
    assert all("orders are now due Monday 7 December, 20:00 UTC" in said(r) for r in told)
    assert run(pbem, at(4, 23), tmp_path) == []  # an hour before the old deadline: nothing
    assert run(pbem, at(5), tmp_path) == [("reminded", 1)]  # the old deadline is 24 h before the new one: again
    assert len(outbox(url, "reminder")) == 4
    assert run(pbem, at(6), tmp_path) == [("processed", 1), ("dealt", 2)]
    assert "extend" in pbem(at(6), "game", "history", "halls").stdout


def test_extend_is_refused_after_the_deadline_backwards_and_without_a_span(campaign):
    pbem, *_ = campaign
    assert "is not after the deadline" in pbem(at(1), "turn", "extend", "halls", "--to", at(0, 1), code=1).output
    assert "deadline passed" in pbem(at(5, 1), "turn", "extend", "halls", "--by", "1d", code=1).output
    assert "exactly one of" in pbem(at(1), "turn", "extend", "halls", code=2).output
    assert "not a span of time" in pbem(at(1), "turn", "extend", "halls", "--by", "soon", code=2).output
    assert "no game named nope" in pbem(at(1), "turn", "extend", "nope", "--by", "1d", code=1).output


def test_a_paused_game_is_neither_reminded_nor_processed_and_resumes_with_the_time_left(campaign, tmp_path):
    pbem, _, _, url = campaign
    assert "4 days left" in pbem(at(1), "game", "pause", "halls").stdout
    assert status(pbem, at(2))["paused"] == at(1)
    assert "paused" in status(pbem, at(2))["next"]
    assert "turn 1, paused" in pbem(at(2), "status").stdout
    sheets = json.loads(pbem(at(2), "turn", "deal", "halls", "--json").stdout)["sheets"]
    assert {s["due"] for s in sheets} == {"are not due while the game is paused (4 days left when it resumes)"}
    for day in (4.5, 5, 9):
        assert run(pbem, at(day), tmp_path) == []
    assert outbox(url, "reminder") == []
    assert "already paused" in pbem(at(9), "game", "pause", "halls", code=1).output
    assert json.loads(pbem(at(10), "game", "resume", "halls", "--json").stdout)["due"] == at(14)
    assert "not paused" in pbem(at(10), "game", "resume", "halls", code=1).output
    told = [(r.recipient, r.subject) for r in outbox(url, "control")]
    assert ("bob@example.org", "halls: paused") in told and ("alice@example.org", "halls: resumed") in told
    assert run(pbem, at(13, 1), tmp_path) == [("reminded", 1)]
    assert run(pbem, at(14), tmp_path) == [("processed", 1), ("dealt", 2)]


# --- who plays: replace, address, observe ----------------------------------------------------------------

def test_a_replacement_takes_the_seat_with_a_new_secret_and_the_old_address_no_longer_plays(campaign, tmp_path):
    pbem, hands, inbox, url = campaign
    done = json.loads(pbem(at(1), "game", "replace", "halls", "bob", "carol:Carol@Example.net", "--secret", "s-carol",
                           "--json").stdout)
    assert done == {"game": "halls", "seat": "bob", "player": "carol", "email": "carol@example.net",
                    "secret": "s-carol", "was": "bob@example.org",
                    "told": ["carol@example.net", "bob@example.org", "alice@example.org"]}
    sheet = [r for r in outbox(url, "sheet") if r.recipient == "carol@example.net"]
    assert len(sheet) == 1 and 'secret: "s-carol"' in text_of(sheet[0]) and "s-bob" not in text_of(sheet[0])
    told = {r.recipient: r.subject for r in outbox(url, "control")}
    assert told == {"carol@example.net": "halls: you take over bob",
                    "bob@example.org": "halls: carol takes over your seat",
                    "alice@example.org": "halls: carol takes over bob"}
    inbox.add(order_mail("bob", hands["bob"], "<old@bob>"))  # the old player, old address, old secret
    inbox.add(order_mail("bob", hands["bob"], "<new@carol>", sender="carol@example.net", secret="s-bob"))
    run(pbem, at(1, 1), tmp_path)
    assert [o for _, o, _ in fetched(url)] == ["unknown", "refused"]
    inbox.add(order_mail("bob", hands["bob"], "<new2@carol>", sender="carol@example.net", secret="s-carol"))
    run(pbem, at(1, 2), tmp_path)
    assert fetched(url)[-1] == ("carol@example.net", "accepted", "bob")
    shown = json.loads(pbem(at(1, 2), "game", "show", "halls", "--json").stdout)
    assert "Bolt" in json.dumps(shown)  # the robots stay


def test_an_address_change_by_the_gm_and_by_mail_tells_both_addresses(campaign, tmp_path):
    pbem, hands, inbox, url = campaign
    pbem(at(1), "game", "address", "halls", "alice", "alice@home.example")
    assert sorted(r.recipient for r in outbox(url, "control")) == ["alice@example.org", "alice@home.example"]
    assert "already bob's address" in pbem(at(1), "game", "address", "halls", "alice", "bob@example.org",
                                           code=1).output
    inbox.add(command("bob", "address: bob@new.example", "<addr@bob>"))
    run(pbem, at(1, 1), tmp_path)
    assert fetched(url)[-1] == ("bob@example.org", "accepted", "bob")
    changed = [r for r in outbox(url, "control") if "bob" in r.recipient]
    assert sorted(r.recipient for r in changed) == ["bob@example.org", "bob@new.example"]
    assert all("by mail from bob@example.org" in text_of(r) for r in changed)
    inbox.add(order_mail("bob", hands["bob"], "<o1@bob>"))  # from the old address: not a player's any more
    inbox.add(order_mail("bob", hands["bob"], "<o2@bob>", sender="bob@new.example"))
    run(pbem, at(1, 2), tmp_path)
    assert fetched(url)[-2:] == [("bob@example.org", "unknown", None), ("bob@new.example", "accepted", "bob")]


def test_observers_get_the_reports_and_broadcasts_never_sheets(campaign, tmp_path):
    pbem, _, _, url = campaign
    pbem(at(1), "game", "observe", "halls", "Watcher@Example.net")
    assert "observes halls already" in pbem(at(1), "game", "observe", "halls", "watcher@example.net", code=1).output
    (tmp_path / "news.txt").write_text("Welcome to the halls!\nRound two starts Friday.\n", encoding="utf-8")
    assert "3 message(s) queued" in pbem(at(1), "mail", "broadcast", "halls", tmp_path / "news.txt").stdout
    news = [r for r in outbox(url, "control") if r.subject == "halls: from the game master"]
    assert sorted(r.recipient for r in news) == ["alice@example.org", "bob@example.org", "watcher@example.net"]
    heads = [message_from_bytes(r.data, policy=policy.default) for r in news]
    assert {h["References"] for h in heads} == {game_thread("halls")} and len({h["Message-ID"] for h in heads}) == 3
    assert all("Round two starts Friday." in text_of(r) for r in news)
    assert run(pbem, at(5), tmp_path) == [("processed", 1), ("dealt", 2)]
    to_watcher = [r for r in outbox(url) if r.recipient == "watcher@example.net"]
    assert [r.purpose for r in to_watcher] == ["control", "control", "report"]
    assert "s-alice" not in b"".join(r.data for r in to_watcher).decode("latin-1")
    pbem(at(6), "game", "observe", "halls", "watcher@example.net", "--stop")
    assert "does not observe" in pbem(at(6), "game", "observe", "halls", "watcher@example.net", "--stop",
                                      code=1).output
    assert "2 message(s) queued" in pbem(at(6), "mail", "broadcast", "halls", "-", input="Bye\n").stdout


# --- absences ---------------------------------------------------------------------------------------------

def test_an_absence_over_the_deadline_extends_it_once_under_the_extend_policy(campaign, tmp_path):
    pbem, _, _, url = campaign
    pbem(at(1), "game", "away", "halls", "bob", "--from", at(4), "--to", at(7))
    assert status(pbem, at(1))["due"] == at(7)  # the running turn followed at once, to the end of the absence
    subjects = sorted((r.recipient, r.subject) for r in outbox(url, "control"))
    assert ("alice@example.org", "halls: bob is away") in subjects
    assert ("alice@example.org", "halls: turn 1 extended") in subjects
    assert run(pbem, at(7), tmp_path) == [("processed", 1), ("dealt", 2)]
    assert status(pbem, at(7))["due"] == at(12)  # the next turn is not extended again
    assert "is not after --from" in pbem(at(1), "game", "away", "halls", "bob", "--from", at(3), "--to", at(2),
                                         code=1).output
    assert "no player 'zoe'" in pbem(at(1), "game", "away", "halls", "zoe", "--from", at(3), "--to", at(4),
                                     code=1).output


def test_extend_covers_every_turn_due_during_the_absence(campaign, tmp_path):
    """#38: a turn due during the absence "is extended once, to its end" — every such turn, not only the one
    running when `game away` is given; the absent player is never reminded of a deadline inside the absence."""
    pbem, hands, inbox, url = campaign
    pbem(at(0, 1), "game", "set", "halls", "--process", "all-in")
    pbem(at(1), "game", "away", "halls", "bob", "--from", at(1, 1), "--to", at(20))
    assert status(pbem, at(1))["due"] == at(20)
    inbox.add(order_mail("alice", hands["alice"], "<a1@alice>"))
    inbox.add(order_mail("bob", hands["bob"], "<b1@bob>"))
    assert run(pbem, at(2), tmp_path) == [("processed", 1), ("dealt", 2)]
    assert status(pbem, at(2))["due"] == at(20)  # turn 2, due at(7) inside the absence, follows it too
    extended = [r.subject for r in outbox(url, "control") if r.recipient == "alice@example.org"]
    assert extended.count("halls: turn 1 extended") == 1 and extended.count("halls: turn 2 extended") == 1
    assert ("processed", 2) not in run(pbem, at(7, 1), tmp_path)
    reminded = [text_of(r) for r in outbox(url, "reminder") if r.recipient == "bob@example.org"]
    assert all("20:00 UTC" in text and "21 December" in text for text in reminded), reminded


def test_under_the_pilot_policy_the_robot_pilot_plays_an_absent_player_without_orders(campaign, tmp_path):
    pbem, hands, inbox, url = campaign
    assert "absence pilot" in pbem(at(0, 1), "game", "policy", "halls", "--absence", "pilot").stdout
    assert "--absence: 'autopilot' is not one of extend, pilot" in pbem(at(0, 1), "game", "policy", "halls",
                                                                         "--absence", "autopilot", code=2).output
    pbem(at(1), "game", "away", "halls", "bob", "--from", at(2), "--to", at(9))
    assert status(pbem, at(1))["due"] == at(5)  # no extension under this policy
    inbox.add(order_mail("alice", hands["alice"], "<a1@alice>"))
    assert run(pbem, at(5), tmp_path) == [("piloted", 1), ("processed", 1), ("dealt", 2)]
    turn = json.loads(pbem(at(5), "game", "show", "halls", "--json").stdout)
    assert turn  # the game goes on
    assert pbem(at(5), "replay", "halls", "--verify").exit_code == 0  # the pilot's orders are stored: replays agree


# --- the players' mail commands and press ---------------------------------------------------------------

def test_resend_status_and_help_by_mail(campaign, tmp_path):
    pbem, _, inbox, url = campaign
    inbox.add(command("alice", "command: resend", "<c1@alice>"))
    inbox.add(command("alice", "command: status", "<c2@alice>"))
    inbox.add(command("alice", "command: help", "<c3@alice>"))
    inbox.add(command("alice", "command: status", "<c4@alice>", secret="wrong"))
    inbox.add(command("alice", "command: dance", "<c5@alice>"))
    run(pbem, at(1), tmp_path)
    assert [o for _, o, _ in fetched(url)] == ["accepted", "accepted", "accepted", "refused", "refused"]
    resent = [r for r in outbox(url, "sheet") if r.queued_at.replace(tzinfo=timezone.utc) >= T0]
    assert [r.recipient for r in resent] == ["alice@example.org"] and 'secret: "s-alice"' in text_of(resent[0])
    acks = {message_from_bytes(r.data, policy=policy.default)["In-Reply-To"]: text_of(r) for r in outbox(url, "ack")}
    assert "halls, turn 1: due Sunday 6 December, 20:00 UTC." in acks["<c2@alice>"]
    assert "Still missing: alice, bob." in acks["<c2@alice>"]
    assert "command: resend" in acks["<c3@alice>"] and "press: off" in acks["<c3@alice>"]
    assert "turn sheet" in acks["<c3@alice>"] and "match:" not in acks["<c3@alice>"]  # a campaign's words only
    assert "not alice's secret" in acks["<c4@alice>"] and "Still missing" not in acks["<c4@alice>"]
    assert "one of resend, status, help" in acks["<c5@alice>"]


def test_a_mistyped_game_gets_a_reply_that_lists_no_other_game(campaign, tmp_path):
    pbem, hands, inbox, url = campaign
    inbox.add(command("alice", "command: status", "<t1@alice>", game="hals"))
    inbox.add(mail("alice@example.org", orders_text("alice", hands["alice"]).replace("game: halls", "game: hals"),
                   "<t2@alice>"))
    run(pbem, at(1), tmp_path)
    replies = [text_of(r) for r in outbox(url, "ack")[-2:]]
    assert all("no game named hals here" in reply and "halls" not in reply for reply in replies), replies


def test_press_is_refused_when_off_and_relayed_signed_or_anonymous(campaign, tmp_path):
    pbem, _, inbox, url = campaign
    press = "press:\n  to: bob\n  text: |\n    Truce on the east conveyor?\n    Yours, A."
    inbox.add(command("alice", press, "<p1@alice>"))
    run(pbem, at(1), tmp_path)
    assert fetched(url)[-1][1] == "refused" and "has no press" in text_of(outbox(url, "ack")[-1])
    pbem(at(1), "game", "policy", "halls", "--press", "signed")
    inbox.add(command("alice", press, "<p2@alice>"))
    run(pbem, at(1, 1), tmp_path)
    relayed = [r for r in outbox(url, "control") if "press" in r.subject]
    assert [(r.recipient, r.subject) for r in relayed] == [("bob@example.org", "halls: press from alice")]
    assert "alice writes:" in text_of(relayed[0]) and "Truce on the east conveyor?" in text_of(relayed[0])
    assert "goes to bob" in text_of(outbox(url, "ack")[-1])
    pbem(at(2), "game", "policy", "halls", "--press", "anonymous")
    inbox.add(command("bob", "press: {to: all, text: 'No truce.'}", "<p3@bob>"))
    inbox.add(command("bob", "press: {to: zoe, text: 'Hi'}", "<p4@bob>"))
    run(pbem, at(2, 1), tmp_path)
    anonymous = [r for r in outbox(url, "control") if r.subject == "halls: anonymous press"]
    assert [r.recipient for r in anonymous] == ["alice@example.org"] and "bob" not in text_of(anonymous[0])
    assert "zoe is not a player of halls" in text_of(outbox(url, "ack")[-1])
    kept = json.loads(pbem(at(3), "game", "history", "halls", "--json").stdout)
    assert [(k["kind"], k["player"]) for k in kept if k["kind"] == "press"] == [("press", "alice"), ("press", "bob")]


# --- the history is kept by export and import -------------------------------------------------------------

def test_export_and_import_keep_the_controls(campaign, tmp_path):
    pbem, _, _, url = campaign
    pbem(at(1), "game", "policy", "halls", "--press", "signed")
    pbem(at(1), "game", "observe", "halls", "watcher@example.net")
    pbem(at(2), "game", "pause", "halls")
    pbem(at(2), "game", "export", "halls", tmp_path / "out")
    assert (tmp_path / "out" / "controls.yaml").is_file()
    other = f"sqlite:///{tmp_path / 'other.db'}"
    assert RUNNER.invoke(app, ["--db", other, "game", "import", str(tmp_path / "out")]).exit_code == 0
    histories = [json.loads(RUNNER.invoke(app, ["--db", db, "game", "history", "halls", "--json"]).stdout)
                 for db in (url, other)]
    assert histories[0] == histories[1] and [h["kind"] for h in histories[0]] == ["policy", "observe", "pause"]


# --- hostile input -----------------------------------------------------------------------------------------

@given(st.text(max_size=300))
@settings(max_examples=150, deadline=None)
def test_a_controls_file_of_any_text_is_read_or_refused_with_its_problems(text):
    try:
        entries = read_controls(text, "controls.yaml")
    except FormatError as err:
        assert err.problems and all(p.source == "controls.yaml" for p in err.problems)
    else:
        assert all(isinstance(e.kind, Control) for e in entries)


def test_a_controls_file_round_trips_and_a_misspelt_kind_is_named():
    entries = [ControlEntry(T0, Control.AWAY, "bob", {"from": at(1), "to": at(2)}),
               ControlEntry(T0, Control.POLICY, None, {"press": "signed"})]
    assert read_controls(controls_text(entries), "c.yaml") == entries
    with pytest.raises(FormatError) as refused:
        read_controls("- {at: '2026-12-01T20:00:00+00:00', kind: paws, data: {}}\n", "c.yaml")
    assert "c.yaml" in str(refused.value.problems[0]) and "kind" in str(refused.value.problems[0])
    assert duration("1d12h") == timedelta(hours=36) and span_text(timedelta(days=2, minutes=5)) == "2 days 5 minutes"


MAIL_COMMAND = st.fixed_dictionaries({}, optional={
    "game": st.sampled_from(["halls", "hals", 7]), "player": st.sampled_from(["alice", "bob", "zoe", None]),
    "secret": st.sampled_from(["s-alice", "s-bob", ""]),
    "command": st.one_of(st.sampled_from(["resend", "status", "help", "RESEND"]), st.text(max_size=8)),
    "address": st.one_of(st.just("x@new.example"), st.text(max_size=12)),
    "press": st.one_of(st.fixed_dictionaries({"to": st.sampled_from(["bob", "all", ["alice"], 3]),
                                              "text": st.text(max_size=20)}), st.text(max_size=5)),
    "turn": st.integers()})


@given(document=MAIL_COMMAND)
@settings(max_examples=60, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
def test_any_mail_command_is_answered_and_never_breaks_the_inbox(tmp_path_factory, document):
    from pbem.gm.intake import handle
    from pbem.gm.mailcommands import reader
    from pbem.mail.config import MailConfig
    from pbem.mail.inbox import Incoming
    from pbem.store.games import Store

    folder = tmp_path_factory.mktemp("hostile")
    url, _ = new_campaign(folder)
    store = Store(url)
    ordered = {"game": document.get("game", "halls"), **document}  # the `game:` line first, as on a sheet
    data = mail("alice@example.org", yaml.safe_dump(ordered, sort_keys=False, allow_unicode=True), "<h@alice>")
    config = MailConfig(sender="gm@example.org", archive=folder / "archive")
    try:
        with store.session() as session:
            handled = handle(session, Incoming("test", data, lambda: None), config, T0, reader(config.sender))
        assert handled.outcome in ("accepted", "refused")
        assert handled.outcome == "refused" or handled.kind == "command"
        assert not any("could not read this message" in r for r in handled.reasons), handled.reasons
    finally:
        store.close()


# --- press on the site once the game is over ----------------------------------------------------------------

FIELD = """name: Field
size: 5x5
starts: [r5c1, r5c3]
elements:
  - {type: flag, at: r1c5, number: 1}
  - {type: flag, at: r5c5, number: 2}
"""


def test_press_is_shown_on_the_site_once_the_game_is_over_and_not_before(tmp_path, monkeypatch):
    monkeypatch.chdir(tmp_path)
    url = f"sqlite:///{tmp_path / 'race.db'}"

    def pbem(*args, code: int | None = 0):
        result = RUNNER.invoke(app, ["--db", url, "--now", at(), *map(str, args)])
        assert code is None or result.exit_code == code, result.output
        return result
    (tmp_path / "field.yaml").write_text(FIELD, encoding="utf-8")
    pbem("game", "new", "race", "--ruleset", "botwars", "--rooms", "field.yaml", "--seed", "4",
         "--player", "ann:ann@example.org:Red", "--player", "ben:ben@example.org:Blue")
    pbem("game", "policy", "race", "--press", "signed")
    secret = next(p["secret"] for p in json.loads(pbem("game", "show", "race", "--secrets", "--json").stdout)["players"]
                  if p["name"] == "ann")
    inbox = mailbox.Maildir(str(tmp_path / "inbox"), create=True)
    inbox.add(command("ann", "press: {to: ben, text: 'Race you to the flag.'}", "<p@ann>", secret=secret,
                      game="race"))
    pbem("mail", "fetch", "--maildir", tmp_path / "inbox")
    pbem("game", "autoplay", "race", "--turns", "1", "--no-reports")
    pbem("site", "race", "--out", tmp_path / "site")
    running = (tmp_path / "site" / "race" / "index.html").read_text(encoding="utf-8")
    assert json.loads(pbem("game", "show", "race", "--json").stdout)["over"] is False
    assert "Race you to the flag." not in running and "<h2>Press</h2>" not in running
    pbem("game", "autoplay", "race", "--turns", "30", "--no-reports")
    assert json.loads(pbem("game", "show", "race", "--json").stdout)["over"] is True
    pbem("site", "race", "--out", tmp_path / "site")
    page = (tmp_path / "site" / "race" / "index.html").read_text(encoding="utf-8")
    assert "<h2>Press</h2>" in page and "Race you to the flag." in page and "from ann to ben" in page
