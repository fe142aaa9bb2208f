"""The registry is the only list of games (issue #33): every part an entry names resolves, and no other module
lists the games' names again (a table of games elsewhere reads `pbem/games.py`)."""
from __future__ import annotations

import ast
import inspect
import typing
from dataclasses import replace
from pathlib import Path

import pytest

from pbem import games
from pbem.resources import find_file

PACKAGE = Path(__file__).resolve().parent.parent / "pbem"

# Collections of several game names that are not tables of games, each with its reason.
NOT_GAME_TABLES = {
    "cli/lazy.py": "the lazy command table: `pbem gyulbot` and `pbem ice` are command groups named after games",
    "cli/game.py": "`game new`'s --ruleset choices and default rooms (onetable's file in #33: to read "
                   "`Entry.deck` and the campaign names after the merge)",
}


def parts(entry: games.Entry) -> list[str]:
    """Every `module[:attribute]` path an entry names."""
    found = [entry.rules, *entry.formats, entry.picture, entry.text, entry.puzzles]
    if entry.puzzle_file is not None:
        found.append(entry.puzzle_file.reader)
    if entry.solver is not None:
        found.append(entry.solver.module)
    return [path for path in found if path is not None]


@pytest.mark.parametrize("entry", games.entries(), ids=lambda e: e.name)
def test_every_part_of_every_entry_resolves(entry):
    assert all(games.part(path) is not None for path in parts(entry))
    assert games.part(entry.rules)().name == entry.name
    if entry.kind is games.Kind.CAMPAIGN:
        assert entry.deck is not None and find_file(entry.deck).is_file()
    if entry.puzzles is not None:
        form = games.part(entry.puzzles)
        assert callable(form.read) and callable(form.write)
    if entry.solver is not None:
        assert callable(games.part(entry.solver.module).warm_up)


def game_lists(tree: ast.AST, known: set[str]) -> list[int]:
    """The lines of a list, tuple, set or dict display holding two or more game names as plain strings."""
    lines = []
    for node in ast.walk(tree):
        if isinstance(node, (ast.List, ast.Tuple, ast.Set)):
            items = node.elts
        elif isinstance(node, ast.Dict):
            items = [key for key in node.keys if key is not None]
        else:
            continue
        if len({item.value for item in items if isinstance(item, ast.Constant) and item.value in known}) >= 2:
            lines.append(node.lineno)
    return lines


def test_the_detector_finds_a_list_of_games():
    known = set(games.names())
    planted = ast.parse('KERNELS = {"gyulbot": "a", "ice": "b"}\nRULESETS = ("geeko", "botwars")\n'
                        'x: Literal["botwars", "geeko"]\nname = "gyulbot"\npair = ("gyulbot", "solver")\n')
    assert game_lists(planted, known) == [1, 2, 3]


@pytest.mark.parametrize("path", sorted(p for p in PACKAGE.rglob("*.py") if p.name != "games.py"),
                         ids=lambda p: str(p.relative_to(PACKAGE)))
def test_no_other_module_lists_the_games(path):
    name = str(path.relative_to(PACKAGE))
    found = game_lists(ast.parse(path.read_text(encoding="utf-8")), set(games.names()))
    assert not found or name in NOT_GAME_TABLES, f"{name}:{found} lists games: read pbem/games.py instead"


def view_problems(function: object, where: str, home: str = "pbem.dm.views") -> list[str]:
    """Unless `function`'s first parameter (or, for a `render_data`, its return) is a view of `home` (pbem/dm/views.py,
    or a module of a game folder's own package)."""
    hints = typing.get_type_hints(function)
    name = "return" if where == "return" else next(iter(inspect.signature(function).parameters))
    hint = hints.get(name)
    if typing.is_typeddict(hint) and (hint.__module__ == home or hint.__module__.startswith(f"{home}.")):
        return []
    return [f"{getattr(function, '__qualname__', function)} {where}: {hint!r}, not a view of {home}"]


def view_home(entry: games.Entry) -> str:
    """Where a game's views live: pbem/dm/views.py for the shipped games, the game's own folder for another."""
    return "pbem.dm.views" if entry.rules.startswith("pbem.") else entry.rules.split(".")[0]


@pytest.mark.parametrize("entry", games.entries(games.Kind.MATCH), ids=lambda e: e.name)
def test_a_match_and_its_drawers_share_a_typed_view(entry):
    """The game gives a TypedDict of dm/views.py (a game folder: its own) and its picture and text board take that
    same one, so renaming a field in a view is a mypy error in whichever side still reads the old name."""
    rules, home = games.part(entry.rules), view_home(entry)
    drawers = [games.part(path) for path in (entry.picture, entry.text) if path is not None]
    assert view_problems(rules.render_data, "return", home) + [
        p for d in drawers for p in view_problems(d, "data", home)] == []
    view = typing.get_type_hints(rules.render_data)["return"]
    assert all(typing.get_type_hints(d)[next(iter(inspect.signature(d).parameters))] is view for d in drawers)


def test_the_view_check_finds_an_untyped_drawer():
    def drawer(data: dict[str, typing.Any]) -> str:
        return str(data)

    assert view_problems(drawer, "data") and view_problems(lambda data: "", "data")


def test_a_registered_game_is_listed_after_the_shipped_ones_and_a_taken_name_is_refused():
    """`games.register` (conftest.TEST_GAMES registers Nim, the tests' own game): every reader of the registry sees it
    (`entries`, `names`, `entry`, `find`); another game of a listed name is refused; `unregister` never drops a
    shipped game."""
    shipped = tuple(entry.name for entry in games.GAMES)
    assert games.names()[:len(shipped)] == shipped and "nim" in games.names(games.Kind.MATCH)
    assert games.entry("nim", games.Kind.MATCH) is games.find("nim") is games.entries()[-1]
    with pytest.raises(ValueError, match="a game named 'gyulbot' is registered already"):
        games.register(replace(games.entry("gyulbot"), title="Another Gyulbot"))
    extra = games.Entry("nim2", "Nim again", games.Kind.MATCH, "nimgame.rules:Nim", (), None, None)
    games.register(extra)
    games.register(extra)  # the same game again (a module importing conftest.py anew): nothing changes
    try:
        assert games.names()[-1] == "nim2" and games.find("nim2") is extra
    finally:
        games.unregister("nim2")
    games.unregister("gyulbot")
    assert games.find("nim2") is None and games.names()[:len(shipped)] == shipped
