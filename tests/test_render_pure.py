"""Render is a pure function of stored data (issue #26): nothing in pbem/render reads the database or plays a rule
again. What a report shows that the rules decided (B4.6's missed-orders programs, the robot pilot's choices) comes
recorded in the turn's outcome; the store keeps it, and the layers above hand it to render."""
from __future__ import annotations

import ast
import subprocess
import sys
from pathlib import Path

RENDER = Path(__file__).resolve().parent.parent / "pbem" / "render"
# the database, the layers above render, and the rules render must not run again
FORBIDDEN_MODULES = ("sqlmodel", "sqlalchemy", "alembic", "pbem.store", "pbem.mail", "pbem.gm", "pbem.cli",
                     "pbem.engine.planner")
FORBIDDEN_NAMES = {"pbem.engine.campaign": {"missed_orders", "missing_programs", "play_turn"}}


def _imports(path: Path) -> list[tuple[int, str, str | None]]:
    """(line, absolute module, name imported from it or None) of every import in a module of pbem.render."""
    package = ["pbem", "render"]
    found: list[tuple[int, str, str | None]] = []
    for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
        if isinstance(node, ast.Import):
            found += [(node.lineno, alias.name, None) for alias in node.names]
        elif isinstance(node, ast.ImportFrom):
            base = package[:len(package) - node.level + 1] if node.level else []
            module = ".".join([*base, *([node.module] if node.module else [])])
            for alias in node.names:
                found.append((node.lineno, module, alias.name))
                found.append((node.lineno, f"{module}.{alias.name}", None))  # `from ..engine import planner`
    return found


def _attributes(path: Path) -> set[str]:
    """`campaign.missed_orders` and the like: every `module.name` read in the module."""
    tree = ast.parse(path.read_text(encoding="utf-8"))
    return {f"{node.value.id}.{node.attr}" for node in ast.walk(tree)
            if isinstance(node, ast.Attribute) and isinstance(node.value, ast.Name)}


def test_render_imports_neither_the_store_nor_the_planner_nor_the_missed_orders_rule():
    modules = sorted(RENDER.glob("*.py"))
    assert len(modules) > 20
    wrong = []
    for path in modules:
        for line, module, name in _imports(path):
            if any(module == f or module.startswith(f + ".") for f in FORBIDDEN_MODULES):
                wrong.append(f"{path.name}:{line}: imports {module}")
            if name in FORBIDDEN_NAMES.get(module, ()):
                wrong.append(f"{path.name}:{line}: imports {name} from {module}")
        wrong += [f"{path.name}: uses {used}" for used in _attributes(path)
                  if used.removeprefix("campaign.") in FORBIDDEN_NAMES["pbem.engine.campaign"]]
    assert wrong == []


def test_the_guard_sees_a_forbidden_import(tmp_path):
    """The check above can fail: a module reading the store or running the rule is found, relative imports too."""
    sample = tmp_path / "sample.py"
    sample.write_text("from ..store.games import stored_state\nfrom ..engine.campaign import missed_orders\n"
                      "from ..engine import planner\nimport sqlmodel\nfrom ..engine import campaign\n"
                      "x = campaign.missing_programs\n", encoding="utf-8")
    imports = _imports(sample)
    assert (1, "pbem.store.games", "stored_state") in imports
    assert (2, "pbem.engine.campaign", "missed_orders") in imports
    assert (3, "pbem.engine.planner", None) in imports
    assert (4, "sqlmodel", None) in imports
    assert "campaign.missing_programs" in _attributes(sample)


def test_every_render_module_loads_without_the_database_or_the_planner():
    names = [f"pbem.render.{path.stem}" for path in sorted(RENDER.glob("*.py")) if path.stem != "__init__"]
    code = (f"import importlib, sys\nfor name in {names!r}:\n    importlib.import_module(name)\n"
            "print(sorted(m for m in sys.modules if m.split('.')[0] in ('sqlmodel', 'sqlalchemy', 'alembic')\n"
            "             or m.startswith(('pbem.store', 'pbem.engine.planner', 'pbem.mail', 'pbem.gm'))))\n")
    run = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True)
    assert run.stdout.strip() == "[]"
