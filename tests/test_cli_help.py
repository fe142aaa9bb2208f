"""The command line's help pages and its lazy loading (issue #15): plain pages without type labels, choices as
choices, commands in workflow order, a hint for a global option put after the command, and a command importing
only what it uses."""
from __future__ import annotations

import importlib
import json
import os
import subprocess
import sys
import threading
from pathlib import Path

import pytest
import typer
from cli_process import imported_by
from cycle_fixtures import HALL, order
from typer.testing import CliRunner

from pbem.cli import app
from pbem.cli.lazy import COMMANDS

RUNNER = CliRunner()
ROOT = Path(__file__).resolve().parent.parent
WORKFLOW = ["init", "warm", "demo", "game", "turn", "report", "site", "replay", "mail", "run", "status",
            "dm", "flowers", "gyulbot", "ice", "room", "scenario"]


def every_command():
    """The full click tree, every module loaded: (path, command) for the top level and each subcommand."""
    for module in {m for table in COMMANDS.values() for entry in table.values() for m in entry.modules}:
        importlib.import_module(f"pbem.cli.{module}")
    root = typer.main.get_command(app)
    for name in root.list_commands(None):
        command = root.get_command(None, name)
        yield [name], command
        for sub in getattr(command, "commands", {}):
            yield [name, sub], command.get_command(None, sub)


def test_the_top_level_lists_its_commands_in_workflow_order():
    out = RUNNER.invoke(app, ["--help"]).output
    listed = [line.split()[0] for line in out.split("Commands:\n")[1].splitlines() if line[2:3].strip()]
    assert listed == WORKFLOW


def test_no_help_page_labels_values_with_python_types():
    for path, _ in every_command():
        result = RUNNER.invoke(app, [*path, "--help"])
        assert result.exit_code == 0, path
        assert "<str>" not in result.output and "<bool>" not in result.output and "<list[" not in result.output \
            and "<int>" not in result.output and "<" not in result.output.split("Usage:")[1].splitlines()[0], path


def test_values_are_named_and_choices_shown_as_choices():
    out = RUNNER.invoke(app, ["game", "new", "--help"]).output
    assert "Usage: pbem game new [OPTIONS] NAME\n" in out
    assert "--ruleset [botwars|geeko]" in out and "--player PLAYER" in out and "--seed SEED" in out
    assert "--json " in out and "--json JSON" not in out  # a flag takes no value
    out = RUNNER.invoke(app, ["turn", "submit", "--help"]).output
    assert "Usage: pbem turn submit [OPTIONS] GAME FILES...\n" in out and "  FILES...  Order files" in out
    assert "--secrets / --no-secrets" in RUNNER.invoke(app, ["game", "export", "--help"]).output
    assert "--now TIME" in RUNNER.invoke(app, ["--help"]).output  # a metavar given by the command stays


def test_a_choice_outside_the_list_is_a_usage_error(tmp_path):
    result = RUNNER.invoke(app, ["--db", f"sqlite:///{tmp_path / 'x.db'}", "game", "new", "x", "--ruleset", "chess",
                                "--player", "a:a@b.org"])
    assert result.exit_code == 2 and "'chess' is not one of 'botwars', 'geeko'" in result.stderr


def test_a_global_option_after_the_command_gets_a_hint():
    result = RUNNER.invoke(app, ["game", "list", "--db", "sqlite:///x.db"])
    assert result.exit_code == 2
    assert "No such option: --db (--db is an option of pbem itself: put it before the command, as in " \
           "pbem --db … game …)" in result.stderr
    result = RUNNER.invoke(app, ["game", "list", "--colour"])  # an unknown option gets no such hint
    assert result.exit_code == 2 and "No such option: --colour" in result.stderr and "pbem itself" not in result.stderr


def test_the_lazy_table_names_every_command_with_its_own_summary():
    tree = dict((" ".join(path), command) for path, command in every_command())
    lazy = {name if group == "pbem" else f"{group} {name}": entry for group, table in COMMANDS.items()
            for name, entry in table.items()}
    assert set(WORKFLOW) == {path for path in tree if " " not in path}
    for path, entry in lazy.items():
        assert tree[path].get_short_help_str(limit=10_000) == entry.summary, path


HEAVY = {"sqlalchemy", "sqlmodel", "alembic", "numpy", "PIL", "jinja2", "rich", "yaml"}


@pytest.mark.parametrize("command", [["--help"], ["mail", "--help"], ["mail", "send", "--help"]])
def test_help_imports_none_of_the_heavy_libraries(tmp_path, command):
    assert imported_by(*command, cwd=tmp_path) & HEAVY == set()


def test_a_store_command_loads_no_alembic_at_head_and_checking_orders_renders_nothing(tmp_path, monkeypatch):
    monkeypatch.chdir(tmp_path)
    (tmp_path / "halls").mkdir()
    for n in range(1, 6):
        (tmp_path / "halls" / f"{n}.yaml").write_text(HALL.format(n=n))
    db = ["--db", f"sqlite:///{tmp_path / 'pbem.db'}"]
    RUNNER.invoke(app, [*db, "game", "new", "halls", "--ruleset", "geeko", "--rooms", "halls", "--player",
                        "alice:alice@example.org:Zapper,Spanner", "--player", "bob:bob@example.org", "--seed", "5"])
    hand = json.loads(RUNNER.invoke(app, [*db, "turn", "deal", "halls", "--json"]).stdout)["sheets"][0]["hands"]
    (tmp_path / "alice.yaml").write_bytes(order("halls", 1, "alice", {"Zapper": [hand["alice"][0]], "Spanner": []}))
    # before any turn is processed, listing reads rows only too (#36: a new game is not over)
    assert imported_by(*db, "game", "list", cwd=tmp_path) & HEAVY == set()
    assert imported_by(*db, "turn", "check", "halls", "alice.yaml", cwd=tmp_path) & HEAVY == \
        {"sqlalchemy", "sqlmodel", "yaml"}
    # once a turn is processed, listing reads rows only (turns.over), with plain SQL: no SQLAlchemy, no engine,
    # no YAML, no rooms parsed (tests/test_read_rows.py)
    assert RUNNER.invoke(app, [*db, "turn", "process", "halls"]).exit_code == 0
    listing = imported_by(*db, "game", "list", cwd=tmp_path, whole_names=True)
    assert {m.split(".")[0] for m in listing} & HEAVY == set()
    assert {m for m in listing if m.startswith("pbem.engine.")} <= {"pbem.engine.plugins", "pbem.engine.vocabulary"}


def test_parsing_a_command_line_imports_no_pydantic(tmp_path):
    """Typer 0.29 runs every parameter through pydantic (about 150 ms a command); a command without the store
    must not pay for it (typer is pinned below 0.29 in pyproject.toml)."""
    room = ROOT / "rooms" / "geeko" / "1-intake.yaml"
    assert "pydantic" not in imported_by("room", "check", str(room), cwd=tmp_path)


def test_the_pbem_process_collects_young_objects_rarely_and_the_installed_command_is_that_process(tmp_path):
    """A command keeps nearly every object its imports make; scanning them every 700 allocations cost ~30 ms."""
    script = ("import atexit, gc, runpy, sys\nsys.argv = ['pbem', '--version']\n"
              "atexit.register(lambda: print('THRESHOLD', gc.get_threshold()[0]))\nrunpy.run_module('pbem', run_name='__main__')")
    run = subprocess.run([sys.executable, "-c", script], cwd=tmp_path, capture_output=True, text=True,
                         env={**os.environ, "PYTHONPATH": str(ROOT)}, timeout=120)
    assert "pbem " in run.stdout and run.stdout.split("THRESHOLD ")[1].split() == ["200000"]
    scripts = (ROOT / "pyproject.toml").read_text().split("[project.scripts]")[1]
    assert 'pbem = "pbem.__main__:main"' in scripts


# a `pbem ARGS…` process with a witness: an object the interpreter's teardown frees (when it empties sys.modules)
WITNESSED = """import atexit, os, runpy, sys
class Witness:
    def __del__(self, write=os.write):
        write(2, b"TORN DOWN\\n")
sys.modules["witness"] = Witness()
atexit.register(print, "EXIT FUNCTIONS RAN")
sys.argv = ["pbem", *sys.argv[1:]]
runpy.run_module("pbem", run_name="__main__")
"""


@pytest.mark.parametrize("args, code, said", [(["--version"], 0, "pbem "),
                                              (["--db", "sqlite:///nothing.db", "game", "list"], 1, "no database at")])
def test_the_pbem_process_ends_without_its_teardown_once_its_exit_functions_ran_and_its_output_is_out(
        tmp_path, args, code, said):
    """Taking the ~90,000 objects of a command's imports apart one by one cost ~14 ms of a due tick's CPU (#36): the
    process ends with the command's exit code as soon as its exit functions ran and its output is flushed."""
    run = subprocess.run([sys.executable, "-c", WITNESSED, *args], cwd=tmp_path, capture_output=True, text=True,
                         env={**os.environ, "PYTHONPATH": str(ROOT)}, timeout=120)
    assert run.returncode == code and said in run.stdout + run.stderr, run
    assert run.stdout.endswith("EXIT FUNCTIONS RAN\n") and "TORN DOWN" not in run.stderr, run

def test_the_command_tree_is_built_again_only_when_commands_were_added():
    """`click_command` keeps the tree it built (Typer builds one per call); a command or group added since,
    as a module imported on demand adds its own, gives a new tree that has it."""
    from pbem.cli.lazy import click_command

    tool, group = typer.Typer(), typer.Typer()
    tool.command("first")(lambda: None)
    tool.command("second")(lambda: None)
    built = click_command(tool)
    assert click_command(tool) is built and set(built.commands) == {"first", "second"}
    tool.add_typer(group, name="more")
    group.command("inner")(lambda: None)
    with_group = click_command(tool)
    assert with_group is not built and set(with_group.commands) == {"first", "second", "more"}
    group.command("later")(lambda: None)
    assert set(click_command(tool).commands["more"].commands) == {"inner", "later"}


def test_a_process_ending_with_a_message_or_a_thread_still_running_ends_the_ordinary_way():
    """Python prints an exit message and waits for the threads still running: the quick end leaves both to it."""
    from pbem.__main__ import _end

    with pytest.raises(SystemExit) as ended:
        _end("pbem: refused")
    assert ended.value.code == "pbem: refused"
    release = threading.Event()
    waiting = threading.Thread(target=release.wait)
    waiting.start()
    try:
        with pytest.raises(SystemExit) as ended:
            _end(3)
        assert ended.value.code == 3
    finally:
        release.set()
        waiting.join()
