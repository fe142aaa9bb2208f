"""The end of a game in words: the result and the final standings, and what a player who has no more turns
is told. The facts come from the engine (`campaign.result`, `GameState.done_playing`); only the words are here,
shared by the last turn's report, the site's game page and the mails that tell the end."""
from __future__ import annotations

from typing import Any, Mapping, Sequence

from ..engine.campaign import GameResult
from ..engine.vocabulary import Termination
from ..formats.ending import Ending, ended_outcome

_ENDINGS = {Termination.LAST_FLAG: "first robot through the last flag",
            Termination.ALL_OUT: "every robot is out of lives, and the standings decide",
            Termination.ALL_THROUGH: "every player is through all rooms, and the fewest turns win (G1)"}
_ORDINAL = {1: "st", 2: "nd", 3: "rd"}


def names(players: Sequence[str]) -> str:
    return " and ".join(players) if len(players) < 3 else ", ".join(players[:-1]) + " and " + players[-1]


def result_line(result: GameResult) -> str:
    """'The game is over: alice wins (first robot through the last flag).'"""
    who = (f"{result.winners[0]} wins" if len(result.winners) == 1
           else f"{names(result.winners)} share first place" if result.winners else "nobody wins")
    return f"The game is over: {who} ({_ENDINGS[result.termination]})."


def standing_line(row: Mapping[str, Any]) -> str:
    """One row of `campaign.standings`: Geek-o rooms and turns, BotWars flags, lives and place through."""
    if "rooms_done" in row:
        turns = f"through all rooms in {counted(row['turns'], 'turn')}" if row["turns"] is not None else "not through"
        return f"{row['place']}. {row['player']}: {counted(row['rooms_done'], 'room')} completed, {turns}"
    through = f", through all flags {row['won']}{_ORDINAL.get(row['won'], 'th')}" if row["won"] else ""
    return (f"{row['place']}. {row['player']}: {counted(row['flags'], 'flag')} touched, "
            f"{counted(row['lives'], 'life', 'lives')} left{through}")


def counted(number: int, one: str, many: str = "") -> str:
    """'1 life', '2 lives', '0 flags'."""
    return f"{number} {one if number == 1 else many or one + 's'}"


def ending_lines(result: GameResult) -> list[str]:
    """What everyone is told when the game is over: the result, then the final standings."""
    return [result_line(result), "Final standings:", *(f"  {standing_line(row)}" for row in result.standings)]


def done_note(reason: str, press: bool = False) -> list[str]:
    """What a player who has no more turns while the game goes on is told (`GameState.done_playing`), and, when
    the game relays press, that they may still send it."""
    if reason == "finished":
        lines = ["Both your robots are through the last room (G1): you have no more turns to play."]
    else:
        lines = ["All your robots are out of lives (RULES B8.2): you have no more turns to play."]
    lines.append("You will keep receiving each turn's report, and the result and the final standings when the "
                 "game is over.")
    if press:
        lines.append("You may still send press to the other players (a mail with your secret and "
                     "`press: {to: all, text: …}`).")
    return lines


def ended_lines(game: str, how: Ending, winner: str | None, reason: str, reader: str | None,
                match: bool = False) -> list[str]:
    """What everyone is told when the GM ends a game (`pbem game end`), in the words of the one reading (a death
    `match` has moves, not turns)."""
    lines = [f"The game master has ended {game}: {ended_outcome(how, winner, reader)}."]
    if reason:
        lines.append(f"Their reason: {reason}")
    return lines + ["No move counts any more and no deadline runs; actions sent from now on are refused." if match
                    else "No more turn sheets, reminders or turns follow; orders sent from now on are refused."]

