"""Reports rebuilt from the store (what the turn cycle kept for each turn), and the Geek-o standings."""
from __future__ import annotations

import shutil

import pytest

from pbem.gm.history import game_history, stored_report
from pbem.store.due import session_rows
from pbem.store.games import Store, get_game


@pytest.fixture(scope="module")
def store(tmp_path_factory, geeko_campaign):
    path = tmp_path_factory.mktemp("db") / "pbem.db"
    shutil.copyfile(geeko_campaign, path)
    store = Store(f"sqlite:///{path}")
    yield store
    store.close()


def cells(table) -> dict[str, dict[str, list[str]]]:
    """A report table as {row label: {robot: lines}}."""
    return {row.label: dict(zip(table.columns, row.cells)) for row in table.rows}


def test_render_history_turn_report_has_a_board_per_geeko_player(store):
    """G2: each player plays alone, in their own copy of the room, and gets only their board."""
    with store.session() as session:
        report = stored_report(session, get_game(session, "geeko-demo"), 1)
    assert [r.title.split(" — ")[0] for r in report.reports] == ["alice", "bob"]
    assert report.players == [("alice",), ("bob",)]
    for board in report.reports:
        assert board.stages, board.title
        assert len(report.images) >= len(board.stages) + 1
        assert board.end_of_turn.columns == [r.name for r in board.final.robots]


def test_render_history_whole_game(store):
    with store.session() as session:
        history = game_history(session_rows(session), "geeko-demo")
    assert [t.turn for t in history.turns] == [1, 2, 3, 4, 5, 6]


def test_render_history_standings_are_the_campaigns(store):
    """G1: the site ranks with the campaign's own standings, shown on the game's index: after the
    sample's six turns bob is in room 3 and alice in room 2, neither through all five rooms."""
    with store.session() as session:
        history = game_history(session_rows(session), "geeko-demo")
    assert [(s["place"], s["player"], s["rooms_done"], s["turns"]) for s in history.told().standings] == [
        (1, "bob", 2, None), (2, "alice", 1, None)]


def test_render_history_botwars_standings_show_flags_and_lives(tmp_path):
    """B5.9/B8.2: a BotWars game ranks by flags touched, then lives left; the index shows both."""
    from pbem.render.site import GameHistory, Summary, write_game

    rows = [{"player": "ann", "flags": 2, "lives": 3, "won": 1, "place": 1},
            {"player": "ben", "flags": 1, "lives": 2, "won": None, "place": 2}]
    write_game(tmp_path, GameHistory("botwars", [], Summary(rows)))
    page = (tmp_path / "index.html").read_text()
    assert "<th>Flags touched</th><th>Lives left</th>" in page
    assert "<td>1</td><td>ann</td><td>2</td><td>3</td><td>1st</td>" in page
    assert "<td>2</td><td>ben</td><td>1</td><td>2</td><td>not yet</td>" in page
    assert "Geek-o" not in page


def test_render_history_report_of_a_fresh_outcome_equals_the_stored_one(store):
    """`turn process --preview` can show the report before anything is stored: the same tables and
    the same pictures as the report rebuilt from the store afterwards."""
    from pbem.engine.campaign import play_turn
    from pbem.gm import cycle
    from pbem.render.history import outcome_report
    from pbem.store.games import players_of, read_state, snapshot

    with store.session() as session:
        game = get_game(session, "geeko-demo")
        before = read_state(game, snapshot(session, game, 3, "before").state)
        orders, _, _ = cycle.turn_orders(session, game, before)
        fresh = outcome_report(game.name, before, play_turn(before, orders, game.seed),
                               [p.name for p in players_of(session, game)])
        stored = stored_report(session, game, 3)
    assert fresh.images == stored.images
    assert [r.stages[0].table for r in fresh.reports] == [r.stages[0].table for r in stored.reports]
    assert [r.end_of_turn for r in fresh.reports] == [r.end_of_turn for r in stored.reports]


def test_render_history_end_of_turn_is_the_room_left_not_the_next_one():
    """G3: robots that leave room 1 end the turn there; the report's final picture and end-of-turn
    table show Intake Hall as the turn left it, not the next room (here The Works, whose flags
    would add a NEXT FLAG row that means nothing in a room without flags)."""
    from pathlib import Path

    from pbem.engine.campaign import GameSetup, PlayerSetup, new_game, play_turn
    from pbem.engine.cards import Card
    from pbem.engine.orders import Checked
    from pbem.formats.decks import read_deck
    from pbem.formats.rooms import read_room
    from pbem.formats.yamlfile import read_yaml_file
    from pbem.render.board import position_png
    from pbem.render.history import outcome_report
    from pbem.render.model import Position
    from pbem.render.style import owner_colours

    root = Path(__file__).resolve().parent.parent
    intake, works = (read_room(root / "rooms" / "geeko" / name) for name in ("1-intake.yaml", "5-works.yaml"))
    assert works.of_type("flag") and not intake.of_type("flag")
    route = read_yaml_file(root / "tests" / "room_routes" / "1-intake.yaml")["turns"][0]
    before = new_game(GameSetup("t", "geeko", "5", (intake, works), read_deck("decks/geeko.yaml"),
                                (PlayerSetup("alice", ("A", "B")),)))
    programs = {robot: [Card.parse(c) for c in cards] for robot, cards in route.items()}
    outcome = play_turn(before, {"alice": Checked(programs=programs)}, "5")
    assert outcome.state.boards["alice"].room.name == works.name  # both robots are out: room 2 is open

    report = outcome_report("t", before, outcome, ["alice"])
    (board,) = report.reports
    assert board.final.room.name == intake.name
    assert [row.label for row in board.end_of_turn.rows] == ["MODE", "REINSTATE", "UPGRADES", "OPTIONS", "REBOOT/HP"]
    assert [r.at for r in board.final.robots] == [None, None]  # both went out through the gate
    final = outcome.finals["alice"]
    assert report.images["board1-final.png"] == position_png(Position.of(intake, final), owner_colours(["alice"]))


def test_render_history_robots_out_of_the_room_and_what_they_did_at_the_end_of_turn(store):
    """G3/G4: in the sample's turn 2 Spanner leaves Intake Hall in stage 1 and Zapper in stage 4. Later
    stages say they have left (not "real" with no cards), and the end-of-turn table says which room
    each completed, so the player sees why the picture is empty."""
    with store.session() as session:
        report = stored_report(session, get_game(session, "geeko-demo"), 2)
    alice = report.reports[0]
    mode = {s.number: cells(s.table)["MODE"] for s in alice.stages}
    assert mode[1] == {"Spanner": ["left the room"], "Zapper": ["real"]}
    assert mode[4]["Spanner"] == ["left the room"]
    assert cells(alice.end_of_turn)["MODE"] == {name: ["left the room", "completes room 1 (Intake Hall)"]
                                                for name in ("Spanner", "Zapper")}


def test_render_history_fused_register_filled_at_the_end_of_turn_is_reported(store):
    """B7.2: Spanner takes one hit in turn 1, so register 9 fuses empty and is filled from the deck:
    the end-of-turn table says so (the card is also in the fused-register table)."""
    with store.session() as session:
        report = stored_report(session, get_game(session, "geeko-demo"), 1)
    alice = report.reports[0]
    end = cells(alice.end_of_turn)["REBOOT/HP"]
    card = alice.fused.rows[0].cells[0][0]
    assert end["Spanner"] == ["HP 9", f"register 9 filled with {card}"]


def test_render_history_registers_unfused_together_make_one_line():
    """B7.4/B8: a reinstated BotWars robot has all five registers unfused: one line, not five."""
    from pbem.engine.events import RegisterUnfused
    from pbem.render.model import _lines

    events = [RegisterUnfused(0, "Gizmo", n, None) for n in range(1, 6)]
    assert _lines(events) == ["registers 1, 2, 3, 4, 5 unfused"]
    assert _lines(events[:1]) == ["register 1 unfused"]


def test_render_history_last_stage_shows_hp_and_mode_before_the_end_of_turn(store):
    """B10/B12: alice declared a reboot for Spanner in turn 4; it starts at the end of the turn. Stage 4
    (the last) still shows Spanner real with HP 9 as the stage ended; only the end-of-turn table shows
    it rebooting with its HP restored."""
    with store.session() as session:
        report = stored_report(session, get_game(session, "geeko-demo"), 4)
    alice = report.reports[0]
    rows = cells(alice.stages[-1].table)
    assert (rows["MODE"]["Spanner"], rows["HP"]["Spanner"]) == (["real"], ["9"])
    end = cells(alice.end_of_turn)
    assert end["MODE"]["Spanner"] == ["rebooting"] and end["REBOOT/HP"]["Spanner"][0] == "HP 10"
