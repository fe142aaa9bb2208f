"""The house keeps its rooms (docs/architecture.md, issues #26 and #33): the GM's workflow commits in gm/, never in
the command line or in mail; the store keeps repositories (no commit flags); mail and the store run no rule (they
import only the engine's data and words); imports point one way, down the layers."""
from __future__ import annotations

import ast
import importlib
import inspect
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


def _imported_modules(path: Path, tree: ast.AST) -> list[tuple[str, list[str]]]:
    """Each import as (module, names): `from M import a, b` -> (M, [a, b]); `import M` -> (M, []); relative
    imports resolved against the module's own package."""
    package = path.relative_to(PACKAGE.parent).with_suffix("").parts[:-1]
    found = []
    for node in ast.walk(tree):
        if isinstance(node, ast.ImportFrom):
            parts = [*package[:len(package) - node.level + 1]] if node.level else []
            found.append((".".join([*parts, *(node.module.split(".") if node.module else [])]),
                          [alias.name for alias in node.names]))
        elif isinstance(node, ast.Import):
            found += [(alias.name, []) for alias in node.names]
    return found


def rules_run(path: Path, tree: ast.AST) -> list[str]:
    """What a module takes from the pure layers (engine, dm) that can run a rule: any function or module. Their
    classes (states, events, enums of words) and constants are data, free to use."""
    found = []
    for module, names in _imported_modules(path, tree):
        if module.split(".")[:2] not in (["pbem", "engine"], ["pbem", "dm"]):
            continue
        if not names:
            found.append(module)
        source = importlib.import_module(module)
        found += [f"{module}.{name}" for name in names if not hasattr(source, name) or inspect.ismodule(
            getattr(source, name)) or (callable(getattr(source, name)) and not inspect.isclass(getattr(source, name)))]
    return found


# What mail/ and store/ may still call from the pure layers, each with its reason.
RULES_ALLOWED = {
    "store/games.py": {"pbem.engine.ruleset.get_ruleset": "a preset looked up by name, to refuse a bad ruleset option "
                                                          "before it is stored"},
    "store/states.py": {"pbem.engine.mechanism.load_builtin": "the element kinds registered, to keep no parsed room "
                                                              "while a plug-in is (it may read a room's fields): no rule"},
    "mail/post.py": {"pbem.dm.clock.when": "a time stamp in words (the match mail's Deadline line): no rule",
                     "pbem.dm.clock.remaining": "the time left before a deadline, in words: no rule"},
}


def campaign_rules_taken(path: Path, tree: ast.AST) -> list[str]:
    """What a module takes from `pbem.engine.campaign` that runs a rule: the module itself or one of its functions
    (its classes, GameState, TurnOutcome and the rest, are data)."""
    return [name for name in rules_run(path, tree)
            if name == "pbem.engine.campaign" or name.startswith("pbem.engine.campaign.")]


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
    planted = ast.parse("from ..engine.campaign import GameState, missed_orders\nfrom ..engine.vocabulary import Mode\n"
                        "from ..dm import clock\nimport pbem.engine.deal\nfrom ..formats.orders import OrderFile\n")
    assert rules_run(path, planted) == ["pbem.engine.campaign.missed_orders", "pbem.dm.clock", "pbem.engine.deal"]
    assert campaign_rules_taken(path, planted) == ["pbem.engine.campaign.missed_orders"]
    assert campaign_rules_taken(path, ast.parse("from ..engine import campaign, deal\nimport pbem.engine.campaign\n"
                                                "def show():\n    from pbem.engine.campaign import standings\n")) \
        == ["pbem.engine.campaign", "pbem.engine.campaign", "pbem.engine.campaign.standings"]


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


@pytest.mark.parametrize("path", _modules("mail"), ids=lambda p: p.name)
def test_mail_commits_nothing(path):
    """mail parses, builds and sends one message; the send loop's claims and records are committed by gm."""
    assert commits(_tree(path)) == [], f"{path.name} commits: move the transaction into pbem/gm"


@pytest.mark.parametrize("path", _modules("mail") + _modules("store"), ids=lambda p: str(p.relative_to(PACKAGE)))
def test_mail_and_the_store_run_no_rule(path):
    """The GM asks the engine and passes the answer down: mail words it, the store keeps it."""
    allowed = RULES_ALLOWED.get(str(path.relative_to(PACKAGE)), {})
    assert [name for name in rules_run(path, _tree(path)) if name not in allowed and "*" not in allowed] == []


@pytest.mark.parametrize("path", _modules("gm") + _modules("cli"), ids=lambda p: str(p.relative_to(PACKAGE)))
def test_campaigns_are_played_through_their_rules_object(path):
    """The registry's rules object (`dm.campaign.CampaignGame`) is the one way the GM's workflow and the command
    line reach a campaign's rules, as they reach a death match's (issue #33): the engine's data types only."""
    assert campaign_rules_taken(path, _tree(path)) == [], \
        f"{path.name}: ask the campaign's rules object (pbem.dm.campaign.get_campaign), not pbem.engine.campaign"
