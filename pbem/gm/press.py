"""Press: a player's message to another player (or to all), relayed from the GM's address under the game's press
policy (`signed`: the author named; `anonymous`: not; `off`: refused), kept in the game's history."""
from __future__ import annotations

from datetime import datetime

from sqlmodel import Session

from ..formats.controls import Control, Press
from ..store.base import players_of
from ..store.controls import Entry, record
from ..store.games import Refused
from ..store.tables import Game
from .policy import press as press_policy
from .tell import tell

MAX_CHARS = 20_000


def recipients(session: Session, game: Game, author: str, to: list[str]) -> list[str]:
    """The players a press message goes to (`all`: everyone else who has an address), every name checked: a death
    match's seat that nobody plays by mail cannot be reached."""
    seats = players_of(session, game)
    names = [p.name for p in seats]
    unreachable = {p.name for p in seats if not p.email}
    if to == ["all"]:
        going = [n for n in names if n != author and n not in unreachable]
        if not going:
            raise Refused([f"press to: all: nobody else plays {game.name} by mail"])
        return going
    unknown = [n for n in to if n not in names]
    if unknown:
        raise Refused([f"press to: {', '.join(unknown)} {'is' if len(unknown) == 1 else 'are'} not a player of "
                       f"{game.name} (players: {', '.join(names)}; or `to: all`)"])
    if author in to:
        raise Refused(["press to: yourself; name another player, or `to: all`"])
    if unreachable & set(to):
        raise Refused([f"press to: {', '.join(n for n in to if n in unreachable)}: plays {game.name} by no address, "
                       "so press cannot reach them"])
    return sorted(set(to), key=names.index)


def relay(session: Session, game: Game, author: str, to: list[str], text: str, now: datetime,
          sender: str) -> tuple[Entry, list[str]]:
    """Queue the message to its recipients and keep it (not committed); the entry and who got it."""
    policy = press_policy(session, game)
    if policy is Press.OFF:
        raise Refused([f"{game.name} has no press: the game master has not allowed messages between players"])
    text = text.strip()
    if not text or len(text) > MAX_CHARS:
        raise Refused([f"press text: between 1 and {MAX_CHARS:,} characters"])
    names = recipients(session, game, author, to)
    entry = record(session, game, Control.PRESS, now, author, to=names, text=text, policy=str(policy))
    signed = policy is Press.SIGNED
    whom = {p.name: p.email for p in players_of(session, game)}
    answer = ([f"To answer, mail game, player, secret and `press: {{to: {author}, text: ...}}` (or `to: all`)."]
              if signed else
              ["To answer, mail game, player, secret and `press: {to: all, text: ...}`: the author is not named, "
               "so `to: all` is the answer that reaches them."])
    tell(session, game, entry, sender, now, [(n, whom[n]) for n in names],
         f"press from {author}" if signed else "anonymous press",
         [f"{author} writes:" if signed else "A player writes (anonymously):", "", *text.splitlines(), "", *answer])
    return entry, names
