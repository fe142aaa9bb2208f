"""The GM's autopilot driven through the CLI over simulated weeks (`--now`): schedules checked where they enter,
deadlines on the sheets, reminders once to the players still missing, turns processed at their deadline or as soon
as all orders are in, and a second run at the same moment doing nothing."""
from __future__ import annotations

import json
import mailbox
from datetime import datetime, timedelta, timezone
from email import message_from_bytes, policy

import pytest
from cycle_fixtures import order
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from mail_fixtures import mail, new_campaign, order_mail
from sqlmodel import Session, create_engine, select
from typer.testing import CliRunner

from pbem.cli import app
from pbem.formats.schedule import ScheduleError, due_after, due_text, parse_schedule
from pbem.store.mail import MailOutgoing

RUNNER = CliRunner()
T0 = datetime(2026, 12, 1, 20, 0, tzinfo=timezone.utc)  # a Tuesday


def at(days: float = 0, hours: float = 0) -> str:
    return (T0 + timedelta(days=days, hours=hours)).isoformat()


@pytest.fixture
def campaign(tmp_path, monkeypatch):
    monkeypatch.chdir(tmp_path)
    monkeypatch.delenv("PBEM_MAIL_CONFIG", raising=False)
    url, hands = new_campaign(tmp_path)
    inbox = mailbox.Maildir(str(tmp_path / "inbox"), create=True)

    def pbem(now: str, *args):
        result = RUNNER.invoke(app, ["--db", url, "--now", now, *map(str, args)])
        assert result.exception is None or isinstance(result.exception, SystemExit), result.exception
        return result
    return pbem, hands, inbox, url


def outbox(url: str, purpose: str) -> list[tuple[str, str]]:
    with Session(create_engine(url)) as session:
        rows = session.exec(select(MailOutgoing).where(MailOutgoing.purpose == purpose).order_by(MailOutgoing.id))
        return [(row.recipient, row.subject) for row in rows]


def run(pbem, now: str, tmp_path) -> list[dict]:
    result = pbem(now, "run", "--maildir", tmp_path / "inbox", "--json")
    assert result.exit_code == 0, result.output
    done = json.loads(result.stdout)["done"]
    assert all(d["detail"].startswith("accepted") for d in done if d["what"] == "fetched"), done
    return [(d["what"], d["game"], d["turn"]) for d in done]


def test_schedule_words_are_checked_where_they_enter():
    assert due_after(parse_schedule("5d"), T0) == T0 + timedelta(days=5)
    assert due_after(parse_schedule("5d 08:30", "Europe/Berlin"), T0) == datetime(2026, 12, 6, 7, 30, tzinfo=timezone.utc)
    assert due_after(parse_schedule("fri 20:00"), T0) == datetime(2026, 12, 4, 20, 0, tzinfo=timezone.utc)
    assert due_after(parse_schedule("tue 20:00"), T0) == datetime(2026, 12, 8, 20, 0, tzinfo=timezone.utc)
    assert due_text(datetime(2026, 11, 28, 20, 0, tzinfo=timezone.utc), "UTC") == "due Saturday 28 November, 20:00 UTC"
    for options, option in ((("fry 20:00",), "--deadline"), (("5d", "Mars/Olympus"), "--timezone"),
                            (("2d", "UTC", (72,)), "--remind"), (("5d", "UTC", (24,), "asap"), "--process"),
                            (("5x",), "--deadline"), (("5d 25:00",), "--deadline")):
        with pytest.raises(ScheduleError) as refused:
            parse_schedule(*options)
        assert refused.value.option == option


def test_game_set_refuses_a_bad_option_naming_it(campaign):
    pbem, *_ = campaign
    result = pbem(at(), "game", "set", "halls", "--process", "asap")
    assert result.exit_code == 2 and "--process: 'asap': one of all-in, deadline" in result.stderr
    result = pbem(at(), "game", "set", "halls", "--deadline", "3d", "--remind", "100")
    assert result.exit_code == 2 and "--remind: 100 hours before the deadline" in result.stderr


def test_three_weeks_of_a_game_left_to_the_autopilot(campaign, tmp_path):
    pbem, hands, inbox, url = campaign
    assert pbem(at(), "game", "set", "halls", "--deadline", "5d", "--remind", "24,2", "--process", "all-in").exit_code == 0
    assert run(pbem, at(), tmp_path) == []  # turn 1 was dealt by hand: its clock starts now
    status = json.loads(pbem(at(), "status", "--json").stdout)["games"][0]
    assert status["due"] == at(5) and status["waiting_for"] == ["alice", "bob"]
    assert status["next"] == "process at 2026-12-06 20:00 UTC"

    assert run(pbem, at(4, -1), tmp_path) == []  # 25 hours before: nothing yet
    assert run(pbem, at(4, 1), tmp_path) == [("reminded", "halls", 1)]
    assert run(pbem, at(4, 1), tmp_path) == []  # the same moment again: nothing twice
    inbox.add(order_mail("alice", hands["alice"], "<t1@alice>"))
    assert run(pbem, at(4, 3), tmp_path) == [("fetched", "halls", 0)]
    assert run(pbem, at(4, 23), tmp_path) == [("reminded", "halls", 1)]  # 2 h before: only bob is still missing
    assert sorted(outbox(url, "reminder")) == [
        ("alice@example.org", "halls: turn 1 orders still missing (due Sunday 6 December, 20:00 UTC)"),
        ("bob@example.org", "halls: turn 1 orders still missing (due Sunday 6 December, 20:00 UTC)"),
        ("bob@example.org", "halls: turn 1 orders still missing (due Sunday 6 December, 20:00 UTC)")]

    assert run(pbem, at(5, -0.01), tmp_path) == []  # a minute before the deadline
    assert run(pbem, at(5), tmp_path) == [("processed", "halls", 1), ("dealt", "halls", 2)]
    assert run(pbem, at(5), tmp_path) == []
    assert len(outbox(url, "report")) == 2 and len(outbox(url, "sheet")) == 2  # turn 2's sheets, once each
    with Session(create_engine(url)) as session:
        sheet = session.exec(select(MailOutgoing).where(MailOutgoing.purpose == "sheet")).first()
    text = message_from_bytes(sheet.data, policy=policy.default).get_body(("plain",)).get_content()
    assert "Orders due Friday 11 December, 20:00 UTC." in text

    # turn 2: both players answer in time, so the all-in game is processed at once
    for sheet in json.loads(pbem(at(5, 1), "turn", "deal", "halls", "--json").stdout)["sheets"]:
        hand = sheet["hands"][sheet["player"]]
        programs = {r["name"]: hand[i:i + 1] if r["receives_cards"] else [] for i, r in enumerate(sheet["robots"])}
        text = order("halls", 2, sheet["player"], programs).decode().replace(
            "robots:", f"secret: s-{sheet['player']}\nrobots:")
        inbox.add(mail(f"{sheet['player']}@example.org", text, f"<t2@{sheet['player']}>"))
    done = run(pbem, at(6), tmp_path)
    assert done[-2:] == [("processed", "halls", 2), ("dealt", "halls", 3)]
    assert json.loads(pbem(at(6), "status", "--json").stdout)["games"][0]["due"] == at(11)
    # a week with nobody answering: turn 3 is processed at its deadline, reminders went out once each
    for hours in range(0, 24 * 6, 7):
        run(pbem, at(6, hours), tmp_path)
    assert json.loads(pbem(at(12), "status", "--json").stdout)["games"][0]["turn"] == 4
    assert len([r for r in outbox(url, "reminder") if "turn 3" in r[1]]) == 4  # 24 h and 2 h, each player
    assert pbem(at(12), "replay", "halls", "--verify").exit_code == 0


def test_the_review_hold_previews_to_the_gm_and_approve_stores_exactly_the_preview(campaign, tmp_path):
    pbem, hands, inbox, url = campaign
    assert pbem(at(), "game", "set", "halls", "--deadline", "5d", "--remind", "none", "--review").exit_code == 0
    assert run(pbem, at(), tmp_path) == []
    inbox.add(order_mail("alice", hands["alice"], "<r1@alice>"))
    assert run(pbem, at(5), tmp_path) == [("fetched", "halls", 0), ("held", "halls", 1)]
    assert run(pbem, at(5, 1), tmp_path) == []  # held: nothing stored, nothing sent
    assert [s for _, s in outbox(url, "review")] == ["halls: turn 1 is ready for review"]
    assert outbox(url, "report") == [] and json.loads(pbem(at(5, 1), "turn", "status", "halls", "--json")
                                                      .stdout)["turn"] == 1
    assert (tmp_path / "reports" / "previews" / "halls" / "turn-001" / "index.html").is_file()
    with Session(create_engine(url)) as session:
        from pbem.store.schedule import TurnDeadline
        held = session.exec(select(TurnDeadline)).one().held_hash
    approved = pbem(at(5, 2), "turn", "approve", "halls", "--json")
    assert approved.exit_code == 0, approved.output
    assert [d["what"] for d in json.loads(approved.stdout)] == ["processed", "dealt"]
    with Session(create_engine(url)) as session:
        from pbem.store.tables import Turn
        assert session.exec(select(Turn)).one().after_hash == held
    assert len(outbox(url, "report")) == 2
    assert pbem(at(5, 2), "game", "set", "halls", "--no-review", "--hold", "5").exit_code == 2  # needs --review


def test_an_unreachable_inbox_holds_the_due_turn_until_it_is_read_or_the_gm_says_no_fetch(campaign, tmp_path,
                                                                                           monkeypatch):
    """#22: orders may be sitting in an inbox that cannot be read, so a due turn waits (the run says why, exits 1,
    `pbem status` shows since when); `pbem run --no-fetch` processes it when the GM decides."""
    from mail_servers import reserved_port

    pbem, *_ = campaign
    assert pbem(at(), "game", "set", "halls", "--deadline", "5d").exit_code == 0
    assert run(pbem, at(), tmp_path) == []  # the clock starts
    (tmp_path / "mail.yaml").write_text(f"imap: {{host: 127.0.0.1, port: {reserved_port()}, tls: none, user: gm, "
                                        "password: x, timeout: 2}\n")
    monkeypatch.setenv("PBEM_MAIL_CONFIG", str(tmp_path / "mail.yaml"))
    result = pbem(at(5), "run", "--json")
    done = json.loads(result.stdout)["done"]
    assert result.exit_code == 1 and done[0]["what"] == "problem" and "cannot read the inbox" in done[0]["detail"]
    assert [d["what"] for d in done[1:]] == ["waiting"]  # the due turn waits for the orders in the inbox
    status = json.loads(pbem(at(5, 1), "status", "--json").stdout)
    assert status["inbox"]["failed_since"].startswith(at(5)[:16]) and status["inbox"]["error"]
    assert status["games"][0]["turn"] == 1
    assert "cannot be read since" in pbem(at(5, 1), "status").stdout
    later = pbem(at(5, 2), "run", "--json")
    assert later.exit_code == 1 and [d["what"] for d in json.loads(later.stdout)["done"]] == ["problem", "waiting"]
    forced = pbem(at(5, 3), "run", "--no-fetch", "--json")
    assert forced.exit_code == 0 and [d["what"] for d in json.loads(forced.stdout)["done"]] == ["processed", "dealt"]


def test_the_missed_orders_policy_is_chosen_before_turn_1_and_checked(tmp_path, monkeypatch):
    """RULES B4.6 policy per game: `game new --missing-orders` or `game set --missing-orders` before any turn is
    processed; a wrong word is refused with the allowed ones; once a turn is processed it is refused with why."""
    monkeypatch.chdir(tmp_path)
    url = f"sqlite:///{tmp_path / 'pbem.db'}"
    pbem = lambda *args: RUNNER.invoke(app, ["--db", url, "--now", "2026-12-01T10:00Z", *map(str, args)])
    players = ["--player", "ann:ann@example.org:Rusty", "--player", "ben:ben@example.org:Sparky"]
    for name, missed in (("filled", "idle"), ("idled", "idle")):
        assert pbem("game", "new", name, "--ruleset", "botwars", "--seed", "4", "--missing-orders", missed,
                    *players).exit_code == 0
    banana = pbem("game", "set", "filled", "--missing-orders", "banana")
    assert banana.exit_code == 1 and "banana" in banana.output and "fill" in banana.output
    assert pbem("game", "set", "filled", "--missing-orders", "fill").exit_code == 0
    played = {}
    for name in ("filled", "idled"):  # nobody sends orders
        assert pbem("turn", "deal", name).exit_code == 0
        assert pbem("turn", "process", name, "--out", tmp_path / "reports").exit_code == 0
        summary = (tmp_path / "reports" / name / "turn-001" / "summary.txt").read_text()
        played[name] = summary.count("CardPlayed")
    assert played["filled"] == 10 and played["idled"] == 0  # fill: 5 registers each from the hand; idle: none
    late = pbem("game", "set", "filled", "--missing-orders", "idle")
    assert late.exit_code == 1 and "processed turns" in late.output
    assert pbem("replay", "filled", "--verify").exit_code == 0


def test_a_schedule_given_at_game_new(tmp_path, monkeypatch):
    """#12: the schedule is set at `game new` (and changed with `game set`); a bad option is refused by name."""
    monkeypatch.chdir(tmp_path)
    url = f"sqlite:///{tmp_path / 'pbem.db'}"
    pbem = lambda *args: RUNNER.invoke(app, ["--db", url, "--now", "2026-12-01T10:00Z", *map(str, args)])
    players = ["--player", "ann:ann@example.org:Rusty", "--player", "ben:ben@example.org:Sparky"]
    bad = pbem("game", "new", "bw", "--ruleset", "botwars", "--deadline", "fri 20:00", "--timezone", "Mars/Olympus",
               *players)
    assert bad.exit_code == 2 and "Mars/Olympus" in bad.output
    made = pbem("game", "new", "bw", "--ruleset", "botwars", "--deadline", "fri 20:00", "--timezone",
                "Europe/Berlin", "--remind", "12", "--json", *players)
    assert made.exit_code == 0, made.output
    assert json.loads(made.stdout)["schedule"]["deadline"] == "fri 20:00"
    assert pbem("run").exit_code == 0  # deals turn 1 and starts its clock
    status = json.loads(pbem("status", "--json").stdout)["games"]
    # Tuesday 1 December, 10:00 UTC: the next Friday at least a day after the deal is 4 December, 20:00 Berlin
    assert [(g["game"], g["due"]) for g in status] == [("bw", "2026-12-04T19:00:00+00:00")]


def test_game_set_changes_only_the_options_given_and_export_import_keep_the_schedule(tmp_path, monkeypatch):
    """#22: `game set G --remind 12` keeps the deadline, zone, processing, review and hold; it prints the whole
    schedule; `game export` writes it (and the B4.6 policy) and `game import` brings both back."""
    monkeypatch.chdir(tmp_path)
    url = f"sqlite:///{tmp_path / 'pbem.db'}"
    pbem = lambda *args: RUNNER.invoke(app, ["--db", url, "--now", "2026-12-01T10:00Z", *map(str, args)])
    players = ["--player", "ann:ann@example.org:Rusty", "--player", "ben:ben@example.org:Sparky"]
    assert pbem("game", "new", "bw", "--ruleset", "botwars", "--seed", "4", "--missing-orders", "idle",
                *players).exit_code == 0
    first = pbem("game", "set", "bw", "--deadline", "fri 20:00", "--timezone", "Europe/Berlin", "--process",
                 "all-in", "--review", "--hold", "6")
    assert first.exit_code == 0, first.output
    changed = pbem("game", "set", "bw", "--remind", "12")
    assert changed.exit_code == 0, changed.output
    assert changed.stdout.strip() == (
        "bw: due fri 20:00 (Europe/Berlin), reminders 12 h before, processed at the deadline or when all orders "
        "are in, review on, held until pbem turn approve or 6 h; missing orders: idle (RULES B4.6)")
    expected = {"deadline": "fri 20:00", "timezone": "Europe/Berlin", "remind": [12], "process": "all-in",
                "review": True, "hold_hours": 6}
    assert json.loads(pbem("status", "--json").stdout)["games"][0]["schedule"] == expected
    off = json.loads(pbem("game", "set", "bw", "--no-review", "--json").stdout)
    assert (off["review"], off["hold_hours"], off["deadline"]) == (False, None, "fri 20:00")  # the hold goes too
    assert pbem("game", "set", "bw", "--review", "--hold", "6").exit_code == 0

    assert pbem("game", "export", "bw", tmp_path / "bw-out").exit_code == 0
    other = f"sqlite:///{tmp_path / 'other.db'}"
    imported = RUNNER.invoke(app, ["--db", other, "game", "import", str(tmp_path / "bw-out")])
    assert imported.exit_code == 0, imported.output
    status = json.loads(RUNNER.invoke(app, ["--db", other, "--now", "2026-12-01T10:00Z", "status", "--json"]).stdout)
    assert status["games"][0]["schedule"] == expected
    kept = RUNNER.invoke(app, ["--db", other, "game", "set", "bw", "--json"])
    assert json.loads(kept.stdout)["missing_orders"] == "idle"


def test_a_schedule_in_game_yaml_is_checked_by_name_and_line(tmp_path):
    from pbem.formats.game import read_description
    from pbem.formats.yamlfile import FormatError

    (tmp_path / "room.yaml").write_text("name: R\nsize: 5x5\nstarts: [r5c1, r5c5]\nelements:\n"
                                        "  - {type: flag, at: r1c3, number: 1}\n")
    (tmp_path / "game.yaml").write_text(
        "name: bw\nruleset: botwars\nseed: 1\nrooms: [room.yaml]\ndeck: decks/standard.yaml\n"
        "players:\n  - {name: ann, email: ann@example.org, robots: [Rusty]}\n"
        "schedule:\n  deadline: 5d\n  process: asap\n  review: maybe\n")
    with pytest.raises(FormatError) as refused:
        read_description(tmp_path)
    assert [str(p).split(": ", 1)[1] for p in refused.value.problems] == ["schedule.review: must be true or false"]
    (tmp_path / "game.yaml").write_text((tmp_path / "game.yaml").read_text().replace("maybe", "true"))
    with pytest.raises(FormatError) as refused:
        read_description(tmp_path)
    assert [str(p) for p in refused.value.problems] == [
        f"{tmp_path / 'game.yaml'}:10: schedule.process: 'asap': one of all-in, deadline"]


def test_the_review_hold_is_visible_with_its_expiry_and_the_review_mail_is_not_read_back(campaign, tmp_path):
    """#22: `pbem status` shows the held turn and when the hold ends; the review mail says it too and carries the
    preview report itself (every board, the pictures inline), not a path on the GM's server; landing in the GM's
    own inbox, it is not taken for unknown mail."""
    pbem, hands, inbox, url = campaign
    assert pbem(at(), "game", "set", "halls", "--deadline", "5d", "--remind", "none", "--review", "--hold",
                "12").exit_code == 0
    assert run(pbem, at(), tmp_path) == []
    assert run(pbem, at(5), tmp_path) == [("held", "halls", 1)]
    status = json.loads(pbem(at(5, 1), "status", "--json").stdout)["games"][0]
    assert (status["held_at"], status["hold_expires"]) == (at(5), at(5, 12))
    assert status["next"] == ("held for review since 2026-12-06 20:00 UTC until pbem turn approve halls or "
                              "2026-12-07 08:00 UTC, then process the turn")
    assert "held for review since 2026-12-06 20:00 UTC" in pbem(at(5, 1), "status").stdout

    with Session(create_engine(url)) as session:
        review = session.exec(select(MailOutgoing).where(MailOutgoing.purpose == "review")).one()
    message = message_from_bytes(review.data, policy=policy.default)
    text = message.get_body(("plain",)).get_content()
    assert "It is held until you approve it, or until Monday 7 December, 08:00 UTC: then it is processed as it " \
           "stands." in " ".join(text.split())  # the text part is wrapped at 78 columns
    assert "previews" not in text and str(tmp_path) not in text  # no path on the GM's machine
    assert "alice — Hall 1" in text and "bob — Hall 1" in text and "REBOOT/HP" in text  # every board's tables
    pictures = [part.get_filename() for part in message.walk() if part.get_content_maintype() == "image"]
    assert "board1-turn.gif" in pictures and "board2-turn.gif" in pictures  # alice's and bob's rooms (G2)
    html = message.get_body(("html",)).get_content()
    assert "Monday 7 December, 08:00 UTC" in html and "cid:" in html

    inbox.add(review.data)  # the GM's mail server delivers it to the GM's own inbox
    assert run(pbem, at(5, 2), tmp_path) == []  # read, and nothing to say about it
    assert json.loads(pbem(at(5, 2), "mail", "unknown", "--json").stdout) == []
    assert run(pbem, at(5, 12), tmp_path) == [("processed", "halls", 1), ("dealt", "halls", 2)]  # the hold ended


SCHEDULE_VALUES = st.one_of(st.none(), st.booleans(), st.integers(-10**6, 10**6), st.text(max_size=20),
                            st.lists(st.one_of(st.integers(-100, 1000), st.text(max_size=5)), max_size=4),
                            st.dictionaries(st.text(max_size=5), st.integers(), max_size=2))


@settings(max_examples=150, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(schedule=st.one_of(SCHEDULE_VALUES, st.dictionaries(
    st.sampled_from(["deadline", "timezone", "remind", "process", "review", "hold_hours", "hold"]),
    SCHEDULE_VALUES, max_size=6)))
def test_any_schedule_in_game_yaml_is_read_or_refused_by_name(tmp_path, schedule):
    """Hostile input: whatever `schedule:` holds, reading game.yaml gives a schedule or names the field."""
    import yaml

    from pbem.formats.game import read_description
    from pbem.formats.schedule import Schedule
    from pbem.formats.yamlfile import FormatError

    (tmp_path / "room.yaml").write_text("name: R\nsize: 5x5\nstarts: [r5c1, r5c5]\nelements: []\n")
    (tmp_path / "game.yaml").write_text(yaml.safe_dump(
        {"name": "bw", "ruleset": "botwars", "seed": 1, "rooms": ["room.yaml"], "deck": "decks/standard.yaml",
         "players": [{"name": "ann", "email": "ann@example.org", "robots": ["Rusty"]}], "schedule": schedule}))
    try:
        read = read_description(tmp_path).schedule
    except FormatError as err:
        assert all(p.field.startswith("schedule") for p in err.problems), err
    else:
        assert read is None if schedule is None else isinstance(read, Schedule)


def test_an_imap_outage_across_the_deadline_holds_the_turn_and_the_orders_waiting_in_the_inbox_count(
        tmp_path, tmp_path_factory, monkeypatch):
    """#22 over the real loopback IMAP server: it is down when the turn falls due (the run waits, exits 1 and
    `pbem status` says why), then comes back with alice's orders in it (received before the deadline, RULES D5):
    the next run reads them and processes the turn with them."""
    from mail_servers import ImapServer, certificate, reserved_port, use_loopback_servers

    from pbem.store.tables import Turn

    monkeypatch.chdir(tmp_path)
    url, hands = new_campaign(tmp_path)
    cert, key = certificate(tmp_path_factory.mktemp("tls"))
    imap_port = reserved_port()  # bound, nobody listening: connections are refused, as by a server that is down
    use_loopback_servers(monkeypatch, tmp_path, cert, imap_port, reserved_port())
    monkeypatch.delenv("PBEM_SMTP_PASSWORD")
    (tmp_path / "mail.yaml").write_text("\n".join(line for line in (tmp_path / "mail.yaml").read_text().splitlines()
                                                  if not line.startswith("smtp:")) + "\n")  # queue, send nothing

    def pbem(now: str, *args: str):
        result = RUNNER.invoke(app, ["--db", url, "--now", now, *args])
        assert result.exception is None or isinstance(result.exception, SystemExit), result.exception
        return result

    assert pbem(at(), "game", "set", "halls", "--deadline", "5d").exit_code == 0
    assert pbem(at(), "run").exit_code == 1  # the clock starts; the inbox is already down
    down = pbem(at(5), "run", "--json")
    assert down.exit_code == 1
    assert [d["what"] for d in json.loads(down.stdout)["done"]] == ["problem", "waiting"]
    assert "Connection refused" in pbem(at(5, 1), "status").stdout
    imap = ImapServer(cert, key, port=imap_port)
    try:
        received = (T0 + timedelta(days=4)).strftime("%a, %d %b %Y %H:%M:%S +0000")  # a day before the deadline
        imap.deliver(f"Received: from mx by gm.example.org; {received}\r\n".encode()
                     + order_mail("alice", hands["alice"], "<alice-1@x>"))
        up = pbem(at(5, 2), "run", "--json")
    finally:
        imap.stop()
    assert up.exit_code == 0, up.output
    done = json.loads(up.stdout)["done"]
    assert [d["what"] for d in done] == ["fetched", "processed", "dealt"]
    assert done[0]["detail"].startswith("accepted") and done[1]["detail"] == "missing: bob"
    with Session(create_engine(url)) as session:
        used = json.loads(session.exec(select(Turn)).one().orders)
    assert used["alice"] is not None and used["bob"] is None  # alice's orders from the inbox were the turn's
    assert json.loads(pbem(at(5, 3), "status", "--json").stdout)["inbox"]["failed_since"] is None
