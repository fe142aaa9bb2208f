"""One writer of a match's rows (`pbem.store.newmatch`, issues #34, #36): `pbem dm new` (`pbem.gm.newmatch`) and
`pbem game import` (`pbem.gm.matcharchive`) write them with plain SQL. For every registered game, on SQLite and
PostgreSQL, a match made by `dm new` (its game row, seats, a transcript's moves accepted, refused and the clock's own,
its deadline row) and the same match exported and imported are the same rows, column for column, and they are the
rows the ORM's accept path (`moves.submit`, as `dm act` takes) writes for its moves and deadline; the database `dm new`
creates is the one `open_database` creates, and the commands that come after it work on it."""
from __future__ import annotations

from dataclasses import replace
from datetime import timedelta

import pytest
from alembic import command
from alembic.script import ScriptDirectory
from cli_process import run_pbem
from dm_desk import Desk
from sqlalchemy import create_engine, inspect, text
from sqlmodel import Session
from test_dm_conformance import CONFIGS, T0, playout

from pbem import games
from pbem.dm.base import Action, Config, get_game
from pbem.gm.matcharchive import export_match, import_match
from pbem.gm.moves import position, submit, write_deadline
from pbem.gm.newmatch import new_match
from pbem.store.db import alembic_config, open_database, stored_revision
from pbem.store.matches import find_match
from pbem.store.newmatch import config_document
from pbem.store.refusal import Refused
from pbem.store.schema import head_revision

MATCHES = games.names(games.Kind.MATCH)  # the four shipped matches and the tests' Nim


@pytest.fixture(params=["sqlite", "postgresql"])
def urls(request, tmp_path):
    """Three new, empty databases of one kind: one for each path."""
    if request.param == "sqlite":
        return tuple(f"sqlite:///{tmp_path / name}.db" for name in ("new", "imported", "orm"))
    server = request.getfixturevalue("pg_server")
    return server.new_database(), server.new_database(), server.new_database()


def transcript(name: str) -> tuple[Config, list[Action]]:
    """A match taken over from a transcript: the first moves of a playout 30 s apart, an action its rules refuse, and
    one a day late (after any deadline: the clock's own action is recorded before it)."""
    played = playout(name, 0)[0][:6]
    actions = [replace(action, at=T0 + timedelta(seconds=30 * i)) for i, action in enumerate(played)]
    config = CONFIGS[name]
    late = played[len(actions) % len(played)] if played else Action(config.players[0], {"pass": True})
    return config, [*actions, Action(config.players[0], {"nonsense": 1}, T0 + timedelta(minutes=4)),
                    replace(late, at=T0 + timedelta(days=1))]


def made_by_dm_new(url: str, name: str, config: Config, actions: list[Action]) -> None:
    new_match(url, name, config, get_game(config.game).new_state(config), actions, T0)


def imported(source: str, url: str, name: str, folder) -> None:
    """The match `name` of the database at `source` exported to `folder` and imported into the one at `url`."""
    engine = open_database(source)
    with Session(engine) as session:
        export_match(session, find_match(session, name), folder)
    engine.dispose()
    engine = open_database(url)
    with Session(engine) as session:
        import_match(session, folder, [], T0, "gm@example.org")
    engine.dispose()


def accepted_by_the_orm(url: str, name: str, config: Config, actions: list[Action]) -> None:
    """The match made with no moves, then each action submitted in turn as `dm act` submits it (the ORM's path), and
    its deadline row written from the position the ORM reads back."""
    made_by_dm_new(url, name, config, [])
    engine = open_database(url)
    with Session(engine) as session:
        match = find_match(session, name)
        for action in actions:
            submit(session, match, action, T0, source="transcript")
        write_deadline(session, match, config, position(session, match)[1], T0)
        session.commit()
    engine.dispose()


def dump(url: str) -> dict[str, list[tuple]]:
    """Every row of every table, in id order (and on SQLite the schema itself)."""
    engine = create_engine(url)
    with engine.connect() as connection:
        found = {table: [tuple(row) for row in connection.execute(text(f"SELECT * FROM {table} ORDER BY 1"))]
                 for table in inspect(connection).get_table_names()}
        if engine.dialect.name == "sqlite":
            found["sqlite_master"] = [tuple(row) for row in connection.execute(
                text("SELECT type, name, tbl_name, sql FROM sqlite_master ORDER BY name"))]
    engine.dispose()
    return found


@pytest.mark.parametrize("name", MATCHES)
def test_dm_new_and_game_import_write_the_same_rows_as_the_orm(urls, name, tmp_path):
    new, copy, orm = urls
    config, actions = transcript(name)
    made_by_dm_new(new, "m1", config, actions)
    made_by_dm_new(new, "m2", config, [])  # into a database that exists
    for match in ("m1", "m2"):
        imported(new, copy, match, tmp_path / match)
    accepted_by_the_orm(orm, "m1", config, actions)
    accepted_by_the_orm(orm, "m2", config, [])
    made = dump(new)
    assert made == dump(copy) == dump(orm)
    assert len(made["order_versions"]) >= len(actions) and len(made["turn_deadlines"]) == 2
    assert read_back(new) == read_back(copy) == read_back(orm)


def read_back(url: str) -> tuple:
    """Match m1 as the store gives it back: its config, accepted actions and position (drawn and scored)."""
    engine = open_database(url)
    with Session(engine) as session:
        config, state, played = position(session, find_match(session, "m1"))
    engine.dispose()
    rules = get_game(config.game)
    return config_document(config), played, rules.render_data(state), rules.result(state)


def test_a_name_taken_is_refused_and_nothing_is_written(tmp_path):
    url = f"sqlite:///{tmp_path / 'pbem.db'}"
    config = CONFIGS["takebacktoe"]
    new_match(url, "m", config, get_game("takebacktoe").new_state(config), [], T0)
    before = dump(url)
    with pytest.raises(Refused, match="a game named 'm' exists already"):
        new_match(url, "m", config, get_game("takebacktoe").new_state(config), [], T0)
    assert dump(url) == before


def test_a_database_at_an_older_revision_is_migrated_first(urls, tmp_path):
    """As every command's: the migrations run before the match is written (by `dm new` or `game import`: the same
    rows)."""
    previous = ScriptDirectory.from_config(alembic_config()).get_revision(head_revision()).down_revision
    for url in urls:
        engine = create_engine(url)
        with engine.begin() as connection:
            config = alembic_config()
            config.attributes["connection"] = connection
            command.upgrade(config, previous)
        assert stored_revision(engine) == previous
        engine.dispose()
    new, copy, _ = urls
    made_by_dm_new(new, "m", CONFIGS["takebacktoe"], [])
    imported(new, copy, "m", tmp_path / "m")
    made, expected = dump(new), dump(copy)
    # Alembic's batch migration of SQLite writes a table's constraints in an order of its own (a set's)
    made.pop("sqlite_master", None), expected.pop("sqlite_master", None)
    assert made == expected and made["games"]
    engine = create_engine(new)
    assert stored_revision(engine) == head_revision()
    engine.dispose()


def test_the_commands_after_dm_new_work_on_the_match_it_wrote(tmp_path):
    """`dm new` (a transcript taken over, into a new file), then `dm act`, a player enrolled, `pbem run` (the opening
    mail), `game export`, and `dm show` with every move kept."""
    desk = Desk(tmp_path)
    (tmp_path / "t.yaml").write_text(
        "game: takebacktoe\nplayers: [Red, Green]\nseed: 1\nactions:\n"
        "  - {player: Red, at: 2026-12-01T20:00:10Z, roll: 4, move: B2-A2}\n"
        "  - {player: Green, at: 2026-12-01T20:00:40Z, roll: 3, move: A2-A1}\n", encoding="utf-8")
    made = desk.pbem("dm", "new", "t1", "--from", tmp_path / "t.yaml", "--out", tmp_path, now="20:01:00")
    assert made.exit_code == 0, made.output
    acted = desk.pbem("dm", "act", "t1", "{roll: 3, move: B3-A3}", "--player", "Red", "--at", "2026-12-01T20:01:20Z",
                      "--out", tmp_path, now="20:01:20")
    assert acted.exit_code == 0, acted.output
    enrolled = desk.pbem("mail", "dm-player", "t1", "Green", "green@example.org", "--secret", "green-s", now="20:01:30")
    assert enrolled.exit_code == 0, enrolled.output
    desk.run("20:01:40")
    assert [to for to, *_ in desk.new_mail()] == ["green@example.org"]
    exported = desk.pbem("game", "export", "t1", tmp_path / "out")
    assert exported.exit_code == 0, exported.output
    assert any((tmp_path / "out").iterdir())
    shown = desk.position("t1")
    assert [(s["player"], s["accepted"]) for s in shown["submissions"]] == [("Red", True), ("Green", True),
                                                                             ("Red", True)]


@pytest.mark.parametrize("where", ["no-such-folder/pbem.db", "not-a-database.db"])
def test_a_file_that_cannot_hold_the_match_is_refused_naming_it(tmp_path, where):
    """Hostile input: no traceback, the file and the reason."""
    (tmp_path / "not-a-database.db").write_text("a note, not SQLite\n", encoding="utf-8")
    result = run_pbem("--db", f"sqlite:///{where}", "dm", "new", "m", "--game", "takebacktoe", "--player", "ann",
                      "--player", "bob", cwd=tmp_path)
    assert result.returncode == 1 and f"{where}: cannot write the match there" in result.stderr
    assert "Traceback" not in result.stderr
    assert (tmp_path / "not-a-database.db").read_text(encoding="utf-8") == "a note, not SQLite\n"
