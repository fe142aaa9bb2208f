"""The registry is the only list of games (issue #33): every part an entry names resolves, and no other module
lists the games' names again (a table of games elsewhere reads `pbem/games.py`)."""
from __future__ import annotations

import ast
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
    found = [entry.rules, *entry.formats, entry.picture, entry.text, entry.mail, entry.puzzles]
    if entry.puzzle_file is not None:
        found.append(entry.puzzle_file.reader)
    if entry.solver is not None:
        found += [entry.solver.module, entry.solver.kernel]
    return [path for path in found if path is not None]


@pytest.mark.parametrize("entry", games.GAMES, ids=lambda e: e.name)
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
