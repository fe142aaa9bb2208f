"""`pbem demo`: the bundled sample campaign (turns/) played turn by turn into a fresh database."""
from __future__ import annotations

from datetime import datetime, timezone
from pathlib import Path
from typing import Any

from ..formats.game import turn_folder_name
from ..games import Kind, names
from ..gm import cycle
from ..gm.archive import import_game
from ..gm.cycle import ProcessResult
from ..gm.history import game_history
from ..gm.reports import SHEETS, write_sheets
from ..gm.texts import turn_summary
from ..render.site import write_site
from ..render.turn import recipients
from ..resources import resource_dir
from ..store.due import session_rows
from ..store.games import Store, get_game, players_of
from ..store.turns import TurnSheet
from .gm import progress

DEMO_AT = datetime(2026, 1, 1, 12, 0, tzinfo=timezone.utc)  # the sample's turns are played then, not at the clock:
# the site's feed dates each turn, and two runs must give the same bytes


def run_demo(database: Path, out: Path, at: datetime) -> dict[str, Any]:
    """Import each bundled game into a fresh SQLite file, then write the campaign site under OUT.

    OUT/index.html indexes the games; OUT/GAME/turn-NNN/ holds turn N's report (pages, pictures,
    each player's .eml), a plain summary.txt and, in sheets/, the turn sheets dealt for turn N. `at`: the
    time stamps of what the bundled files leave undated (the site's feed dates the turns with it).
    """
    database.unlink(missing_ok=True)
    store = Store(f"sqlite:///{database}")
    written: list[Path] = []
    games: list[dict[str, Any]] = []
    try:
        with progress() as bar:
            for name in names(Kind.CAMPAIGN):  # each campaign game's sample, turns/NAME
                task = bar.add_task(f"demo: {name}", total=None)

                def on_deal(sheets: list[TurnSheet]) -> None:
                    written.extend(write_sheets(sheets, out, SHEETS))

                def on_turn(result: ProcessResult) -> None:
                    summary = out / result.game / turn_folder_name(result.turn) / "summary.txt"
                    summary.parent.mkdir(parents=True, exist_ok=True)
                    summary.write_text(turn_summary(result), encoding="utf-8")
                    written.append(summary)
                    bar.advance(task)  # noqa: B023 - called only within this iteration, by import_game

                imported = import_game(store, resource_dir("turns") / name, at=at, on_deal=on_deal, on_turn=on_turn)
                if imported.turns and not imported.turns[-1].over:
                    with store.session() as session:
                        on_deal(cycle.deal(session, imported.game)[1])
                games.append({"game": imported.game, "turns": len(imported.turns),
                              "hash": imported.turns[-1].after_hash if imported.turns else None})
        with store.session() as session:  # the campaign site: every turn's pages, pictures and emails
            rows = session_rows(session)
            written += write_site(out, [game_history(rows, g["game"], recipients(players_of(session, get_game(
                session, g["game"])))) for g in games])
    finally:
        store.close()
    return {"database": str(database), "games": games, "files": [str(p) for p in sorted(set(written))]}
