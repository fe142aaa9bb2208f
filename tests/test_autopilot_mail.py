"""Two games and a death match left to `pbem run` for three simulated weeks over the real loopback servers:
orders and moves come in over IMAP (stamped by their Received: header), everything goes out over SMTP. Every turn
is processed at its due moment, every reminder reaches its player once, every report and sheet is delivered once,
the match's deadline passes with nobody acting and both players hear it once, nothing is lost."""
from __future__ import annotations

import json
from collections import Counter
from datetime import datetime, timedelta, timezone
from email import message_from_bytes, policy

import pytest
from cycle_fixtures import order, two_halls
from mail_fixtures import mail
from mail_servers import ImapServer, SmtpServer, certificate, use_loopback_servers
from sqlmodel import Session, create_engine, select
from typer.testing import CliRunner

from pbem.cli import app
from pbem.dm.base import get_game as rules_of
from pbem.dm.base import replay
from pbem.formats.transcript import load_transcript
from pbem.store.tables import Turn

RUNNER = CliRunner()
T0 = datetime(2026, 12, 1, 18, 0, tzinfo=timezone.utc)  # a Tuesday


def stamp(moment: datetime) -> str:
    return moment.strftime("%a, %d %b %Y %H:%M:%S +0000")


@pytest.mark.slow
def test_three_weeks_of_two_games_by_mail(tmp_path, tmp_path_factory, monkeypatch):
    monkeypatch.chdir(tmp_path)
    url = two_halls(tmp_path)
    cert, key = certificate(tmp_path_factory.mktemp("tls"))
    imap, smtp = ImapServer(cert, key), SmtpServer(cert, key).start()
    try:
        use_loopback_servers(monkeypatch, tmp_path, cert, imap.port, smtp.port)

        def pbem(now: datetime, *args: str):
            result = RUNNER.invoke(app, ["--db", url, "--now", now.isoformat(), *args])
            assert result.exception is None or isinstance(result.exception, SystemExit), result.exception
            return result

        assert pbem(T0, "game", "set", "halls", "--deadline", "5d", "--remind", "24", "--process", "all-in").exit_code == 0
        assert pbem(T0, "game", "set", "keep", "--deadline", "fri 20:00", "--remind", "12").exit_code == 0
        # a Take-Back-Toe match, a day a move and no reserve: alice answers every turn, bob never does
        assert pbem(T0, "dm", "new", "tb", "--game", "takebacktoe", "--player", "alice", "--player", "bob",
                    "--seed", "3", "--option", "clock={turn: 86400, reserve: 0}", "--out", tmp_path).exit_code == 0
        for player in ("alice", "bob"):
            assert pbem(T0, "mail", "dm-player", "tb", player, f"{player}@example.org", "--secret",
                        f"m-{player}").exit_code == 0
        moved: set[int] = set()
        due_times: list[datetime] = []
        answered: set[tuple[str, int, str]] = set()
        moment = T0
        while moment <= T0 + timedelta(days=21):
            result = pbem(moment, "run", "--json")
            assert result.exit_code == 0, result.output
            games = json.loads(pbem(moment, "status", "--json").stdout)["games"]
            for game in games:
                # alice answers each turn of both games half a day after it is dealt; bob only in halls
                due = datetime.fromisoformat(game["due"])
                due_times.append(due)
                for sheet in json.loads(pbem(moment, "turn", "deal", game["game"], "--json").stdout)["sheets"]:
                    player, turn = sheet["player"], sheet["turn"]
                    if (game["game"], turn, player) in answered or (player == "bob" and game["game"] == "keep"):
                        continue
                    hand = sheet["hands"][player]
                    programs = {r["name"]: hand[i:i + 1] if r["receives_cards"] else []
                                for i, r in enumerate(sheet["robots"])}
                    text = order(game["game"], turn, player, programs).decode().replace(
                        "robots:", f"secret: s-{player}\nrobots:")
                    received = moment + timedelta(minutes=1)  # fetched by the next run, stamped with this
                    data = mail(f"{player}@example.org", text, f"<{game['game']}.{turn}.{player}@x>")
                    imap.deliver(f"Received: from mx by imap.gm; {stamp(received)}\r\n".encode() + data)
                    answered.add((game["game"], turn, player))
            match = load_transcript(pbem(moment, "dm", "show", "tb", "--transcript").stdout)
            position = replay(match.config, list(match.actions)).state
            if not position.over and position.to_move == "alice" and len(position.turns) not in moved:
                move = rules_of("takebacktoe").legal_actions(position)[0].payload
                text = f"match: tb\nplayer: alice\nsecret: m-alice\naction: {json.dumps(move)}\n"
                received = moment + timedelta(minutes=1)
                data = mail("alice@example.org", text, f"<tb.{len(position.turns)}@x>")
                imap.deliver(f"Received: from mx by imap.gm; {stamp(received)}\r\n".encode() + data)
                moved.add(len(position.turns))
            # the next run: in six hours, or exactly at the next deadline if that comes first
            moment = min([moment + timedelta(hours=6), *[d for d in due_times if d > moment]])
    finally:
        imap.stop()
        smtp.stop()

    engine = create_engine(url)
    with Session(engine) as session:
        turns = {(t.game_id, t.number): t.processed_at for t in session.exec(select(Turn)).all()}
    engine.dispose()
    assert len(turns) >= 5  # halls: every 12 hours or so; keep: every Friday
    delivered = [message_from_bytes(data, policy=policy.default) for _, _, data in smtp.messages]
    ids = Counter(m["Message-ID"] for m in delivered)
    assert max(ids.values()) == 1  # nothing delivered twice
    sent = Counter((m["To"], m["Subject"]) for m in delivered)
    reminders = [key for key in sent if "still missing" in key[1]]
    assert reminders and all(sent[key] == 1 for key in reminders)  # each reminder reaches its player once
    keep_turns = [at for (game_id, _), at in turns.items() if game_id == 2]
    assert keep_turns and all((at.weekday(), at.hour, at.minute) == (4, 20, 0) for at in keep_turns)  # Fridays 20:00
    to_bob = [m["Subject"] for m in delivered if m["To"] == "bob@example.org" and "keep" in m["Subject"]]
    assert any("still missing" in s for s in to_bob)  # bob never answers keep: he is reminded
    # the match: alice moved once; bob's day ran out with nobody acting, the run applied it and told both, once
    shown = json.loads(RUNNER.invoke(app, ["--db", url, "dm", "show", "tb", "--json", "--out", str(tmp_path)]).stdout)
    assert shown["over"] and shown["winner"] == "alice"
    assert [(s["player"], s["payload"]) for s in shown["submissions"]][-1] == ("GM", {"timeout": True})
    ended = [m for m in delivered if "a deadline passed: bob runs out of time; alice wins" in m["Subject"]]
    assert sorted(m["To"] for m in ended) == ["alice@example.org", "bob@example.org"]
    assert all(m.get_body(("plain",)) is not None and "alice wins" in m.get_body(("plain",)).get_content()
               for m in ended)
    assert all(pbem_exit == 0 for pbem_exit in [RUNNER.invoke(app, ["--db", url, "replay", g, "--verify"]).exit_code
                                                 for g in ("halls", "keep")])
    # the same games processed by hand (their orders, as stored with their times, replayed turn by turn through
    # `game import` into a fresh database) end in the same states, turn for turn
    by_hand = f"sqlite:///{tmp_path / 'by-hand.db'}"
    for game in ("halls", "keep"):
        assert RUNNER.invoke(app, ["--db", url, "game", "export", game, str(tmp_path / game)]).exit_code == 0
        assert RUNNER.invoke(app, ["--db", by_hand, "game", "import", str(tmp_path / game)]).exit_code == 0
        hashes = [json.loads(RUNNER.invoke(app, ["--db", db, "replay", game, "--json"]).stdout) for db in (url, by_hand)]
        assert hashes[0] == hashes[1] and len(hashes[0]["turns"]) >= 2
