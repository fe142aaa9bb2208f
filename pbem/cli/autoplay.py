"""`pbem game autoplay`: robot pilots play some or all players through the real turn cycle (issue #16).

Each turn is what a GM does by hand: deal, take every bot player's orders as an
order file through the same check as a player's mail (`gm.pilot.autoplay_turn`),
process, write the reports. A player left to a human who sends nothing is
treated by RULES B4.6 as usual.
"""
from __future__ import annotations

from pathlib import Path
from typing import List, Optional

import typer

from ..gm.pilot import autoplay_turn
from .common import clock, print_json, refuse
from .game import game_app
from .gm import open_store


@game_app.command("autoplay")
def autoplay(ctx: typer.Context, game: str = typer.Argument(..., help="The game's name."),
             turns: int = typer.Option(..., "--turns", min=1, help="Turns to play at most (it stops when the game "
                                       "is over)."),
             players: Optional[List[str]] = typer.Option(None, "--player", help="A player the bots play "
                                                         "(repeatable). Default: every player."),
             out: Optional[Path] = typer.Option(Path("reports"), "--out", help="Where each turn's reports go, as "
                                                "OUT/GAME/turn-NNN/."),
             no_reports: bool = typer.Option(False, "--no-reports", help="Write no reports (faster rehearsals)."),
             as_json: bool = typer.Option(False, "--json", help="Print the turns played and the standings as "
                                          "JSON.")) -> None:
    """Let robot pilots play some or all players through the real turn cycle: deal, orders, process, reports."""
    from ..dm.campaign import get_campaign
    from ..formats.game import turn_folder_name
    from ..gm.reports import campaign_templates, write_reports
    from ..gm.texts import turn_summary
    from ..render.turn import recipients as recipients_of
    from ..store.games import current_state, get_game, players_of
    from .gm import progress

    played = []
    with open_store(ctx) as store, store.session() as session, progress() as bar:
        task = bar.add_task(f"playing {game}", total=turns)
        known = list(current_state(session, get_game(session, game)).players)
        unknown = [p for p in players or [] if p not in known]
        if unknown:
            refuse([f"{game} has no player {p!r} (players: {', '.join(known)})" for p in unknown])
        for _ in range(turns):
            if current_state(session, get_game(session, game)).is_over:
                break
            result, playing = autoplay_turn(session, game, players, clock(ctx))
            if not no_reports and out is not None:
                recipients = recipients_of(players_of(session, get_game(session, game)))
                write_reports(out, game, result.turn, result.before, result.outcome, recipients, campaign_templates())
                (out / game / turn_folder_name(result.turn) / "summary.txt").write_text(turn_summary(result),
                                                                                        encoding="utf-8")
            played.append({"turn": result.turn, "bots": playing, "state": result.after_hash, "over": result.over})
            bar.advance(task)
            if not as_json:
                typer.echo(f"turn {result.turn:>3}  bots: {', '.join(playing) or '-'}  state {result.after_hash[:16]}"
                           + ("  game over" if result.over else ""))
        final = current_state(session, get_game(session, game))
    rows = get_campaign(final.setup.ruleset).standings(final)
    if as_json:
        print_json({"game": game, "turns": played, "over": final.is_over, "standings": rows})
    else:
        typer.echo(f"{game}: {len(played)} turn(s) played" + (", the game is over" if final.is_over else ""))
        for row in rows:
            typer.echo("  " + "  ".join(f"{k}={v}" for k, v in row.items()))
