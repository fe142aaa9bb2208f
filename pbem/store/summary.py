"""Each game in a line, as `pbem game list` shows it, read from rows alone where they say enough.

Whether a game is over is the engine's answer (`GameState.is_over`); processing a turn stores it with the turn
(`turns.over`), so listing a game with turns reads that and the turn its latest state waits for, instead of
loading the state with its rooms (~13 ms a game, and the engine's modules, ~60 ms, for the whole command); a game
with no turn yet waits for the turn of its first state and is not over (the engine's `NEW_GAME_IS_OVER`). A game
whose last turn was stored before that column existed is asked of the engine as before.

When every game's rows say enough, `listed` reads the same lines with plain SQL (pbem.store.due.RowReader: the
standard library's sqlite3 on a SQLite file), so the command imports neither SQLAlchemy nor the tables.
"""
from __future__ import annotations

import json
from dataclasses import dataclass
from typing import TYPE_CHECKING

from ..engine.vocabulary import NEW_GAME_IS_OVER
from .due import Rows

if TYPE_CHECKING:
    from sqlmodel import Session

    from .tables import Game


@dataclass(frozen=True)
class GameSummary:
    game: str
    ruleset: str
    turn: int  # the turn the game waits for
    over: bool
    players: list[str]


def game_summaries(session: Session) -> list[GameSummary]:
    """Every campaign's line (a death match's is `pbem.gm.moves.summary`: only its rules know whether it is over,
    when its deadline row does not say it yet)."""
    from .base import list_games
    from .matches import is_match

    return [_summary(session, game) for game in list_games(session) if not is_match(game)]


def listed(rows: Rows) -> list[GameSummary] | None:
    """Every game's line read with plain SQL, as `game_summaries` reads it; None when a game's rows do not say
    enough (its last turn stored before `turns.over`; a death match without its deadline row yet): then ask `game_summaries`. A death match's `turn` is the number of its accepted moves."""
    from ..games import Kind, names  # every other game is a match: the installed games are not read (#34)

    campaign_rulesets = names(Kind.CAMPAIGN)
    summaries = []
    for game, name, ruleset in rows("SELECT id, name, ruleset FROM games ORDER BY name"):
        players = [player for player, in rows("SELECT name FROM players WHERE game_id = :game ORDER BY position",
                                              game=game)]
        if ruleset not in campaign_rulesets:
            about = rows("SELECT about FROM turn_deadlines WHERE game_id = :game AND turn = 0", game=game)
            if not about or about[0][0] is None:
                return None
            (moved,), = rows("SELECT count(*) FROM order_versions WHERE game_id = :game AND accepted = :yes",
                             game=game, yes=True)
            summaries.append(GameSummary(name, ruleset, moved, json.loads(about[0][0])["over"], players))
            continue
        last = rows("SELECT number, over FROM turns WHERE game_id = :game ORDER BY number DESC LIMIT 1", game=game)
        if last and last[0][1] is None:
            return None
        turn, kind, over = (last[0][0], "after", bool(last[0][1])) if last else (1, "before", NEW_GAME_IS_OVER)
        (state,), = rows("SELECT state FROM state_snapshots WHERE game_id = :game AND turn = :turn AND kind = :kind "
                         "AND board = '' AND stage = 0", game=game, turn=turn, kind=kind)
        summaries.append(GameSummary(name, ruleset, json.loads(state)["turn"], over, players))
    return summaries


def _summary(session: Session, game: Game) -> GameSummary:
    from sqlmodel import col, select

    from .base import players_of
    from .tables import StateSnapshot, Turn

    last = session.exec(select(Turn).where(Turn.game_id == game.id).order_by(col(Turn.number).desc())).first()
    if last is not None and last.over is not None:
        state = session.exec(select(StateSnapshot.state).where(
            StateSnapshot.game_id == game.id, StateSnapshot.turn == last.number,
            StateSnapshot.kind == "after")).one()
        turn, over = json.loads(state)["turn"], last.over
    else:
        from .games import current_state

        current = current_state(session, game)
        turn, over = current.turn, current.is_over
    return GameSummary(game.name, game.ruleset, turn, over, [p.name for p in players_of(session, game)])
