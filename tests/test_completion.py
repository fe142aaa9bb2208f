"""Shell completion for bash, zsh and fish (issue #35): `pbem --show-completion SHELL` prints the script, and the
script's call back into pbem completes command names and options, the lazily loaded ones included."""
from __future__ import annotations

import pytest
from cli_process import imported_by, run_pbem


@pytest.mark.parametrize("shell, marker", [("bash", "complete -o default -F _pbem_completion pbem"),
                                           ("zsh", "#compdef pbem"), ("fish", "complete --command pbem")])
def test_show_completion_prints_the_script_for_the_shell_named(shell, marker):
    shown = run_pbem("--show-completion", shell)
    assert shown.returncode == 0 and marker in shown.stdout and f"complete_{shell}" in shown.stdout, shown


def test_a_shell_pbem_does_not_know_is_a_usage_error():
    refused = run_pbem("--show-completion", "tcsh")
    assert refused.returncode == 2 and "'tcsh' is not one of" in refused.stderr


def bash(words: str) -> list[str]:
    """What bash's completion function gets back for the command line `words` (the cursor at its end)."""
    done = run_pbem(env={"_PBEM_COMPLETE": "complete_bash", "COMP_WORDS": words,
                         "COMP_CWORD": str(len(words.split()) - (0 if words.endswith(" ") else 1))})
    assert done.returncode == 0 and "not supported" not in done.stderr, done
    return done.stdout.split()


def test_bash_completes_commands_subcommands_of_other_modules_and_a_lazy_commands_options():
    assert bash("pbem ga") == ["game"]
    assert {"set", "set-player"} <= set(bash("pbem game se"))  # `set` lives in cli/run.py, loaded on demand
    assert set(bash("pbem game set halls --re")) == {"--remind", "--review"}
    assert "--db" in bash("pbem --d") and "--show-completion" in bash("pbem --s")
    assert {"deal", "check", "process", "approve", "extend"} <= set(bash("pbem turn "))


def test_zsh_and_fish_complete_too():
    zsh = run_pbem(env={"_PBEM_COMPLETE": "complete_zsh", "_TYPER_COMPLETE_ARGS": "pbem game se"})
    assert zsh.returncode == 0 and '"set":' in zsh.stdout and '"set-player":' in zsh.stdout, zsh
    fish = run_pbem(env={"_PBEM_COMPLETE": "complete_fish", "_TYPER_COMPLETE_ARGS": "pbem turn ap",
                         "_TYPER_COMPLETE_FISH_ACTION": "get-args"})
    assert fish.returncode == 0 and fish.stdout.startswith("approve\t"), fish


def test_install_completion_writes_the_script_where_the_shell_reads_it(tmp_path):
    done = run_pbem("--install-completion", "bash", env={"HOME": str(tmp_path)})
    assert done.returncode == 0, done
    assert "_PBEM_COMPLETE=complete_bash" in (tmp_path / ".bash_completions" / "pbem.sh").read_text()
    assert ".bash_completions/pbem.sh" in (tmp_path / ".bashrc").read_text()


def test_completing_a_command_name_imports_no_command_module(tmp_path):
    """The top level's names come from the lazy table: completing them loads no command's module."""
    modules = imported_by("--show-completion", "bash", cwd=tmp_path, whole_names=True)
    assert not {m for m in modules if m.startswith("pbem.cli.") and m.split(".")[-1] in {"game", "run", "turn"}}
