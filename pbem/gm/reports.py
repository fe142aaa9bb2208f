"""Turning a processed turn into the players' reports and the next turn sheets (via pbem.render), and the
workflow steps that write them: `pbem turn process`, a turn's reports settled, `pbem report`.

A turn's report folder is complete or told: its `.complete` marker is removed before the folder is written and
put back only when every file of it is in place, and a turn stored by `turn process` or `pbem run` is on the
store's list of reports owed (pbem.store.reports) until then, so the next `pbem run` writes it again.
"""
from __future__ import annotations

import errno
from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING, Callable, Sequence

from ..engine.campaign import GameState, TurnOutcome
from ..formats.game import turn_folder_name
from ..render import Recipient, turn_sheet_html, write_turn_report
from ..render.history import outcome_report
from ..render.html import TemplateRefused
from ..render.html import campaign_templates as campaign_templates  # where the commands look for it
from ..render.sheet import DrawnSheets, picture_name
from ..render.turn import TurnReport
from ..store.turns import TurnSheet

if TYPE_CHECKING:
    from datetime import datetime

    from sqlmodel import Session

    from ..store.tables import Game
    from .cycle import ProcessResult

MARKER = ".complete"  # in a turn's report folder: every file of it was written


def repair_hint(game: str, turn: int, out: Path | str) -> str:
    """The command that writes a stored turn's reports again (the next `pbem run` does it too)."""
    return f"pbem report {game} --turn {turn} --out {out}"


def not_written(game: str, turn: int, out: Path | str, err: OSError) -> str:
    """A storage failure under a stored turn's reports: the game, the turn, the path and the repair."""
    if isinstance(err, TemplateRefused):
        return (f"{game} turn {turn} is stored, but its reports could not be made: the template {err.filename}: "
                f"{err.strerror}. Fix the template, then: {repair_hint(game, turn, out)} (or the next pbem run)")
    where = err.filename or Path(out) / game / turn_folder_name(turn)
    return (f"{game} turn {turn} is stored, but its reports could not be written to {where}: {err.strerror or err}. "
            f"The next pbem run writes them again, or now: {repair_hint(game, turn, out)}")


def turn_report(game: str, result: ProcessResult) -> TurnReport:
    """The report of a turn just played (stored or previewed)."""
    return outcome_report(game, result.before, result.outcome, list(result.before.players))


def write_reports(out: Path, game: str, turn: int, before: GameState, outcome: TurnOutcome,
                  recipients: list[Recipient], templates: tuple[str, ...] = (),
                  summary: str | None = None) -> list[Path]:
    """OUT/GAME/turn-NNN/: the stage pages, pictures and each player's email (.eml), `summary` as summary.txt when
    given (a player whose orders were missing is told what was played for them: the outcome's `missed`). OSError
    when the folder could not be written whole."""
    return write_report(out, outcome_report(game, before, outcome, list(before.players)), recipients,
                        templates, summary)


def write_report(out: Path, report: TurnReport, recipients: list[Recipient], templates: tuple[str, ...] = (),
                 summary: str | None = None) -> list[Path]:
    """OUT/GAME/turn-NNN/ for a report already built, its completion marker written last."""
    return complete_folder(out / report.game / turn_folder_name(report.turn),
                           lambda folder: write_turn_report(folder, report, recipients, templates=templates), summary)


def write_stored_report(session: Session, game: Game, turn: int, folder: Path, sender: str,
                        templates: tuple[str, ...] = ()) -> list[Path]:
    """A processed turn's report folder written again from the store, summary.txt included."""
    from ..render.turn import recipients, write_turn_report
    from ..store.games import players_of
    from .cycle import processed_result
    from .history import stored_report
    from .texts import turn_summary

    report, readers = stored_report(session, game, turn), recipients(players_of(session, game))
    return complete_folder(folder, lambda at: write_turn_report(at, report, readers, sender, templates=templates),
                           turn_summary(processed_result(session, game.name, turn)))


def complete_folder(folder: Path, write: Callable[[Path], list[Path]], summary: str | None) -> list[Path]:
    """`write(folder)` and summary.txt, then the completion marker, once every file written is still there (a
    folder deleted meanwhile is recreated by later writes, and must not pass for whole)."""
    (folder / MARKER).unlink(missing_ok=True)
    files = write(folder)
    if summary is not None:
        files.append(folder / "summary.txt")
        _write(files[-1], summary)
    vanished = next((path for path in files if not path.is_file()), None)
    if vanished is not None:
        raise FileNotFoundError(errno.ENOENT, "removed while the report was being written", str(vanished))
    (folder / MARKER).write_text(f"{len(files)} files\n", encoding="utf-8")
    return files


SHEETS = "sheets"  # the turn sheets dealt for turn N, in OUT/GAME/turn-NNN/sheets/ beside its report


def write_sheets(sheets: Sequence[TurnSheet] | DrawnSheets, out: Path, subfolder: str = "",
                 templates: tuple[str, ...] = ()) -> list[Path]:
    """Each player's turn sheet (text and HTML) and pre-filled order file, in OUT/GAME/turn-NNN/[SUBFOLDER]; the
    board pictures drawn for the mail already when `sheets` holds them."""
    drawn = sheets if isinstance(sheets, DrawnSheets) else DrawnSheets(tuple(sheets))
    written = []
    for sheet in drawn.sheets:
        folder = out / sheet.game / turn_folder_name(sheet.turn) / subfolder
        folder.mkdir(parents=True, exist_ok=True)
        for path, data in ((folder / f"{sheet.player}.txt", drawn.text(sheet)),
                           (folder / f"{sheet.player}.html", turn_sheet_html(sheet, templates)),
                           (folder / f"{sheet.player}-orders.yaml", sheet.orders),
                           *([(folder / picture_name(sheet), drawn.picture(sheet))] if sheet.board is not None else [])):
            _write(path, data)
            written.append(path)
    return written


def _write(path: Path, data: str | bytes) -> None:
    """`path` holding `data`; an OSError names the file (a full disk's does not by itself)."""
    try:
        path.write_bytes(data.encode("utf-8") if isinstance(data, str) else data)
    except OSError as err:
        raise OSError(err.errno, err.strerror, err.filename or str(path)) from err


@dataclass
class Processed:
    """A turn processed by `pbem turn process`: the result, its summary, and why its reports were not written."""

    result: ProcessResult
    summary: str
    problem: str | None = None


def process_turn(session: Session, name: str, *, at: datetime, turn: int | None, out: Path,
                 templates: tuple[str, ...]) -> Processed:
    """`pbem turn process`: the turn stored with its reports owed (one commit), then its reports written into OUT
    and settled (a commit of their own)."""
    from ..render.turn import recipients
    from ..store.games import get_game, players_of
    from ..store.reports import owe
    from .cycle import play
    from .texts import turn_summary

    result = play(session, name, turn=turn, at=at)
    owe(session, name, result.turn, str(out), at)  # with the turn: a crash leaves them owed
    session.commit()
    done = Processed(result, turn_summary(result))
    done.problem = report_turn(session, name, result, out, templates, done.summary,
                               recipients(players_of(session, get_game(session, name))))
    return done


def preview_turn(session: Session, name: str, *, at: datetime, turn: int | None, out: Path | None,
                 templates: tuple[str, ...]) -> Processed:
    """`pbem turn process --preview`: the turn resolved, nothing stored; its reports written into OUT if given."""
    from ..render.turn import recipients
    from ..store.games import get_game, players_of
    from .cycle import play
    from .texts import turn_summary

    result = play(session, name, preview=True, turn=turn, at=at)
    done = Processed(result, turn_summary(result))
    if out is not None:
        try:
            write_reports(out, name, result.turn, result.before, result.outcome,
                          recipients(players_of(session, get_game(session, name))), templates, done.summary)
        except OSError as err:
            done.problem = (f"turn {result.turn} of {name} is not stored (preview), and its reports could not be "
                            f"written to {err.filename or out}: {err.strerror or err}")
    return done


def report_turn(session: Session, name: str, result: ProcessResult, out: Path, templates: tuple[str, ...],
                summary: str, recipients: list[Recipient], report: TurnReport | None = None) -> str | None:
    """A stored turn's reports (`report`, when the caller built it already for the mails) written into OUT and
    settled (committed); what went wrong if they could not be written (they stay owed, for the next `pbem run`)."""
    from ..store.reports import settle

    try:
        write_report(out, report or turn_report(name, result), recipients, templates, summary)
    except OSError as err:
        return not_written(name, result.turn, out, err)
    settle(session, name, result.turn, str(out))
    session.commit()
    return None


def report_again(session: Session, game: Game, turn: int, folder: Path, out: Path, sender: str,
                 templates: tuple[str, ...]) -> list[Path]:
    """`pbem report`: a processed turn's report folder written again from the store, and what `turn process` or
    `pbem run` left owed in OUT settled (committed). OSError when it could not be written."""
    from ..store.reports import settle

    files = write_stored_report(session, game, turn, folder, sender, templates)
    settle(session, game.name, turn, str(out))
    session.commit()
    return files
