"""A player's settings the GM changes during a game: their own time zone, in which sheets, reminders and
acknowledgements show each deadline beside the game's zone."""
from __future__ import annotations

from sqlmodel import Session

from ..formats.schedule import zone_problem
from ..store.games import Refused, get_game, players_of


def set_player_zone(session: Session, game_name: str, player: str, zone: str | None) -> None:
    """The player's zone (an IANA name), or None for the game's zone only; committed."""
    if zone is not None and zone_problem(zone):
        raise Refused([f"--timezone: {zone_problem(zone)}"])
    game = get_game(session, game_name)
    row = next((p for p in players_of(session, game) if p.name == player), None)
    if row is None:
        raise Refused([f"no player {player} in {game.name}"])
    row.timezone = zone
    session.add(row)
    session.commit()
