"""Who plays and who watches, in any game: a player replaced, an address changed, observers added and removed.

A replacement keeps the player's seat (the name the orders, the robots and the history use; a death match's
moves) and gives it a new person: a new address and a new secret, so the old address and the old secret no longer
authenticate.
"""
from __future__ import annotations

from dataclasses import dataclass
from datetime import datetime
from typing import Sequence

from sqlmodel import Session

from ..formats.controls import Control
from ..formats.names import address_problem
from ..store.base import players_of
from ..store.controls import observers, record
from ..store.games import Refused, get_game, lock_game
from ..store.matches import is_match
from ..store.tables import Game, Player
from .sheets import queue_sheet
from .tell import everyone, tell


def seat(session: Session, game: Game, name: str) -> Player:
    found = next((p for p in players_of(session, game) if p.name == name), None)
    if found is None:
        raise Refused([f"{game.name} has no player {name!r} (players: "
                       f"{', '.join(p.name for p in players_of(session, game))})"])
    return found


def _check_address(session: Session, game: Game, email: str, player: Player | None) -> str:
    email = email.strip().lower()
    if (problem := address_problem(email)) is not None:
        raise Refused([problem])
    taken = next((p.name for p in players_of(session, game) if p.email.lower() == email and p is not player), None)
    if taken is not None:
        raise Refused([f"{email} is already {taken}'s address in {game.name}"])
    return email


@dataclass(frozen=True)
class Replaced:
    """What `replace` did: the seat, its old address ('' when nobody played it by mail, so no goodbye went) and
    every address a mail was queued to."""

    seat: Player
    was: str
    told: list[str]


def replace(session: Session, name: str, old: str, newcomer: str, email: str, secret: str, now: datetime,
            sender: str, templates: Sequence[str] = ()) -> Replaced:
    """`pbem game replace`: NEWCOMER takes OLD's seat with a new address and secret; what the seat did stays its
    own (a campaign's robots and history, a match's moves). The newcomer gets a welcome and what they play from (the
    current turn sheet; a begun match's position with the lines to send), the old address a goodbye, the other
    players and the observers the news. Committed."""
    lock_game(session, name)
    game = get_game(session, name)
    player = seat(session, game, old)
    email = _check_address(session, game, email, player)
    was = player.email
    others = [person for person in everyone(session, game) if person[0] != old]
    player.email, player.secret = email, secret
    session.add(player)
    session.flush()
    entry = record(session, game, Control.REPLACE, now, old, name=newcomer, email=email, was=was)
    words = _match_words if is_match(game) else _campaign_words
    welcome, others_told = words(name, old, newcomer, secret)
    told = [email] if tell(session, game, entry, sender, now, [(newcomer, email)], f"you take over {old}", welcome) else []
    if was:  # a seat nobody played by mail has nobody to say goodbye to
        tell(session, game, entry, sender, now, [(old, was)], f"{newcomer} takes over your seat",
             [f"The game master gave your seat in {name} to {newcomer}. Your address and secret no longer play it.",
              "Thank you for playing."])
        told.append(was)
    tell(session, game, entry, sender, now, others, f"{newcomer} takes over {old}", others_told)
    told += [address for _, address in others]
    if is_match(game):
        from .matches import welcome as open_seat

        told += [address for _, address in open_seat(session, game, now, sender) if address not in told]
    else:
        queue_sheet(session, game, old, sender, now, ("replace", str(entry.id)), templates)
    session.commit()
    return Replaced(player, was, told)


def _campaign_words(name: str, old: str, newcomer: str, secret: str) -> tuple[list[str], list[str]]:
    """A campaign's replacement in words: the newcomer's welcome, the others' news."""
    return ([f"You take over the seat of {old} in {name}: their robots, their standing and their history are yours.",
             f"Your orders say `player: {old}` and carry your own secret, `secret: {secret}` (it is on every turn "
             "sheet you get). Your current turn sheet follows in its own mail.",
             "Mail `command: help` (with game, player and secret) to learn what else you can ask."],
            [f"{newcomer} now plays {old}'s robots in {name}."])


def _match_words(name: str, old: str, newcomer: str, secret: str) -> tuple[list[str], list[str]]:
    """A death match's replacement in words: the newcomer's welcome, the others' news."""
    return ([f"You take over the seat of {old} in the match {name}: its moves so far stay the seat's, and you play "
             "on from the position as it stands.",
             f"Your actions say `player: {old}` and carry your own secret, `secret: {secret}`. The position, with "
             "the lines to send, comes in its own mail (once the match has begun).",
             "Mail `command: help` (with game, player and secret) to learn what else you can ask."],
            [f"{newcomer} now plays {old}'s seat in the match {name}."])


def change_address(session: Session, name: str, player_name: str, email: str, now: datetime, sender: str,
                   by: str = "the game master") -> Player:
    """An address change (by the GM, or by mail from the old address with the secret); both addresses are told,
    and only the new one authenticates from now on (not committed: the caller commits, a mail with its record)."""
    lock_game(session, name)
    game = get_game(session, name)
    player = seat(session, game, player_name)
    email = _check_address(session, game, email, player)
    was = player.email
    if not was:  # a death match's seat not played by mail: enrolling gives it its secret too
        raise Refused([f"{player_name} does not play {name} by mail yet: pbem mail dm-player {name} {player_name} "
                       f"{email}"])
    if email == was.lower():
        raise Refused([f"{email} is {player_name}'s address already"])
    player.email = email
    session.add(player)
    session.flush()
    entry = record(session, game, Control.ADDRESS, now, player_name, email=email, was=was, by=by)
    lines = [f"{player_name}'s address in {name} changed from {was} to {email} (by {by}).",
             "From now on only mail from the new address, with your secret, plays; the game's mail goes there.",
             "If you did not ask for this, tell the game master at once."]
    tell(session, game, entry, sender, now, [(player_name, was), (player_name, email)], "address changed", lines)
    if is_match(game):  # a begun match's position, secret and reply lines, once at the new address
        from .matches import welcome

        welcome(session, game, now, sender)
    return player


def set_address(session: Session, name: str, player_name: str, email: str, now: datetime, sender: str) -> Player:
    """`pbem game address`: the GM's `change_address`, committed."""
    player = change_address(session, name, player_name, email, now, sender)
    session.commit()
    return player


def observe(session: Session, name: str, email: str, now: datetime, sender: str) -> None:
    """`pbem game observe`: EMAIL gets every turn's report and the end, never sheets or secrets."""
    lock_game(session, name)
    game = get_game(session, name)
    email = email.strip().lower()
    if (problem := address_problem(email)) is not None:
        raise Refused([problem])
    if email in observers(session, game):
        raise Refused([f"{email} observes {name} already"])
    entry = record(session, game, Control.OBSERVE, now, email=email)
    watched = ("each move's news and the end of the match come to this address, beginning with the position"
               if is_match(game) else "each turn's report and the end of the game come to this address")
    tell(session, game, entry, sender, now, [(email, email)], "you observe the game",
         [f"You now observe {name}: {watched}.", "Mail the game master to stop."])
    if is_match(game):  # a begun match's position, once (its opening mail); else that mail comes at its start
        from .matches import welcome

        welcome(session, game, now, sender)
    session.commit()


def unobserve(session: Session, name: str, email: str, now: datetime, sender: str) -> None:
    """`pbem game unobserve`: EMAIL gets nothing more of the game."""
    lock_game(session, name)
    game = get_game(session, name)
    email = email.strip().lower()
    if email not in observers(session, game):
        raise Refused([f"{email} does not observe {name}" + (f" (observers: {', '.join(observers(session, game))})"
                                                             if observers(session, game) else "")])
    entry = record(session, game, Control.UNOBSERVE, now, email=email)
    tell(session, game, entry, sender, now, [(email, email)], "you no longer observe the game",
         [f"You no longer observe {name}: nothing more of it comes to this address."])
    session.commit()

