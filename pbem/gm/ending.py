"""The end told (#22): a player who has no more turns while the game goes on (BotWars: every robot out of
lives; Geek-o: through the last room) is mailed so, once; when the game is over everyone it concerns is mailed
the result and the final standings, once. The facts are the engine's (`GameState.done_playing`,
`campaign.result`); the Message-IDs come from the game and the recipient, so asking again queues nothing."""
from __future__ import annotations

from datetime import datetime
from typing import Sequence

from sqlmodel import Session

from ..engine.campaign import result
from ..formats.controls import Press
from ..mail.notices import game_over, no_more_turns
from ..mail.outbox import queue
from ..mail.post import queue_game_mail
from ..render.ending import done_note, ending_lines
from ..render.turn import Recipient, TurnReport
from ..store.controls import observers
from ..store.games import current_state, get_game, players_of
from ..store.tables import Game
from .policy import press as press_policy


def audience(session: Session, game: Game) -> list[Recipient]:
    """Everyone a game's result is told to: its players, then its observers (greeted as "observer")."""
    players = [Recipient(p.name, p.email) for p in players_of(session, game)]
    addresses = {p.address for p in players}
    return players + [Recipient("observer", a) for a in observers(session, game) if a not in addresses]


def queue_the_end(session: Session, name: str, sender: str, at: datetime) -> list[str]:
    """Queue (not committed) what the game's state says is to be told: the end to the audience, or each player's
    last turn to them. Returns who was told, for the GM ('bob: out of lives', 'ann: the result')."""
    game = get_game(session, name)
    state = current_state(session, game)
    ended = result(state)
    told = []
    if ended is not None:
        lines = ending_lines(ended)
        for recipient in audience(session, game):
            if queue(session, game_over(sender, name, recipient.player, recipient.address, lines), "end", at):
                told.append(f"{recipient.player}: the result")
        return told
    relays_press = press_policy(session, game) is not Press.OFF
    for player in players_of(session, game):
        reason = state.done_playing(player.name)
        if reason and queue(session, no_more_turns(sender, name, player.name, player.email,
                                                   done_note(reason, press=relays_press)), "out", at):
            told.append(f"{player.name}: {reason}")
    return told


def queue_game_news(session: Session, name: str, sender: str, at: datetime, templates: Sequence[str] = (),
                    report: TurnReport | None = None) -> tuple[int, list[str]]:
    """Everything a game has to mail now (not committed): the last turn's reports (from `report` when the caller
    built it already) and the dealt turn's sheets (`queue_game_mail`), and the end told. Returns how many reports
    and sheets were new, and who was told what."""
    return (queue_game_mail(session, name, sender, at, templates, report),
            queue_the_end(session, name, sender, at))
