"""The end told (#22): a player who has no more turns while the game goes on (BotWars: every robot out of
lives; Geek-o: through the last room) is mailed so, once; when the game is over everyone it concerns is mailed
the result and the final standings, once. The facts are the engine's (`GameState.done_playing`,
`campaign.result`); the Message-IDs come from the game and the recipient, so asking again queues nothing.

The GM may also end a game before its rules do (`end_game`, issue #35; a death match too, #33): with a winner, as a draw, or
abandoned. That is a control in the game's history (`Control.END`, kept by export/import); everyone is told in
their own words, and the game is closed: no sheet, reminder or turn follows, and orders are refused saying when
it ended (`cycle.closed`)."""
from __future__ import annotations

from datetime import datetime
from typing import TYPE_CHECKING, Sequence

from sqlmodel import Session

from ..dm.campaign import get_campaign
from ..formats.controls import Control, Press
from ..formats.ending import Ending
from ..mail.notices import game_over, no_more_turns
from ..mail.outbox import queue, queue_all
from ..mail.post import game_mail
from ..render.ending import done_note, ended_lines, ending_lines
from ..render.turn import Recipient, TurnReport, recipients
from ..store.controls import Ended, Entry, holders, observers, record
from ..store.games import Refused, current_state, get_game, lock_game, players_of, processed_turns
from ..store.matches import is_match
from ..store.tables import Game
from ..store.turns import dealt
from .cycle import closed
from .history import stored_report
from .policy import press as press_policy
from .tell import tell
from .turn_sheets import turn_sheets

if TYPE_CHECKING:  # Pillow is imported where a sheet's picture is drawn
    from ..render.sheet import DrawnSheets


def audience(session: Session, game: Game) -> list[Recipient]:
    """Everyone a game's result is told to: its players, then its observers (greeted as "observer")."""
    players = [Recipient(p.name, p.email) for p in players_of(session, game) if p.email]  # a match's seat may have none
    addresses = {p.address for p in players}
    return players + [Recipient("observer", a) for a in observers(session, game) if a not in addresses]


def queue_the_end(session: Session, name: str, sender: str, at: datetime) -> list[str]:
    """Queue (not committed) what the game's current state says is to be told: the end to the audience, or each
    player's last turn to them. Returns who was told, for the GM ('bob: out of lives', 'ann: the result')."""
    game = get_game(session, name)
    state = current_state(session, game)
    ended = get_campaign(game.ruleset).game_result(state)
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


def dealt_sheets(session: Session, game: Game, *, drawn: bool = False) -> DrawnSheets:
    """The dealt turn's sheets (none when the game is over or no turn is dealt), their pictures `drawn` at once
    when both the mail and the report folder take them (`pbem run`), else each when it is asked for."""
    from ..render.sheet import DrawnSheets

    state = current_state(session, game)
    sheets = turn_sheets(session, game, state) if not state.is_over and dealt(session, game, state.turn) else []
    return DrawnSheets.of(sheets) if drawn else DrawnSheets(tuple(sheets))


def queue_game_mail(session: Session, name: str, sender: str, at: datetime, templates: Sequence[str] = (),
                    report: TurnReport | None = None, sheets: DrawnSheets | None = None) -> int:
    """Queue the game's reports of its last processed turn and the sheets of its dealt turn (not committed); how
    many were new. `report` and `sheets`: the last processed turn's report and the dealt turn's sheets, when the
    caller has built them already (each is built once per turn, for the mails and the report folder)."""
    game = get_game(session, name)
    turns = processed_turns(session, game)
    if turns and (report is None or report.turn != turns[-1].number):
        report = stored_report(session, game, turns[-1].number)
    report = report if turns else None
    readers = recipients(players_of(session, game), holders(session, game))
    sheets = sheets if sheets is not None else dealt_sheets(session, game)
    messages = game_mail(report, readers, observers(session, game), sheets, sender, templates)
    return queue_all(session, messages, at)


def queue_game_news(session: Session, name: str, sender: str, at: datetime, templates: Sequence[str] = (),
                    report: TurnReport | None = None, sheets: DrawnSheets | None = None) -> tuple[int, list[str]]:
    """Everything a game has to mail now (not committed): the last turn's reports and the dealt turn's sheets
    (`queue_game_mail`, from `report` and `sheets` when the caller built them already), and the end told. Returns
    how many reports and sheets were new, and who was told what."""
    return (queue_game_mail(session, name, sender, at, templates, report, sheets),
            queue_the_end(session, name, sender, at))


def end_game(session: Session, name: str, how: Ending, at: datetime, sender: str, *, winner: str | None = None,
             reason: str = "") -> Ended:
    """`pbem game end`: the GM ends a game that is still running (a campaign or a death match), with a `winner` (a
    player of it), as a draw or abandoned; recorded, everyone told in their own words, committed."""
    lock_game(session, name)
    game = get_game(session, name)
    closed(session, game)
    if _over_by_rules(session, game, at):
        raise Refused([f"{name} is over already: its rules ended it (pbem game show {name})"])
    names = [p.name for p in players_of(session, game)]
    if (how is Ending.WINNER) != (winner is not None):
        raise Refused(["name the winner with --winner, and only when the game ends with one"])
    if winner is not None and winner not in names:
        raise Refused([f"{winner} is not a player of {name} ({', '.join(names)})"])
    entry = record(session, game, Control.END, at, winner, how=str(how), reason=reason)
    end = Ended(at, how, winner, reason)
    if is_match(game):
        _tell_match_end(session, game, entry, end, sender)
    else:
        for person in audience(session, game):  # as the natural end is told: the players, then the observers
            tell(session, game, entry, sender, at, [(person.player, person.address)], "the game is over",
                 ended_lines(name, how, winner, reason, person.player))
    session.commit()
    return end


def _tell_match_end(session: Session, game: Game, entry: Entry, end: Ended, sender: str) -> None:
    """A match the GM ended: each player and observer gets its final mail (the position it was ended at, no
    deadline, the subject saying it is over and who won) in their own words; its deadline row says nothing is due
    (not committed)."""
    from ..mail.outbox import queue as queue_mail
    from .moves import letter, position, write_deadline

    config, state, _ = position(session, game)
    seats = {p.email: p for p in players_of(session, game) if p.email}
    for person in audience(session, game):
        seat = seats.get(person.address)  # None: an observer
        lines = [f"Hello {person.player},", "",
                 *ended_lines(game.name, end.how, end.winner, end.reason, seat.name if seat else None, match=True)]
        queue_mail(session, letter(sender=sender, recipient=person.address, player=seat.name if seat else None,
                                   match=game.name, config=config, state=state, now=end.at, end=end,
                                   subject=f"{game.name}: ended by the game master", lines=lines,
                                   token=f"control {game.name} {entry.id}", secret=seat.secret if seat else None,
                                   zone=seat.timezone if seat else None), "control", end.at)
    write_deadline(session, game, config, state, end.at)


def _over_by_rules(session: Session, game: Game, at: datetime) -> bool:
    """Whether the game's rules have ended it by `at` (a death match's deadlines passed by then applied first, as
    they pass for everyone, RULES D5)."""
    if not is_match(game):
        return current_state(session, game).is_over
    from ..dm.base import get_game as rules_of
    from .moves import tick

    _, state = tick(session, game, at)
    return rules_of(game.ruleset).is_over(state)
