"""A processed turn's report from what the turn cycle played: the state before it and the engine's outcome.

Stored or just played (`turn process --preview`), a turn is the same plain data (DESIGN.md "Determinism and
history"): the state before and after, the board at the start of every stage and at the end (per board), each
board as the turn left it, the events in order, and what B4.6 played for the players whose orders were missing
(`TurnOutcome.missed`, recorded by the engine; `pbem.store.played` reads a stored turn back). A Geek-o player
who moved on to the next room is shown in the room the turn was played in, with the robots as they ended there.
"""
from __future__ import annotations

from ..engine.campaign import GameState, TurnOutcome, result  # also registers the turn cycle's event types
from ..engine.events import Event
from .ending import done_note, ending_lines
from .turn import BoardTurn, TurnReport, build_turn_report


def outcome_report(game: str, before: GameState, outcome: TurnOutcome, players: list[str]) -> TurnReport:
    """The report of a turn: `before`, the state it was played from; `outcome`, what `campaign.play_turn` returned
    (just now, or read back by `pbem.gm.history.played_turn`); `players`, every player's name (a shared board's
    readers)."""
    after, events = outcome.state, _by_board(outcome.events)
    finished = tuple(p for p in before.players if before.done_playing(p))
    boards = []
    for key, board in before.boards.items():
        if key not in outcome.stages:
            continue  # nothing was played on it (a Geek-o player who has finished)
        title = f"{key} — {board.room.name}" if before.geeko else board.room.name
        readers = (key, *finished) if before.geeko else tuple(players)  # finished: every board, as BotWars' do
        boards.append(BoardTurn(title, board.room, outcome.stages[key], events.get(key, []), outcome.finals[key],
                                readers, after.boards[key]))
    ended = result(after)
    done = {player: done_note(reason) for player in after.players
            if not ended and (reason := after.done_playing(player)) and not before.done_playing(player)}
    return build_turn_report(game, before.turn, boards, outcome.missed,
                             before.setup.rules().missing_orders, done,
                             ending_lines(ended) if ended and not before.is_over else ())


def _by_board(events: list[tuple[str, Event]]) -> dict[str, list[Event]]:
    boards: dict[str, list[Event]] = {}
    for board, event in events:
        boards.setdefault(board, []).append(event)
    return boards
