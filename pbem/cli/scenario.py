"""`pbem scenario check|run`: the rule scenarios (DESIGN.md "Rule scenario")."""
from __future__ import annotations

from pathlib import Path
from typing import List

import typer

from ..formats.scenario import check_scenario, outcome_yaml, read_scenario, run_scenario
from .common import EXIT_OK, EXIT_REFUSED, print_json, read_or_refuse, sub_app

scenario_app = sub_app("scenario", "Run rule scenarios.")


@scenario_app.command("check")
def check(
    files: List[Path] = typer.Argument(..., help="Scenario files (YAML), or folders to search for *.yaml."),
    as_json: bool = typer.Option(False, "--json", help="One JSON document: each file with the list of its differences."),
) -> None:
    """Run each scenario's turn and compare with its `expect`: one PASS/FAIL line per file."""
    paths = [p for path in files for p in (sorted(path.rglob("*.yaml")) if path.is_dir() else [path])]
    results = {str(path): check_scenario(path) for path in paths}
    if as_json:
        print_json(results)
    else:
        for name, diffs in results.items():
            typer.echo(f"{'FAIL' if diffs else 'PASS'} {name}" + (": " + "; ".join(diffs) if diffs else ""))
        failed = sum(1 for diffs in results.values() if diffs)
        typer.echo(f"{len(results) - failed} passed, {failed} failed", err=True)
    raise typer.Exit(EXIT_REFUSED if any(results.values()) else EXIT_OK)


@scenario_app.command("run")
def run(file: Path = typer.Argument(..., help="A scenario file (YAML).")) -> None:
    """Run a scenario's turn and print the resulting state as YAML, in the `expect` shape."""
    scenario = read_or_refuse(read_scenario, file)
    typer.echo(outcome_yaml(scenario, run_scenario(scenario)), nl=False)
