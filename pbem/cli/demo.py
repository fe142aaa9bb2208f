"""`pbem demo`: the bundled sample campaign (turns/) played turn by turn into a fresh database."""
from __future__ import annotations

from pathlib import Path

from ..formats.game import turn_folder_name
from ..render import Recipient
from ..resources import resource_dir
from ..store import cycle
from ..store.archive import import_game
from ..store.cycle import ProcessResult, TurnSheet
from ..store.games import Store, get_game, players_of
from .gm import progress
from .reports import write_reports, write_sheets
from .texts import turn_summary

DEMO_GAMES = ("geeko", "botwars")


def run_demo(database: Path, out: Path) -> dict:
    """Import each bundled game into a fresh SQLite file; write every turn sheet, report and summary under OUT.

    OUT/GAME/turn-NNN/ holds turn N's report (pages, pictures, each player's .eml, summary.txt) and,
    in sheets/, the turn sheets dealt for turn N.
    """
    database.unlink(missing_ok=True)
    store = Store(f"sqlite:///{database}")
    written: list[Path] = []
    games = []
    try:
        with progress() as bar:
            for name in DEMO_GAMES:
                task = bar.add_task(f"demo: {name}", total=None)

                def on_deal(sheets: list[TurnSheet]) -> None:
                    written.extend(write_sheets(sheets, out, "sheets"))

                def on_turn(result: ProcessResult) -> None:
                    written.extend(_write_turn(store, result, out))
                    bar.advance(task)

                imported = import_game(store, resource_dir("turns") / name, on_deal=on_deal, on_turn=on_turn)
                if imported.turns and not imported.turns[-1].over:
                    with store.session() as session:
                        on_deal(cycle.deal(session, imported.game)[1])
                games.append({"game": imported.game, "turns": len(imported.turns),
                              "hash": imported.turns[-1].after_hash if imported.turns else None})
    finally:
        store.close()
    return {"database": str(database), "games": games, "files": [str(p) for p in sorted(written)]}


def _write_turn(store: Store, result: ProcessResult, out: Path) -> list[Path]:
    with store.session() as session:
        recipients = [Recipient(p.name, p.email) for p in players_of(session, get_game(session, result.game))]
    written = write_reports(out, result.game, result.turn, result.before, result.outcome, recipients)
    summary = out / result.game / turn_folder_name(result.turn) / "summary.txt"
    summary.write_text(turn_summary(result), encoding="utf-8")
    return written + [summary]
