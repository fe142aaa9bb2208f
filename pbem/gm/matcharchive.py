"""A death match in and out of the one archive format (`pbem game export MATCH DIR`, `pbem game import DIR`), and
its replay (`pbem replay MATCH --verify`).

The archive (`pbem.formats.matchgame`) is the campaign folder's layout extended: `game.yaml` (the match and its
seats), `transcript.yaml` (its config and every move in arrival order, each with its stamp, why it was refused,
how it came and the message that carried it) and `controls.yaml` (the GM's controls). Import stores the moves
as they were, in one transaction, its rows written as `pbem dm new` writes a match's (`store.newmatch`), and
refuses an archive whose accepted moves the rules no longer accept, naming the file, line and field: the match
comes back with the same position (state hash) and the same clock.
"""
from __future__ import annotations

import secrets
from dataclasses import dataclass, field
from datetime import datetime
from pathlib import Path
from typing import Any

from sqlmodel import Session, select

from ..dm.base import Action, Config, replay
from ..dm.clock import utc
from ..formats.canonical import state_hash
from ..formats.controls import CONTROLS, ControlEntry, controls_text
from ..formats.game import DESCRIPTION
from ..formats.matchgame import TRANSCRIPT, MatchGame, Seat, match_game_text, read_match_game
from ..formats.transcript import MoveRecord, MoveSource, Transcript, dump_transcript, read_transcript
from ..formats.yamlfile import FormatError, Problem
from ..mail.outbox import queue
from ..mail.post import match_thread
from ..store import newmatch
from ..store.base import Refused, players_of
from ..store.controls import history, observers, restore
from ..store.mail import OutboxState
from ..store.matches import action_of, config_of, find_match, moves, seat_names
from ..store.newmatch import MatchRows, Move
from ..store.tables import Game, OrderVersion
from .moves import opened, opening_token, write_deadline


@dataclass(frozen=True)
class ImportedMatch:
    game: str
    moves: int
    hash: str  # the position's state hash


def export_match(session: Session, match: Game, folder: Path, *, secrets: bool = True) -> list[Path]:
    """Write the match as an archive: game.yaml, transcript.yaml and (when the GM made any) controls.yaml. Without
    `secrets` no file holds a player's secret; an import then gives each player who plays by mail a new one."""
    config = config_of(match)
    seats = tuple(Seat(p.name, p.email, p.secret if secrets and p.email else None, p.timezone,
                       bool(p.email) and opened(session, match, p)) for p in players_of(session, match))
    watchers = tuple(a for a in observers(session, match) if opened(session, match, None, a))
    names = seat_names(session, match)
    rows = moves(session, match)
    controls = [ControlEntry(e.at, e.kind, e.player, e.data) for e in history(session, match)]
    files = {DESCRIPTION: match_game_text(MatchGame(match.name, match.ruleset, utc(match.created_at), seats, watchers)),
             TRANSCRIPT: dump_transcript(config, [action_of(row, names) for row in rows], [_record(r) for r in rows])}
    if controls:
        files[CONTROLS] = controls_text(controls)
    folder.mkdir(parents=True, exist_ok=True)
    for name, text in files.items():
        (folder / name).write_text(text, encoding="utf-8")
    return [folder / name for name in files]


def _record(row: OrderVersion) -> MoveRecord:
    return MoveRecord(None if row.accepted else row.reason or "refused", MoveSource(row.source), row.mail)


def import_match(session: Session, folder: Path, controls: list[ControlEntry], at: datetime,
                 sender: str) -> ImportedMatch:
    """Create the match archived in `folder` with every move as it was stored, its GM controls and its seats
    (committed); FormatError or Refused naming the file, line and field when the archive does not hold
    together. `sender`: the GM's address, on the record of each opening mail sent before the export."""
    game = read_match_game(folder / DESCRIPTION)
    transcript = read_transcript(folder / TRANSCRIPT, implied=False)
    _check_agrees(game, transcript, folder)
    config = transcript.config
    if session.exec(select(Game.id).where(Game.name == game.name)).first() is not None:
        raise Refused([f"a game named {game.name} already exists"])
    state = _replayed(config, transcript)
    seats = {seat.name: newmatch.Seat(seat.email or "", seat.secret or (secrets.token_hex(8) if seat.email else ""),
                                      seat.timezone) for seat in game.seats}
    kept = [Move(action.player, action.payload, action.at, record.refused, str(record.source), record.mail)
            for action, record in zip(transcript.actions, transcript.records)]
    made = MatchRows.joining(session.connection()).add(game.name, config, kept, game.created_at or at, seats)
    match = session.get_one(Game, made)
    restore(session, match, controls)
    _opened_before(session, match, [seat.name for seat in game.seats if seat.opened], game.opened_observers, at,
                   sender)
    write_deadline(session, match, config, state, at)
    session.commit()
    return ImportedMatch(match.name, len(transcript.actions), state_hash(state))


def _check_agrees(game: MatchGame, transcript: Transcript, folder: Path) -> None:
    """The transcript plays the game.yaml's game with its seats, in their order."""
    problems = []
    if transcript.config.game != game.ruleset:
        problems.append(Problem(str(folder / TRANSCRIPT), None, "game",
                                f"{transcript.config.game}, but {DESCRIPTION} says {game.ruleset}"))
    seats = [seat.name for seat in game.seats]
    if list(transcript.config.players) != seats:
        problems.append(Problem(str(folder / TRANSCRIPT), None, "players",
                                f"{', '.join(transcript.config.players)}, but {DESCRIPTION} seats "
                                f"{', '.join(seats)}"))
    if problems:
        raise FormatError(problems)


def _replayed(config: Config, transcript: Transcript) -> Any:
    """The position the transcript's accepted moves give; FormatError naming the first one the rules refuse."""
    accepted = [(index, action) for index, (action, record) in enumerate(zip(transcript.actions, transcript.records))
                if record.refused is None]
    replayed = replay(config, [action for _, action in accepted])
    if replayed.errors:
        where, reason = replayed.errors[0]
        index = accepted[where][0]
        raise FormatError([Problem(transcript.source, transcript.lines[index], f"actions[{index}]",
                                   f"kept as accepted, but the rules refuse it: {reason}")])
    return replayed.state


def _opened_before(session: Session, match: Game, players: list[str], watchers: tuple[str, ...], at: datetime,
                   sender: str) -> None:
    """For each seat and observer whose opening mail went out before the export, a record of it in the outbox, as
    sent (its Message-ID is the opening's, which `moves.opened` looks for): nobody is opened twice, the clock runs
    on."""
    from ..mail.notices import notice  # the campaigns' report builders come with it: only for an import

    opened = [(seat, seat.email) for seat in players_of(session, match) if seat.name in players and seat.email]
    for seat, address in [*opened, *((None, address) for address in watchers)]:
        message = notice(sender, address, f"{match.name}: your match began before it was imported",
                         [f"(The opening mail of {match.name} went to {address} before the match was "
                          "exported; this record of it was never sent.)"],
                         ("dm", opening_token(match, seat)), match_thread(match.name))
        row = queue(session, message, "notice", at)
        if row is not None:
            row.state, row.sent_at = OutboxState.SENT, at
    session.flush()


@dataclass(frozen=True)
class ReplayedMove:
    seq: int
    player: str
    payload: dict[str, Any]
    refused: str | None  # why the rules refuse it now (None: accepted again, as stored)


@dataclass
class MatchReplay:
    game: str
    moves: list[ReplayedMove] = field(default_factory=list)
    hash: str = ""  # the position the accepted moves give

    @property
    def first_difference(self) -> int | None:
        """The seq of the first stored accepted move the rules refuse now."""
        return next((move.seq for move in self.moves if move.refused is not None), None)


def replay_match(session: Session, name: str) -> MatchReplay | None:
    """The match rebuilt from its config and its accepted moves (`dm.base.replay`), each move said accepted again
    or refused now; None when no match is called `name`."""
    match = find_match(session, name)
    if match is None:
        return None
    names = seat_names(session, match)
    rows = [row for row in moves(session, match) if row.accepted]
    actions: list[Action] = [action_of(row, names) for row in rows]
    replayed = replay(config_of(match), actions)
    refused = dict(replayed.errors)
    return MatchReplay(name, [ReplayedMove(row.version, action.player, dict(action.payload), refused.get(index))
                              for index, (row, action) in enumerate(zip(rows, actions))],
                       state_hash(replayed.state))
