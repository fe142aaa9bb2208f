"""`pbem dm …` and `pbem flowers …`: death-match games."""
from __future__ import annotations

from pathlib import Path
from typing import Any, Optional

import typer

from ..dm.base import replay
from ..dm.flowerfield.fields import named_pairs
from ..formats.flowerboard import read_flower_board
from ..formats.transcript import read_transcript
from ..formats.yamlfile import FormatError
from .common import EXIT_REFUSED, print_json, sub_app

dm_app = sub_app("dm", "Replay and run death-match games.")
flowers_app = sub_app("flowers", "Flower Field tools.")

FILES = typer.Argument(..., exists=False, help="Files to read.")
JSON = typer.Option(False, "--json", help="Print one JSON document.")


def _problems(err: FormatError) -> list[str]:
    return [str(p) for p in err.problems]


@dm_app.command("replay")
def replay_command(transcripts: list[Path] = FILES, as_json: bool = JSON) -> None:
    """Replay whole games from transcripts; illegal actions are listed and change nothing.

    Exits 1 when a file is refused or any action was illegal.
    """
    documents: list[dict[str, Any]] = []
    refused = False
    for path in transcripts:
        try:
            transcript = read_transcript(path)
        except FormatError as err:
            refused = True
            documents.append({"file": str(path), "problems": _problems(err)})
            continue
        outcome = replay(transcript.config, list(transcript.actions))
        result = outcome.result
        document: dict[str, Any] = {
            "file": str(path),
            "over": result.over,
            "winner": result.winner,
            "errors": [{"index": i, "line": transcript.lines[i], "reason": reason} for i, reason in outcome.errors],
        }
        if result.lives is not None:
            document["lives"] = dict(result.lives)
        else:
            document["scores"] = None if result.scores is None else dict(result.scores)
        refused = refused or bool(outcome.errors)
        documents.append(document)
    if as_json:
        print_json(documents)
    else:
        for document in documents:
            _print_replay(document)
    if refused:
        raise typer.Exit(EXIT_REFUSED)


def _print_replay(document: dict[str, Any]) -> None:
    if "problems" in document:
        typer.echo(f"{document['file']}: refused")
        for problem in document["problems"]:
            typer.echo(f"  {problem}")
        return
    tally = document.get("lives") or document.get("scores") or {}
    label = "lives" if "lives" in document else "scores"
    standing = ", ".join(f"{p} {n}" for p, n in tally.items())
    status = f"won by {document['winner']}" if document["over"] else "not over"
    typer.echo(f"{document['file']}: {status}; {label}: {standing}")
    for error in document["errors"]:
        where = f"line {error['line']}, " if error["line"] else ""
        typer.echo(f"  action {error['index']} ({where}refused): {error['reason']}")


@flowers_app.command("duplicates")
def duplicates_command(boards: list[Path] = FILES, as_json: bool = JSON) -> None:
    """Every duplicate pair of flower fields on each board (RULES D4.6)."""
    documents: list[dict[str, Any]] = []
    refused = False
    for path in boards:
        try:
            board = read_flower_board(path)
        except FormatError as err:
            refused = True
            documents.append({"file": str(path), "problems": _problems(err)})
            continue
        documents.append({"file": str(path), "pairs": named_pairs(board.board)})
    if as_json:
        print_json(documents)
    else:
        for document in documents:
            if "problems" in document:
                typer.echo(f"{document['file']}: refused")
                for problem in document["problems"]:
                    typer.echo(f"  {problem}")
                continue
            typer.echo(f"{document['file']}: {len(document['pairs'])} duplicate pair(s)")
            for first, second in document["pairs"]:
                typer.echo(f"  {'-'.join(first)} = {'-'.join(second)}")
    if refused:
        raise typer.Exit(EXIT_REFUSED)
