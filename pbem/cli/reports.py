"""Turning a processed turn into the players' reports and the next turn sheets (via pbem.render)."""
from __future__ import annotations

from pathlib import Path

from ..engine.campaign import GameState, TurnOutcome
from ..formats.game import turn_folder_name
from ..render import Recipient, turn_sheet_html, turn_sheet_text, write_turn_report
from ..render.history import outcome_report
from ..render.sheet import picture_name, sheet_png
from ..render.turn import TurnReport
from ..store.cycle import TurnSheet


def campaign_templates() -> tuple[str, ...]:
    """A campaign folder's own templates/ (from `pbem init`), which override the bundled ones."""
    return ("templates",) if Path("templates").is_dir() else ()


def write_reports(out: Path, game: str, turn: int, before: GameState, outcome: TurnOutcome,
                  recipients: list[Recipient], used: dict[str, int | None],
                  templates: tuple[str, ...] = ()) -> list[Path]:
    """OUT/GAME/turn-NNN/: the stage pages, pictures and each player's email (.eml); `used`: the order version
    each player's turn used (None: their orders were missing, and their mail says what was played for them)."""
    return write_report(out, outcome_report(game, before, outcome, list(before.players), used), recipients,
                        templates)


def write_report(out: Path, report: TurnReport, recipients: list[Recipient],
                 templates: tuple[str, ...] = ()) -> list[Path]:
    """OUT/GAME/turn-NNN/ for a report already built."""
    return write_turn_report(out / report.game / turn_folder_name(report.turn), report, recipients,
                             templates=templates)


def write_sheets(sheets: list[TurnSheet], out: Path, subfolder: str = "",
                 templates: tuple[str, ...] = ()) -> list[Path]:
    """Each player's turn sheet (text and HTML) and pre-filled order file, in OUT/GAME/turn-NNN/[SUBFOLDER]."""
    written = []
    for sheet in sheets:
        folder = out / sheet.game / turn_folder_name(sheet.turn) / subfolder
        folder.mkdir(parents=True, exist_ok=True)
        for path, text in ((folder / f"{sheet.player}.txt", turn_sheet_text(sheet)),
                           (folder / f"{sheet.player}.html", turn_sheet_html(sheet, templates)),
                           (folder / f"{sheet.player}-orders.yaml", sheet.orders)):
            path.write_text(text, encoding="utf-8")
            written.append(path)
        if sheet.board is not None:
            picture = folder / picture_name(sheet)
            picture.write_bytes(sheet_png(sheet))
            written.append(picture)
    return written
