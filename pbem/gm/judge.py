"""A death match's actions judged by its rules on the one clock (RULES D5) and recorded, accepted or refused;
its position rebuilt from the accepted ones; the deadlines that passed applied with nobody acting.

Not committed: the gm step that calls these (a GM command, a letter's action, `pbem run`) commits once.
"""
from __future__ import annotations

from datetime import datetime
from typing import Any

from sqlmodel import Session

from ..dm import clock
from ..dm.base import Action, Config, Game, get_game, replay
from ..dm.clock import when
from ..mail.dmpost import queue_match_news
from ..store.dm import DmAction, DmMatch, action_of, all_matches, config_of, lock_match, record_action, submissions


def position(session: Session, match: DmMatch) -> tuple[Config, Any, list[Action]]:
    """The match's config, its state rebuilt from the accepted actions, and those actions."""
    config = config_of(match)
    accepted = [action_of(row) for row in submissions(session, match) if row.accepted]
    return config, replay(config, accepted).state, accepted


def submit_action(session: Session, match: DmMatch, action: Action,
                  told: datetime | None = None) -> tuple[DmAction, Any]:
    """Check one action against the position and record it, accepted or refused (`row.reason`);
    returns the row and the position after it. `told`: when the next mover is told, if later than the stamp
    because the inbox could not be read (`clock.submit`)."""
    lock_match(session, match)
    config, state, _ = position(session, match)
    return _submit(session, match, get_game(config.game), state, action, told)


def submit_actions(session: Session, match: DmMatch, state: Any, actions: list[Action]) -> tuple[Any, int]:
    """Check and record a run of actions from `state` (a transcript taken over), without replaying
    for each; returns the position after them and how many were accepted."""
    rules, accepted = get_game(match.game), 0
    for action in actions:
        row, state = _submit(session, match, rules, state, action)
        accepted += row.accepted
    return state, accepted


def _submit(session: Session, match: DmMatch, rules: Game[Any, Action], state: Any, action: Action,
            told: datetime | None = None) -> tuple[DmAction, Any]:
    """Record the submission (after the clock's own action when a deadline passed before it, D5; before the clock's
    `told` when the next mover was told late); the row of the submission itself and the position after it."""
    records, state = clock.submit(rules, state, action, told)
    rows = [record_action(session, match, record.action, record.reason) for record in records]
    return next(row for row, record in zip(rows, records) if record.action is action), state


def tick(session: Session, match: DmMatch, now: datetime) -> tuple[list[Any], Any]:
    """Let the deadlines that passed by `now` take effect with nobody acting (the scheduled run, D5 ruling):
    recorded as the clock's `{timeout: true}`; returns the deadlines that passed and the position."""
    lock_match(session, match)
    config, state, _ = position(session, match)
    rules = get_game(config.game)
    _, passed = clock.advance(rules, state, now)
    if passed:
        _, state = _submit(session, match, rules, state, Action(clock.GM, {"timeout": True}, now))
    return passed, state


def tick_matches(session: Session, now: datetime, sender: str, names: list[str] | None = None) -> list[dict[str, Any]]:
    """Let the deadlines that passed by `now` take effect in every match (or those named), with nobody acting
    (RULES D5 ruling), and mail its players the new position; one document per match that moved on."""
    documents = []
    for match in all_matches(session):
        if names is not None and match.name not in names:
            continue
        passed, state = tick(session, match, now)
        if not passed:
            continue
        told = queue_match_news(session, match.name, config_of(match), state, now, sender,
                                "a deadline passed: " + "; ".join(d.effect for d in passed),
                                f"tick {passed[-1].at.isoformat()}")
        documents.append({"match": match.name, "passed": [f"{when(d.at)}: {d.effect}" for d in passed],
                          "mailed": told})
    return documents
