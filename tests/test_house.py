"""The house keeps its rooms (docs/architecture.md, issue #26): the GM's workflow commits in gm/, never in the
command line; the store keeps repositories (no commit flags); imports point one way, down the layers."""
from __future__ import annotations

import ast
from pathlib import Path

import pytest

PACKAGE = Path(__file__).resolve().parent.parent / "pbem"
LAYERS = ["engine", "dm", "formats", "store", "render", "mail", "gm", "cli"]  # bottom first


def _modules(layer: str) -> list[Path]:
    return sorted((PACKAGE / layer).rglob("*.py"))


def _tree(path: Path) -> ast.Module:
    return ast.parse(path.read_text(encoding="utf-8"), str(path))


def commits(tree: ast.AST) -> list[int]:
    """The lines calling `something.commit()`."""
    return [node.lineno for node in ast.walk(tree) if isinstance(node, ast.Call)
            and isinstance(node.func, ast.Attribute) and node.func.attr == "commit"]


def commit_flags(tree: ast.AST) -> list[str]:
    """The functions taking a parameter named `commit`."""
    return [node.name for node in ast.walk(tree) if isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef))
            and any(a.arg == "commit" for a in [*node.args.args, *node.args.kwonlyargs, *node.args.posonlyargs])]


def imported_layers(path: Path, tree: ast.AST) -> set[str]:
    """The pbem layers a module imports from (relative imports resolved against its own package)."""
    package = path.relative_to(PACKAGE.parent).with_suffix("").parts[:-1]
    found = set()
    for node in ast.walk(tree):
        if isinstance(node, ast.ImportFrom):
            if node.level:
                base = package[:len(package) - node.level + 1]
                parts = [*base, *(node.module.split(".") if node.module else [])]
            else:
                parts = (node.module or "").split(".")
            names = [parts] if len(parts) > 1 else [[*parts, alias.name] for alias in node.names]
        elif isinstance(node, ast.Import):
            names = [alias.name.split(".") for alias in node.names]
        else:
            continue
        found |= {name[1] for name in names if len(name) > 1 and name[0] == "pbem" and name[1] in LAYERS}
    return found


def test_the_detectors_find_what_they_look_for():
    sample = ast.parse("def deal(session, name, *, commit=True):\n    session.commit() if commit else None\n")
    assert commits(sample) == [2] and commit_flags(sample) == ["deal"]
    assert commits(ast.parse("session.flush()\ncommitted = True\n")) == []
    path = PACKAGE / "store" / "example.py"
    assert imported_layers(path, ast.parse("from ..gm import cycle\nfrom .games import get_game\n"
                                           "from pbem.render.turn import slug\nimport pbem.mail.outbox\n")) \
        == {"gm", "store", "render", "mail"}


@pytest.mark.parametrize("path", _modules("cli"), ids=lambda p: p.name)
def test_the_command_line_commits_nothing(path):
    """A command parses, reads the clock, calls one gm step and prints: the step commits (DESIGN.md item 7)."""
    assert commits(_tree(path)) == [], f"{path.name} commits: move the step into pbem/gm"


@pytest.mark.parametrize("path", _modules("store"), ids=lambda p: p.name)
def test_the_store_has_no_commit_flags(path):
    """Repositories read and write rows; whether to commit is the workflow step's to say, not a flag's."""
    assert commit_flags(_tree(path)) == []


@pytest.mark.parametrize("layer", LAYERS)
def test_imports_point_down_the_layers(layer):
    below = set(LAYERS[:LAYERS.index(layer) + 1])
    upward = {f"{path.relative_to(PACKAGE)} imports {sorted(found - below)}"
              for path in _modules(layer) if (found := imported_layers(path, _tree(path))) - below}
    assert not upward
