"""Bringing whole campaigns in and out: `game import DIR` and `game export GAME DIR`.

A campaign folder is a game description (`game.yaml`) plus one folder of order
files per turn (`turn-001/` …). Import creates the game and then, turn by turn,
deals, submits every order file and processes; export writes the stored game
back in the same shape (its rooms and deck as files, each turn's orders as used),
so export → import → replay gives the same hashes.
"""
from __future__ import annotations

import json
from dataclasses import dataclass, field
from pathlib import Path
from typing import Callable

from ..formats.game import (DESCRIPTION, GameDescription, description_text, read_description, turn_folder_name,
                            turn_folders)
from ..formats.yamlfile import read_limited
from .cycle import ProcessResult, TurnSheet, deal, process, submit
from .games import (Refused, Store, create_game, delete_game, description_of, get_game, order_versions,
                    processed_turns)


@dataclass
class Imported:
    game: str
    turns: list[ProcessResult] = field(default_factory=list)


def import_game(store: Store, folder: str | Path, *, on_turn: Callable[[ProcessResult], None] | None = None,
                on_deal: Callable[[list[TurnSheet]], None] | None = None, turns: int | None = None) -> Imported:
    """Create the game described in FOLDER and play its turns (the first `turns` only, if given).

    Turn N takes the order files in `turn-NNN/`; a turn without a folder is played with no orders (B4.6).
    `on_deal` gets each turn's sheets as it is dealt, `on_turn` each processed turn.
    """
    folder = Path(folder)
    description = read_description(folder / DESCRIPTION)
    with store.session() as session:
        create_game(session, description)
        session.commit()
    try:
        return _play_turns(store, folder, description, on_turn, on_deal, turns)
    except BaseException:  # a refused turn (or an interruption) leaves no half-imported game behind
        with store.session() as session:
            delete_game(session, get_game(session, description.name))
            session.commit()
        raise


def _play_turns(store: Store, folder: Path, description: GameDescription, on_turn, on_deal,
                turns: int | None) -> Imported:
    imported = Imported(description.name)
    folders = dict(turn_folders(folder))
    last = max([description.turns or 0, *folders])
    for number in range(1, min(last, turns if turns is not None else last) + 1):
        turn_folder = folders.get(number)
        with store.session() as session:
            _, sheets = deal(session, description.name)
            if on_deal:
                on_deal(sheets)
            files = [(str(path), read_limited(path)) for path in sorted(turn_folder.glob("*.yaml"))] \
                if turn_folder else []
            refused = [r for r in submit(session, description.name, files, store=True) if not r.accepted]
            if refused:
                raise Refused([problem for r in refused for problem in r.problems])
            result = process(session, description.name, turn=number)
        imported.turns.append(result)
        if on_turn:
            on_turn(result)
    return imported


def export_game(store: Store, name: str, folder: str | Path, *, secrets: bool = False) -> list[Path]:
    """Write GAME as a campaign folder: game.yaml, rooms/, deck and turn-NNN/PLAYER.yaml for every processed turn.

    The players' secrets are written only with `secrets` (an archive is often shared).
    """
    folder = Path(folder)
    with store.session() as session:
        game = get_game(session, name)
        description = description_of(session, game)
        versions = {key: v.text for key, v in order_versions(session, game).items()}
        turns = [(t.number, json.loads(t.orders)) for t in processed_turns(session, game)]
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
    description.turns = len(turns)
    for player in description.players:
        player.secret = player.secret if secrets else None
    write(DESCRIPTION, description_text(description, room_paths, deck_path))
    for number, used in turns:
        for player, version in used.items():
            if version is not None:
                write(f"{turn_folder_name(number)}/{player}.yaml", versions[(number, player, version)])
    return written
