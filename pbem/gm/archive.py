"""Bringing whole games in and out: `game import DIR` and `game export GAME DIR` (a death match's archive extends
this layout: `pbem.gm.matcharchive`).

A campaign folder is a game description (`game.yaml`) plus one folder of order
files per turn (`turn-001/` …). Import creates the game and then, turn by turn,
deals, submits every order file and processes; export writes the stored game
back in the same shape (its rooms and deck as files, every order version with
the time it came, the open turn's orders, the secrets, and `controls.yaml`: the GM's
controls, see pbem.store.controls), so export → import gives the same database
content and replay the same hashes.
"""
from __future__ import annotations

from dataclasses import dataclass, field
from datetime import datetime, timezone
from pathlib import Path
from typing import Callable

from sqlmodel import Session

from ..formats.controls import CONTROLS, ControlEntry, controls_text, read_controls
from ..formats.game import (
    DESCRIPTION,
    MANIFEST,
    GameDescription,
    TurnManifest,
    description_text,
    manifest_text,
    read_description,
    read_manifest,
    turn_folder_name,
    turn_folders,
)
from ..formats.orders import without_secret
from ..formats.yamlfile import decode, read_limited
from ..store.controls import history, restore
from ..store.games import (
    Refused,
    Store,
    current_state,
    delete_game,
    description_of,
    get_game,
    order_versions,
    processed_turns,
)
from ..store.matches import is_match
from ..store.schedule import schedule_for, set_schedule
from ..store.turns import TurnSheet, dealt
from .cycle import ProcessResult, deal, process, submit
from .matcharchive import ImportedMatch, export_match, import_match
from .setup import create_game

OnTurn = Callable[[ProcessResult], None]  # told of each turn processed
OnDeal = Callable[[list[TurnSheet]], None]  # told of each turn's sheets as it is dealt


@dataclass
class Imported:
    game: str
    turns: list[ProcessResult] = field(default_factory=list)


def import_match_archive(store: Store, folder: str | Path, *, at: datetime, sender: str) -> ImportedMatch:
    """Create the death match archived in FOLDER (`pbem.gm.matcharchive`), committed."""
    folder = Path(folder)
    with store.session() as session:
        return import_match(session, folder, _controls(folder), at, sender)


def import_game(store: Store, folder: str | Path, *, at: datetime, on_turn: OnTurn | None = None,
                on_deal: OnDeal | None = None, turns: int | None = None) -> Imported:
    """Create the game described in FOLDER and play its turns (the first `turns` only, if given).

    Turn N takes the order files in `turn-NNN/`; a turn without a folder is played with no orders (B4.6).
    Files that carry no times (creation, submission, processing) take `at`, the time of the import.
    `on_deal` gets each turn's sheets as it is dealt, `on_turn` each processed turn.
    """
    folder = Path(folder)
    description = read_description(folder / DESCRIPTION)
    controls = _controls(folder)
    with store.session() as session:
        create_game(session, description, at)
        if description.schedule is not None:
            set_schedule(session, description.name, description.schedule)
        session.commit()
    try:
        imported = _play_turns(store, folder, description, on_turn, on_deal, turns, at)
        with store.session() as session:
            restore(session, get_game(session, description.name), controls)
            session.commit()
        return imported
    except BaseException:  # a refused turn (or an interruption) leaves no half-imported game behind
        with store.session() as session:
            delete_game(session, get_game(session, description.name))
            session.commit()
        raise


def _controls(folder: Path) -> list[ControlEntry]:
    """The game's GM controls (`controls.yaml`, when there is one), read before anything is created."""
    path = folder / CONTROLS
    return read_controls(decode(read_limited(path), str(path)), str(path)) if path.exists() else []


def _play_turns(store: Store, folder: Path, description: GameDescription, on_turn: OnTurn | None,
                on_deal: OnDeal | None, turns: int | None, at: datetime) -> Imported:
    imported = Imported(description.name)
    folders = dict(turn_folders(folder))
    last = max([description.turns or 0, *([] if description.open_turn else folders)])
    last = min(last, turns if turns is not None else last)
    for number in range(1, last + 1):
        with store.session() as session:
            manifest = _deal_and_submit(session, description, folders.get(number), on_deal, at)
            played_at = manifest.processed_at if manifest and manifest.processed_at else at
            result = process(session, description.name, turn=number, at=played_at)
        imported.turns.append(result)
        if on_turn:
            on_turn(result)
    if description.open_turn and turns is None:
        with store.session() as session:
            _deal_and_submit(session, description, folders.get(description.open_turn), on_deal, at)
    return imported


def _deal_and_submit(session: Session, description: GameDescription, turn_folder: Path | None,
                     on_deal: OnDeal | None, now: datetime) -> TurnManifest | None:
    """Deal the turn and submit its order files: in the manifest's order with their times, else in name order."""
    _, sheets = deal(session, description.name)
    if on_deal:
        on_deal(sheets)
    manifest = read_manifest(turn_folder) if turn_folder else None
    if turn_folder is None:
        listed = []
    elif manifest is not None:
        listed = [(turn_folder / name, source, at) for name, source, at in manifest.submissions]
    else:
        listed = [(path, None, now) for path in sorted(turn_folder.glob("*.yaml"))]
    for path, source, at in listed:
        name = source or str(path)  # the name it was first sent under, as the original database has it
        refused = [r for r in submit(session, description.name, [(name, read_limited(path))], store=True, at=at or now)
                   if not r.accepted]
        if refused:
            raise Refused([f"{path}: {problem}" if source else problem for r in refused for problem in r.problems])
    return manifest


def export_game(store: Store, name: str, folder: str | Path, *, secrets: bool = True) -> list[Path]:
    """Write GAME as a campaign folder (a death match as its archive: `pbem.gm.matcharchive`): game.yaml, rooms/, deck, and per turn every order version each player sent
    (with `orders.yaml` listing them in the order and at the times they came), the open turn's too, so that
    `import_game` rebuilds the same database content. Without `secrets` the players' secrets are left out (an
    archive to share): of game.yaml, and of every order file (its `secret:` entry, a pasted sheet's preamble and
    a signature); such an import gives the players new ones."""
    folder = Path(folder)
    with store.session() as session:
        game = get_game(session, name)
        if is_match(game):
            return export_match(session, game, folder, secrets=secrets)
        description = description_of(session, game)
        description.created_at = game.created_at.replace(tzinfo=game.created_at.tzinfo or timezone.utc)
        description.schedule = schedule_for(session, game)
        versions = sorted(order_versions(session, game).items(), key=lambda item: (item[0][0], item[1].submitted_at,
                                                                                   item[0][1], item[0][2]))
        processed = {t.number: _aware(t.processed_at) for t in processed_turns(session, game)}
        controls: list[ControlEntry] = [ControlEntry(e.at, e.kind, e.player, e.data) for e in history(session, game)]
        open_turn = current_state(session, game).turn if dealt(session, game, current_state(session, game).turn) \
            and not current_state(session, game).is_over else None
    written = []

    def write(relative: str, text: str) -> None:
        path = folder / relative
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_text(text, encoding="utf-8")
        written.append(path)

    room_paths = [room.source for room in description.rooms]  # kept as recorded: the state hashes include them
    for room in description.rooms:
        write(room.source, room.text)
    deck_path = description.deck.source
    write(deck_path, description.deck.text)
    description.turns = len(processed)
    description.open_turn = open_turn if open_turn is not None and open_turn not in processed else None
    for entry in description.players:
        entry.secret = entry.secret if secrets else None
    write(DESCRIPTION, description_text(description, room_paths, deck_path))
    if controls:
        write(CONTROLS, controls_text(controls))
    counts: dict[tuple[int, str], int] = {}
    for (turn, player, _), _ in versions:
        counts[turn, player] = counts.get((turn, player), 0) + 1
    listed: dict[int, list[tuple[str, str | None, datetime | None]]] = {}
    for (turn, player, version), row in versions:
        file = f"{player}.yaml" if counts[turn, player] == 1 else f"{player}.v{version}.yaml"
        write(f"{turn_folder_name(turn)}/{file}", row.text if secrets else without_secret(row.text))
        listed.setdefault(turn, []).append((file, row.source, row.submitted_at and _aware(row.submitted_at)))
    for turn in sorted(set(listed) | set(processed)):
        write(f"{turn_folder_name(turn)}/{MANIFEST}", manifest_text(TurnManifest(listed.get(turn, []),
                                                                               processed.get(turn))))
    return written


def _aware(moment: datetime) -> datetime:
    """A stored time in UTC (SQLite gives them back without their zone)."""
    return moment if moment.tzinfo else moment.replace(tzinfo=timezone.utc)
