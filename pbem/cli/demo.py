"""`pbem demo`: the bundled sample campaign (turns/) played turn by turn into a fresh database."""
from __future__ import annotations

from pathlib import Path

from ..formats.game import turn_folder_name
from ..render.history import game_history
from ..render.site import write_site
from ..resources import resource_dir
from ..store import cycle
from ..store.archive import import_game
from ..store.cycle import ProcessResult
from ..store.games import Store, get_game
from .gm import progress
from .texts import turn_summary
from .turn import write_sheets

DEMO_GAMES = ("geeko", "botwars")


def run_demo(database: Path, out: Path) -> dict:
    """Import each bundled game into a fresh SQLite file, writing each turn's report and the next turn sheets."""
    database.unlink(missing_ok=True)
    store = Store(f"sqlite:///{database}")
    written: list[Path] = []
    games = []
    try:
        with progress() as bar:
            for name in DEMO_GAMES:
                folder = resource_dir("turns") / name
                task = bar.add_task(f"demo: {name}", total=None)

                def on_turn(result: ProcessResult) -> None:
                    written.extend(_write_turn(store, result, out))
                    bar.advance(task)

                imported = import_game(store, folder, on_turn=on_turn)
                games.append({"game": imported.game, "turns": len(imported.turns),
                              "hash": imported.turns[-1].after_hash if imported.turns else None})
        with store.session() as session:  # the campaign site: every turn's pages, pictures and emails
            written += write_site(out, [game_history(session, g["game"], with_mail=True) for g in games])
    finally:
        store.close()
    return {"database": str(database), "games": games, "files": [str(p) for p in sorted(written)]}


def _write_turn(store: Store, result: ProcessResult, out: Path) -> list[Path]:
    """One processed turn's report, then the turn sheets of the next turn."""
    folder = out / result.game / turn_folder_name(result.turn)
    folder.mkdir(parents=True, exist_ok=True)
    summary = folder / "summary.txt"
    summary.write_text(turn_summary(result), encoding="utf-8")
    written = [summary]
    with store.session() as session:
        get_game(session, result.game)
        if not result.over:
            _, sheets = cycle.deal(session, result.game)
            written += write_sheets(sheets, out)
    return written
