"""`game export` then `game import` moves a running game whole: the same database content (secrets, every order
version with its time, the open turn's orders, the seed), from SQLite to PostgreSQL as well."""
from __future__ import annotations

from datetime import datetime, timezone

import pytest
import yaml
from cycle_fixtures import AT, halls_description, order
from sqlmodel import Session, create_engine, select
from typer.testing import CliRunner

from pbem.cli import app
from pbem.gm import cycle
from pbem.gm.setup import create_game
from pbem.store.games import Store
from pbem.store.tables import DealtHand, EventRecord, Game, OrderVersion, Player, Robot, StateSnapshot, Turn

RUNNER = CliRunner()
T0 = datetime(2026, 11, 2, 9, 0, tzinfo=timezone.utc)


def at(hours: int) -> datetime:
    return T0.replace(hour=9 + hours)


def running_game(url: str) -> None:
    """halls: turn 1 played (alice sent twice, bob once), turn 2 dealt with one order file in."""
    store = Store(url)
    try:
        with store.session() as session:
            description = halls_description()
            description.created_at = T0
            create_game(session, description, AT)
            session.commit()
            _, sheets = cycle.deal(session, "halls")
            hands = {sheet.player: sheet.hands[sheet.player] for sheet in sheets}
            for hours, player, cards in ((1, "alice", hands["alice"][0:4]), (2, "bob", hands["bob"][0:2] * 1),
                                         (3, "alice", hands["alice"][4:8])):
                robots = {"alice": ("Zapper", "Spanner"), "bob": ("Bolt", "Nut")}[player]
                half = len(cards) // 2
                data = order("halls", 1, player, {robots[0]: cards[:half], robots[1]: cards[half:]})
                [result] = cycle.submit(session, "halls", [(f"{player}.yaml", data)], store=True, at=at(hours))
                assert result.accepted, result.problems
            cycle.process(session, "halls", at=at(5))
            _, sheets = cycle.deal(session, "halls")
            sheet = next(s for s in sheets if s.player == "bob")
            hand = sheet.hands["bob"]
            data = order("halls", 2, "bob", {robot.name: hand[0:1] if robot.receives_cards else []
                                             for robot in sheet.robots})
            [result] = cycle.submit(session, "halls", [("mail from bob", data)], store=True, at=at(6))
            assert result.accepted, result.problems
    finally:
        store.close()


def content(url: str) -> dict:
    """Everything stored for the games, keyed by names instead of row ids, times in UTC."""
    def utc(moment: datetime) -> str:
        return (moment if moment.tzinfo else moment.replace(tzinfo=timezone.utc)).astimezone(timezone.utc).isoformat()

    with Session(create_engine(url)) as session:
        games = {g.id: g for g in session.exec(select(Game)).all()}
        players = {p.id: p.name for p in session.exec(select(Player)).all()}
        rows = lambda table: session.exec(select(table)).all()
        return {
            "games": sorted((g.name, g.ruleset, g.seed, g.setup, utc(g.created_at)) for g in games.values()),
            "players": sorted((games[p.game_id].name, p.position, p.name, p.email, p.secret) for p in rows(Player)),
            "robots": sorted((games[r.game_id].name, players[r.player_id], r.position, r.name) for r in rows(Robot)),
            "turns": sorted((games[t.game_id].name, t.number, t.seed, t.before_hash, t.after_hash, t.events_hash,
                             t.orders, t.missed, utc(t.processed_at)) for t in rows(Turn)),
            "orders": sorted((games[v.game_id].name, v.turn, players[v.player_id], v.version, v.source, v.text,
                              v.submission, utc(v.submitted_at)) for v in rows(OrderVersion)),
            "hands": sorted((games[h.game_id].name, h.turn, h.holder, h.cards) for h in rows(DealtHand)),
            "states": sorted((games[s.game_id].name, s.turn, s.kind, s.board, s.stage, s.hash)
                             for s in rows(StateSnapshot)),
            "events": sorted((games[e.game_id].name, e.turn, e.seq, e.board, e.stage, e.kind, e.data)
                             for e in rows(EventRecord)),
        }


@pytest.mark.parametrize("target", ["sqlite", "postgresql"])
def test_export_then_import_gives_the_same_database_content(tmp_path, request, target):
    source = f"sqlite:///{tmp_path / 'old.db'}"
    running_game(source)
    result = RUNNER.invoke(app, ["--db", source, "game", "export", "halls", str(tmp_path / "out")])
    assert result.exit_code == 0, result.output
    description = yaml.safe_load((tmp_path / "out" / "game.yaml").read_text())
    assert description["seed"] == 5 and description["turns"] == 1 and description["open_turn"] == 2
    assert sorted(p.name for p in (tmp_path / "out" / "turn-001").iterdir()) == \
        ["alice.v1.yaml", "alice.v2.yaml", "bob.yaml", "orders.yaml"]
    destination = request.getfixturevalue("pg_server").new_database() if target == "postgresql" \
        else f"sqlite:///{tmp_path / 'new.db'}"
    result = RUNNER.invoke(app, ["--db", destination, "game", "import", str(tmp_path / "out")])
    assert result.exit_code == 0, result.output
    before, after = content(source), content(destination)
    assert after == before
    assert [p[4] for p in after["players"]] == ["s-alice", "s-bob"]  # the players' sheets still work
    assert [(o[1], o[2], o[3]) for o in after["orders"]] == [(1, "alice", 1), (1, "alice", 2), (1, "bob", 1),
                                                              (2, "bob", 1)]


def test_an_archive_to_share_leaves_the_secrets_out(tmp_path):
    source = f"sqlite:///{tmp_path / 'old.db'}"
    running_game(source)
    assert RUNNER.invoke(app, ["--db", source, "game", "export", "halls", str(tmp_path / "out"),
                               "--no-secrets"]).exit_code == 0
    assert "s-alice" not in (tmp_path / "out" / "game.yaml").read_text()



def sent(game: str, turn: int, player: str, programs: dict[str, list], style: str, secret: str) -> bytes:
    """An order file as players mail them, secret included: the sheet's `secret:` line, one flow mapping, or the
    whole turn sheet pasted back (its preamble naming the secret) with a signature that quotes it."""
    if style == "flow":
        robots = ", ".join(f"{robot}: {{program: [{', '.join(map(str, cards))}]}}" for robot, cards in programs.items())
        return f"{{game: {game}, secret: '{secret}', turn: {turn}, player: {player}, robots: {{{robots}}}}}\n".encode()
    text = order(game, turn, player, programs).decode()
    if style == "line":
        return (text + f'# the secret proves these orders are yours:\nsecret: "{secret}"  # keep it\n').encode()
    return f"Your turn sheet. Your secret is {secret}.\n\n{text}secret: {secret}\n-- \nBob ({secret})\n".encode()


def test_an_archive_to_share_has_no_secret_in_any_file(tmp_path):
    """Issue #37: the order files kept every player's `secret:`. Every file of the archive is searched for every
    secret the game ever had (a replaced player's too); the archive still imports, the players with new secrets."""
    source = f"sqlite:///{tmp_path / 'old.db'}"
    store = Store(source)
    with store.session() as session:
        create_game(session, halls_description(), AT)
        session.commit()
    for turn, styles in ((1, {"alice": "line", "bob": "flow"}), (2, {"alice": "sheet", "bob": "line"})):
        with store.session() as session:
            _, sheets = cycle.deal(session, "halls")
            for sheet in sheets:
                hand = sheet.hands[sheet.player]
                programs = {robot.name: hand[2 * n:2 * n + 2] if robot.receives_cards else []
                            for n, robot in enumerate(sheet.robots)}
                data = sent("halls", turn, sheet.player, programs, styles[sheet.player], f"s-{sheet.player}")
                [result] = cycle.submit(session, "halls", [(f"mail from {sheet.player}", data)], store=True,
                                        at=at(turn))
                assert result.accepted, result.problems
            cycle.process(session, "halls", at=at(turn + 2))
    store.close()
    replaced = RUNNER.invoke(app, ["--db", source, "--now", "2026-11-02T15:00:00Z", "game", "replace", "halls", "bob",
                                   "carol:carol@example.net", "--secret", "s-carol"])
    assert replaced.exit_code == 0, replaced.output
    result = RUNNER.invoke(app, ["--db", source, "game", "export", "halls", str(tmp_path / "out"), "--no-secrets"])
    assert result.exit_code == 0, result.output
    files = [path for path in (tmp_path / "out").rglob("*") if path.is_file()]
    assert len([path for path in files if path.parent.name.startswith("turn-")]) == 6  # 2 turns × (2 orders + list)
    for path in files:
        for secret in ("s-alice", "s-bob", "s-carol"):
            assert secret not in path.read_text(), f"{secret} in {path}"
    destination = f"sqlite:///{tmp_path / 'new.db'}"
    result = RUNNER.invoke(app, ["--db", destination, "game", "import", str(tmp_path / "out")])
    assert result.exit_code == 0, result.output
    before, after = content(source), content(destination)
    assert after["turns"] == before["turns"] and after["states"] == before["states"]  # the same game replayed
    assert [p[3] for p in after["players"]] == ["alice@example.org", "carol@example.net"]  # bob's seat is carol's
    assert not {p[4] for p in after["players"]} & {"s-alice", "s-bob", "s-carol"}  # new secrets, made at import
