"""Hostile and mistaken input everywhere a GM or player gives some (issue 3, "Orders" and "Reliability").

The contract: exit 1 with every reason, each naming file, line and field; exit 2 for
usage errors; never a traceback; nothing stored from a refused file (RULES B4.4-B4.7).
"""
from __future__ import annotations

import json

import pytest
from cli_process import run_pbem
from typer.testing import CliRunner

from pbem.cli import app
from pbem.formats.game import read_description
from pbem.formats.yamlfile import FormatError

HEADER = "game: spring\nturn: 1\nplayer: alice\n"
GOOD = HEADER + "robots:\n  Zapper: {program: [FWD2, RT90, 580]}\n  Spanner: {program: [FWD1, LF90, FWD1#560]}\n"


@pytest.fixture(scope="module")
def campaign(tmp_path_factory):
    """The README's game `spring`, dealt; returns run(*args) -> (exit code, all output, exception)."""
    folder = tmp_path_factory.mktemp("qa")
    runner = CliRunner()

    def run(*args):
        result = runner.invoke(app, ["--db", f"sqlite:///{folder / 'pbem.db'}", *args])
        return result.exit_code, result.output, result.exception
    assert run("game", "new", "spring", "--ruleset", "geeko", "--player", "alice:alice@example.org:Zapper,Spanner",
               "--player", "bob:bob@example.org:Bolt,Nut", "--seed", "7")[0] == 0
    assert run("turn", "deal", "spring", "--out", str(folder / "sheets"))[0] == 0
    run.folder = folder
    return run


def robots(**programs: str) -> str:
    return HEADER + "robots:\n" + "".join(f"  {name}: {{program: [{cards}]}}\n" for name, cards in programs.items())


# (name, content, every "line: field" the refusal must name)
ORDERS = [
    ("unknown-kind", robots(Zapper="BLAH, RT90, FWD2", Spanner="FWD1, LF90, FWD1#560"),
     ["5: robots.Zapper register 1"]),
    ("not-in-hand", robots(Zapper="FWD3, RT90, 99999", Spanner="FWD1, LF90, FWD1#560"),
     ["5: robots.Zapper register 1", "5: robots.Zapper register 3"]),
    ("used-twice", robots(Zapper="580, RT90, FWD2", Spanner="FWD1#580, LF90, FWD1#560"),
     ["6: robots.Spanner register 1"]),
    ("unequal-lengths", robots(Zapper="FWD2, RT90", Spanner="FWD1, LF90, FWD1#560"), ["6: robots.Spanner.program"]),
    ("too-long", robots(Zapper="FWD2, RT90, 580, 630, 220, 700, 640, 70, 370, 440",
                        Spanner="FWD1, LF90, FWD1#560, 410, 260, 110, 430, 660, 300, 290"),
     ["5: robots.Zapper.program", "6: robots.Spanner.program"]),
    ("another-players-robot", robots(Bolt="FWD2, RT90, 580"), ["5: robots.Bolt"]),
    ("wrong-header", "game: autumn\nturn: 5\nplayer: carol\nrobots: {}\n", ["1: game", "2: turn", "3: player"]),
    ("bad-types", "game: [x]\nturn: one\nplayer: alice\nrobots: 5\nreboot: {a: 1}\nextra: 1\n",
     ["1: game", "2: turn", "4: robots", "5: reboot", "6: extra"]),
    ("structure-and-cards-together", HEADER + "extra: 1\nrobots:\n  Zapper: {program: [FWD3], reboot: yes}\n"
     "  Spanner: {program: [FWD1]}\nreboot: [Zapper, Zapper]\n",
     ["4: extra", "6: robots.Zapper.reboot", "6: robots.Zapper register 1", "8: reboot item 2"]),
    ("keys-given-twice", HEADER + "player: bob\nrobots:\n  Zapper: {program: []}\n  Zapper: {program: []}\n",
     ["4: player: given twice", "7: Zapper: given twice"]),
    ("tab-indent", HEADER + "robots:\n\tZapper: {program: [FWD2]}\n", ["5: a tab: indent with spaces"]),
    ("malformed", HEADER + "robots: [Zapper\n", ["4: a `]` is missing at the end of the list"]),
    ("tag", HEADER + "robots: !!python/object:os.system {}\n", ["4: YAML tags"]),
    ("alias-bomb", HEADER + 'notes: &a ["x", "x"]\nname: [*a, *a]\n', ["4: YAML anchors"]),
    ("deep-nesting", HEADER + "robots: {Zapper: {program: " + "[" * 5000 + "]" * 5000 + "}}\n", ["4: nested"]),
    ("empty", "", [": an order file is a mapping"]),
    ("list", "- game: spring\n- turn: 1\n", [":1: an order file is a mapping"]),
    ("two-documents", GOOD + "---\ngame: spring\n", ["7: not valid YAML"]),
]
RAW = [
    ("binary", b"game: spring\x00\x01\x02", "binary data"),
    ("latin-1", "game: spring\nturn: 1\nplayer: \xe9l\xe8ve\n".encode("latin-1"), "not UTF-8"),
    ("over-1-MB", (HEADER + "notes: " + "x" * 1_000_001 + "\n").encode(), "more than the limit (1,000,000 bytes): not read"),
]


def stored_versions(campaign) -> int:
    code, out, _ = campaign("turn", "status", "spring", "--json")
    return sum(p["versions"] or 0 for p in json.loads(out)["players"])


@pytest.mark.parametrize("name, text, wheres", ORDERS, ids=[c[0] for c in ORDERS])
def test_a_refused_order_file_names_every_problem_and_stores_nothing(campaign, name, text, wheres):
    path = campaign.folder / f"{name}.yaml"
    path.write_text(text, encoding="utf-8")
    before = stored_versions(campaign)
    code, out, exception = campaign("turn", "submit", "spring", str(path))
    assert code == 1 and isinstance(exception, SystemExit), out
    for where in wheres:
        assert f"{path}:{where}" in out or where in out and where[0].isalpha() \
            or (where.startswith(":") and f"{path}{where}" in out), (where, out)
    assert stored_versions(campaign) == before


@pytest.mark.parametrize("name, data, reason", RAW, ids=[c[0] for c in RAW])
def test_binary_non_utf8_and_oversized_order_files_are_refused(campaign, name, data, reason):
    path = campaign.folder / f"{name}.yaml"
    path.write_bytes(data)
    code, out, exception = campaign("turn", "check", "spring", str(path))
    assert code == 1 and isinstance(exception, SystemExit) and f"{path}: " in out and reason in out


def test_an_endless_device_is_refused_unread(campaign):
    """/dev/zero as an order file or a room: at most the limit is read, then refused (not read into memory)."""
    code, out, _ = campaign("turn", "check", "spring", "/dev/zero")
    assert code == 1 and "/dev/zero: a character device, not a regular file: not read" in out
    result = CliRunner().invoke(app, ["room", "check", "/dev/zero"])
    assert result.exit_code == 1 and "/dev/zero: a character device, not a regular file: not read" in result.output


@pytest.mark.parametrize("newline", ["\n", "\r\n"], ids=["LF", "CRLF"])
def test_a_pasted_turn_sheet_with_a_letter_above_and_a_signature_below_is_accepted(campaign, newline):
    path = campaign.folder / "pasted.yaml"
    sheet = (campaign.folder / "sheets" / "spring" / "turn-001" / "alice.txt").read_text()
    filled = sheet.replace("Zapper: {program: []}", "Zapper: {program: [FWD2, RT90, 580]}") \
        .replace("Spanner: {program: []}", "Spanner: {program: [FWD1, LF90, FWD1#560]}")
    text = "Hello GM,\nmy orders: below\n\n" + filled + "-- \nAlice\nrobots: nonsense\n"
    path.write_bytes(text.replace("\n", newline).encode())
    code, out, _ = campaign("turn", "check", "spring", str(path))
    assert code == 0 and "Zapper: FWD2#680 RT90#300 FWD1#580" in out


ROOM = "name: R\nsize: 5x5\nstarts: [r5c1]\nelements:\n"
ROOMS = [
    ("unknown-type", ROOM + "  - {type: lava, at: r1c1}\n", ["5: elements[0].type"]),
    ("off-board", ROOM + "  - {type: pit, at: r9c9}\n", ["5: elements[0].at"]),
    ("dangling-control", ROOM + "  - {type: gate, at: r1c2, control: p7, open: false}\n", ["5: elements[0].control"]),
    ("duplicate-teleporter", ROOM + "  - {type: teleporter, at: r2c2, colour: red}\n"
                                    "  - {type: teleporter, at: r2c3, colour: red}\n", ["6: elements[1].colour"]),
    ("start-on-pit", ROOM + "  - {type: pit, at: r5c1}\n", ["3: starts[0]"]),
    ("missing-fields", ROOM + "  - {type: wall, at: r3c3}\n  - {at: r4c1}\n  - {type: pit}\n",
     ["5: elements[0].side", "6: elements[1].type", "7: elements[2].at"]),
    ("wrong-types", "name: R\nsize: big\nstarts: r1c1\nelements: {}\nbogus: 1\n",
     ["2: size", "3: starts", "4: elements", "5: bogus"]),
    ("too-large", "name: R\nsize: 100000x100000\nstarts: [r1c1]\n", ["2: size"]),
    ("no-size", "name: R\nstarts: [r1c1]\n", ["1: size"]),
]


@pytest.mark.parametrize("name, text, wheres", ROOMS, ids=[c[0] for c in ROOMS])
def test_room_check_names_every_problem(tmp_path, name, text, wheres):
    path = tmp_path / f"{name}.yaml"
    path.write_text(text)
    result = CliRunner().invoke(app, ["room", "check", str(path)])
    assert result.exit_code == 1 and isinstance(result.exception, SystemExit), result.output
    for where in wheres:
        assert f"{path}:{where}" in result.output or f"{path}{where}" in result.output, (where, result.output)


def description(rooms: str = "rooms/geeko", deck: str = "decks/geeko.yaml") -> str:
    return (f"name: old\nruleset: geeko\nseed: 1\nrooms: [{rooms}]\ndeck: {deck}\nplayers:\n"
            "  - {name: alice, email: a@x.org, robots: [Z, S]}\n  - {name: bob, email: b@x.org, robots: [B, N]}\n")


def test_game_import_reports_every_bad_room_and_the_deck_and_stores_nothing(tmp_path):
    (tmp_path / "game.yaml").write_text(description("r.yaml", "d.yaml").replace("ruleset: geeko", "ruleset: botwars")
                                        .replace("robots: [Z, S]", "robots: [Z]").replace("robots: [B, N]", "robots: [B]"))
    (tmp_path / "r.yaml").write_text("name: R\nsize: 3x3\nstarts: [r3c1, r3c2]\nelements: [{type: pit, at: r3c1}]\n")
    (tmp_path / "d.yaml").write_text("order: random\ncards: [FWD1#1, FWD1#1]\n")
    db = f"sqlite:///{tmp_path / 'x.db'}"
    result = CliRunner().invoke(app, ["--db", db, "game", "import", str(tmp_path)])
    assert result.exit_code == 1
    assert "r.yaml:3: starts[0]" in result.output and "d.yaml:1: order" in result.output \
        and "d.yaml:2: cards[1]" in result.output
    assert "No games yet" in CliRunner().invoke(app, ["--db", db, "game", "list"]).output


@pytest.mark.parametrize("turns", ["three", "{a: 1}", "2026-11-01T20:00:00Z", "true", "-1"])
def test_a_bad_turn_count_with_an_open_turn_is_two_problems_not_a_traceback(tmp_path, turns):
    """Both lines are named (issue #26: `turns: three` with `open_turn:` raised a TypeError)."""
    (tmp_path / "game.yaml").write_text(description() + f"turns: {turns}\nopen_turn: 4\n")
    with pytest.raises(FormatError) as refused:
        read_description(tmp_path)
    assert [str(p) for p in refused.value.problems] == [
        f"{tmp_path / 'game.yaml'}:9: turns: must be a whole number of turns",
        f"{tmp_path / 'game.yaml'}:10: open_turn: must be the turn after the played ones (1)"]


def test_a_game_import_refused_at_a_later_turn_leaves_no_game_behind(tmp_path):
    (tmp_path / "game.yaml").write_text(description())
    (tmp_path / "turn-001").mkdir()
    (tmp_path / "turn-001" / "alice.yaml").write_text("game: old\nturn: 1\nplayer: alice\nrobots:\n"
                                                      "  Z: {program: [FWD3]}\n")
    db = f"sqlite:///{tmp_path / 'x.db'}"
    result = CliRunner().invoke(app, ["--db", db, "game", "import", str(tmp_path)])
    assert result.exit_code == 1 and "turn-001/alice.yaml:5: robots.Z register 1" in result.output
    assert "No games yet" in CliRunner().invoke(app, ["--db", db, "game", "list"]).output
    (tmp_path / "turn-001" / "alice.yaml").unlink()  # the GM fixes the folder: the same import now works
    assert CliRunner().invoke(app, ["--db", db, "game", "import", str(tmp_path)]).exit_code == 0


COMMANDS = [
    (["--db", "mysql://u@h/d", "game", "list"], 1, "No module named"),
    (["--db", "notaurl", "game", "list"], 1, "cannot open the database notaurl"),
    (["init", "/proc/qa/x"], 1, "/proc/qa"),
    (["game", "new", "x", "--ruleset", "geeko", "--player", "bad"], 2, "NAME:EMAIL"),
    (["turn", "rollback", "x", "--to", "abc"], 2, "--to"),
    (["bogus"], 2, "No such command"),
]


@pytest.mark.parametrize("args, code, reason", COMMANDS, ids=[" ".join(c[0]) for c in COMMANDS])
def test_bad_command_lines_exit_1_or_2_without_a_traceback(tmp_path, args, code, reason):
    result = run_pbem(*args, cwd=tmp_path)
    assert result.returncode == code and "Traceback" not in result.stderr and reason in result.stderr, result.stderr


def test_game_import_names_each_bad_ruleset_option_with_its_line(tmp_path):
    (tmp_path / "game.yaml").write_text(description().replace(
        "players:", "ruleset_options: {registers_max: x, bogus: 1}\nplayers:"))
    result = CliRunner().invoke(app, ["--db", f"sqlite:///{tmp_path / 'x.db'}", "game", "import", str(tmp_path)])
    assert result.exit_code == 1 and isinstance(result.exception, SystemExit), result.output
    assert "game.yaml:6: ruleset_options.registers_max" in result.output
    assert "game.yaml:6: ruleset_options.bogus" in result.output


def test_game_import_names_every_ruleset_option_out_of_range_with_its_line(tmp_path):
    """RULES B1: every numeric option has a range; each value outside it is named with its own line."""
    (tmp_path / "game.yaml").write_text(description().replace("players:", (
        "ruleset_options:\n  registers_max: -5\n  max_hp: 0\n  buzzsaw_threshold: 2\n  laser_damage: -1\n"
        "  fence_damage: 3\nplayers:")))
    result = CliRunner().invoke(app, ["--db", f"sqlite:///{tmp_path / 'x.db'}", "game", "import", str(tmp_path)])
    assert result.exit_code == 1 and isinstance(result.exception, SystemExit), result.output
    for line, option in [(7, "registers_max"), (8, "max_hp"), (9, "buzzsaw_threshold"), (10, "laser_damage")]:
        assert f"game.yaml:{line}: ruleset_options.{option}" in result.output, (option, result.output)
    assert "fence_damage" not in result.output


def test_game_new_refuses_a_player_listed_twice(tmp_path):
    result = CliRunner().invoke(app, ["--db", f"sqlite:///{tmp_path / 'x.db'}", "game", "new", "g", "--ruleset",
                                      "geeko", "--player", "a:a@x.org:Z,S", "--player", "a:b@x.org:B,N"])
    assert result.exit_code == 1 and isinstance(result.exception, SystemExit)
    assert "player a is listed twice" in result.output


# (command, file content, every "line: field" the refusal must name)
DM_FILES = [
    (["gyulbot", "solve"], "size: 3x3\nwalls: [r1c1 Q]\nrobots: {Red: [r9c9]}\ngoal: {at: r5c5, colour: pink}\nx: 1\n",
     ["5: x", "2: walls[0]", "3: robots.Red", "4: goal.at", "4: goal.colour"]),
    (["ice", "solve"], "map: |\n  S..\n  .#X\n", ["2: map", "3: map row 2"]),
    (["flowers", "duplicates"], "variant: zz\nboard: [ABC]\n", ["1: variant", "2: board"]),
    (["dm", "replay"], "game: chess\nplayers: [a]\nactions: 5\n", ["1: game", "2: players", "3: actions"]),
    (["dm", "replay"], "game: takebacktoe\nplayers: [a, b]\nseed: 1\nactions:\n  - {player: c, roll: 4}\n  - 5\n"
                       "  - {player: b, roll: 4, at: notatime}\n",
     ["5: actions[0].player", "6: actions[1]", "7: actions[2].at"]),
]


@pytest.mark.parametrize("command, text, wheres", DM_FILES, ids=[" ".join(c[0]) for c in DM_FILES])
def test_death_match_files_name_every_problem(tmp_path, command, text, wheres):
    path = tmp_path / "bad.yaml"
    path.write_text(text)
    empty = tmp_path / "empty.yaml"
    empty.write_text("")
    result = CliRunner().invoke(app, [*command, str(path), str(empty), str(tmp_path / "missing.yaml")])
    assert result.exit_code == 1 and isinstance(result.exception, SystemExit), result.output
    for where in wheres:
        assert f"{path}:{where}" in result.output, (where, result.output)
    assert f"{empty}" in result.output and "missing.yaml: cannot read" in result.output


def test_importing_a_game_twice_refuses_the_second_and_keeps_the_first(tmp_path):
    (tmp_path / "game.yaml").write_text(description())
    db = ["--db", f"sqlite:///{tmp_path / 'x.db'}"]
    assert CliRunner().invoke(app, [*db, "game", "import", str(tmp_path)]).exit_code == 0
    again = CliRunner().invoke(app, [*db, "game", "import", str(tmp_path)])
    assert again.exit_code == 1 and "a game named old already exists" in again.output
    assert CliRunner().invoke(app, [*db, "game", "list"]).output.startswith("old ")
