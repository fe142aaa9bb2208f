"""`pbem init`, `pbem demo`, `pbem game …`, `pbem replay`: games and their history."""
from __future__ import annotations

import json
import secrets
import shutil
from dataclasses import asdict
from pathlib import Path
from typing import TYPE_CHECKING, Any, List, Literal, Optional

import typer

from .common import EXIT_OK, EXIT_REFUSED, app, clock, db_url, print_json, refuse, sub_app
from .gm import open_store, progress
from .schedule_options import HELP, option, read_schedule, schedule_text

if TYPE_CHECKING:
    from sqlmodel import Session

    from ..formats.game import PlayerEntry, SourceFile
    from ..gm.cycle import ReplayTurn
    from ..gm.matcharchive import MatchReplay
    from ..store.controls import Ended
    from ..store.tables import Game

game_app = sub_app("game", "Create, list, show, import and export games.")

DEFAULTS = {"geeko": ("rooms/geeko", "decks/geeko.yaml"),
            "botwars": ("rooms/botwars/foundry.yaml", "decks/standard.yaml")}


@app.command("init")
def init(directory: Path = typer.Argument(..., help="The new campaign folder.")) -> None:
    """Make a campaign folder with copies of the bundled rooms/, decks/ and templates/ to edit."""
    from ..resources import resource_dir

    if directory.exists() and any(directory.iterdir()):
        refuse([f"{directory} exists and is not empty"])
    directory.mkdir(parents=True, exist_ok=True)
    for name in ("rooms", "decks", "templates"):
        try:
            shutil.copytree(resource_dir(name), directory / name)
        except FileNotFoundError:
            continue  # a folder this installation does not ship
    typer.echo(f"Campaign folder {directory} made. Next:\n  cd {directory}\n"
               "  pbem game new mygame --ruleset geeko --player alice:alice@example.org --player bob:bob@example.org\n"
               "  pbem turn deal mygame")


@app.command("demo")
def demo(ctx: typer.Context, out: Path = typer.Option(Path("demo"), "--out", help="Where to write the reports."),
         as_json: bool = typer.Option(False, "--json", help="Print what was written as JSON.")) -> None:
    """Play the bundled sample campaign (turns/) end to end into a fresh ./pbem-demo.db; reports go to OUT."""
    from .demo import DEMO_AT, run_demo

    result = run_demo(Path.cwd() / "pbem-demo.db", out, DEMO_AT)
    if as_json:
        print_json(result)
    else:
        for game in result["games"]:
            typer.echo(f"{game['game']}: {game['turns']} turns, final state {game['hash']}")
        typer.echo(f"{len(result['files'])} files written under {out}")


def _player(text: str, ruleset: str) -> PlayerEntry:
    from ..formats.game import PlayerEntry
    from ..formats.schedule import zone_problem

    parts = text.split(":")
    if len(parts) not in (2, 3, 4) or not parts[0]:
        raise typer.BadParameter(f"{text!r}: write NAME:EMAIL, NAME:EMAIL:ROBOT,ROBOT or NAME:EMAIL:ROBOTS:ZONE",
                                 param_hint="--player")
    zone = parts[3] if len(parts) == 4 else None
    if zone is not None and zone_problem(zone):
        raise typer.BadParameter(f"{text!r}: {zone_problem(zone)}", param_hint="--player")
    robots = [r.strip() for r in parts[2].split(",") if r.strip()] if len(parts) >= 3 else []
    if not robots:
        title = parts[0][:1].upper() + parts[0][1:]
        robots = [f"{title}-1", f"{title}-2"] if ruleset == "geeko" else [f"{title}-bot"]
    return PlayerEntry(parts[0], parts[1], robots, timezone=zone)


@game_app.command("new")
def new(ctx: typer.Context, name: str = typer.Argument(..., help="The game's name (used in order files)."),
        ruleset: Literal["botwars", "geeko"] = typer.Option(..., "--ruleset", help="The game's rules."),
        rooms: Optional[List[str]] = typer.Option(None, "--rooms", help="Room file or folder (repeatable, in play "
                                                  "order). Default: the bundled rooms of the ruleset."),
        deck: Optional[str] = typer.Option(None, "--deck", help="Deck file. Default: the ruleset's bundled deck."),
        players: List[str] = typer.Option(..., "--player", help="NAME:EMAIL[:ROBOT,ROBOT[:ZONE]] (repeatable; ZONE: the player's time zone, deadlines are shown in it too)."),
        seed: Optional[int] = typer.Option(None, "--seed", help="The game's seed (RULES B13). Default: a random one."),
        missing_orders: Optional[Literal["fill", "idle", "bot"]] = typer.Option(
            None, "--missing-orders", help="What a player's missing orders play (RULES B4.6): fill registers from "
            "the hand, idle, or the robot pilot. Default: the ruleset's (botwars fill, geeko idle)."),
        deadline: Optional[str] = typer.Option(None, "--deadline", help=HELP["deadline"] + " Gives the game a "
                                               "schedule for `pbem run` (as `pbem game set` does)."),
        zone: str = option("timezone", "UTC"),
        remind: str = option("remind", "24"),
        process: str = option("process", "deadline"),
        review: bool = option("review", False, "--review/--no-review"),
        hold_hours: Optional[int] = option("hold", None),
        as_json: bool = typer.Option(False, "--json", help="Print the new game as JSON.")) -> None:
    """Create a game: its players, robots and the state before turn 1 (deal it next with `pbem turn deal`, or
    give it a --deadline and let `pbem run` deal and process it)."""
    from ..formats.game import GameDescription
    from ..gm.setup import new_game

    room_paths = rooms or [DEFAULTS[ruleset][0]]
    description = GameDescription(name, ruleset, str(seed if seed is not None else secrets.randbelow(10**6)),
                                  _data_files(room_paths, "rooms"), _data_files([deck or DEFAULTS[ruleset][1]], "decks")[0],
                                  [_player(p, ruleset) for p in players],
                                  ruleset_options={"missing_orders": missing_orders} if missing_orders else {})
    schedule = read_schedule(deadline, zone, remind, process, review, hold_hours) if deadline else None
    with open_store(ctx, create=True) as store, store.session() as session:
        game, state = new_game(session, description, schedule, clock(ctx))
        shown = _show(session, game) | ({"schedule": schedule.to_data()} if schedule else {})
    if as_json:
        print_json(shown)
    else:
        typer.echo(f"Game {name} created ({ruleset}, seed {game.seed}). Next: "
                   + (schedule_text(name, schedule, "; pbem run deals it") if schedule else f"pbem turn deal {name}"))


def _data_files(names: list[str], folder: str) -> list[SourceFile]:
    from ..formats.game import data_files
    from ..formats.yamlfile import FormatError

    try:
        return data_files(names, folder)
    except (FileNotFoundError, FormatError) as err:
        refuse([str(err)])


def _show(session: Session, game: Game) -> dict[str, Any]:
    from ..dm.campaign import get_campaign
    from ..store.controls import ended
    from ..store.games import current_state, players_of, processed_turns

    state, end = current_state(session, game), ended(session, game)
    players = []
    for player in players_of(session, game):
        p = state.players[player.name]
        robots = [{"name": r.name, "mode": r.mode, "hp": r.hp, "at": str(r.at) if r.at else None,
                   "facing": r.facing.name, "lives": r.lives, "next_flag": r.next_flag,
                   "upgrades": list(r.upgrades), "options": list(r.options)} for r in state.robots_of(player.name)]
        entry: dict[str, Any] = {"name": player.name, "email": player.email, "robots": robots}
        if state.geeko:
            entry |= {"room": min(p.room, len(state.setup.rooms)), "finished": p.finished,
                      "rooms_done": p.room - 1}
        players.append(entry)
    return {"game": game.name, "ruleset": game.ruleset, "seed": game.seed, "turn": state.turn,
            "processed": len(processed_turns(session, game)), "over": state.is_over, "players": players,
            "standings": get_campaign(game.ruleset).standings(state), "winners": list(state.winners),
            "completions": [asdict(c) for c in state.completions],
            "ended": _ended(game.name, end)}


def _ended(name: str, end: Ended | None) -> dict[str, Any] | None:
    """The GM's end of a game (`pbem game end`) as `game show` gives it."""
    from ..formats.ending import ended_text

    return None if end is None else {"at": end.at.isoformat(), "how": str(end.how), "winner": end.winner,
                                     "reason": end.reason, "text": ended_text(name, end.at, end.how, end.winner)}


@game_app.command("list")
def list_(ctx: typer.Context, as_json: bool = typer.Option(False, "--json", help="Print as JSON.")) -> None:
    """Every game in the database with its current turn."""
    from ..store.due import from_rows
    from ..store.summary import game_summaries, listed

    summaries = from_rows(db_url(ctx), listed)  # plain SQL when the rows say enough, else the store
    if summaries is None:
        from ..gm.moves import summary
        from ..store.matches import all_matches

        with open_store(ctx, read_only=True) as store, store.session() as session:
            summaries = sorted(game_summaries(session) + [summary(session, m) for m in all_matches(session)],
                               key=lambda line: line.game)
    rows = [asdict(summary) for summary in summaries]
    if as_json:
        print_json(rows)
        return
    for row in rows:
        typer.echo(f"{row['game']:<20} {row['ruleset']:<8} turn {row['turn']:<4} "
                   f"{'over ' if row['over'] else ''}{', '.join(row['players'])}")
    if not rows:
        typer.echo("No games yet: pbem game new …")


@game_app.command("show")
def show(ctx: typer.Context, name: str = typer.Argument(..., help="The game's name."),
         show_secrets: bool = typer.Option(False, "--secrets", help="Also print each player's secret."),
         as_json: bool = typer.Option(False, "--json", help="Print as JSON.")) -> None:
    """A game's players, robots, current turn and standings (G1, G4)."""
    from ..store.games import get_game, players_of
    from ..store.matches import is_match

    with open_store(ctx, read_only=True) as store, store.session() as session:
        game = get_game(session, name)
        if is_match(game):
            _show_match(session, game, show_secrets, as_json)
            return
        shown = _show(session, game)
        if show_secrets:
            for entry, player in zip(shown["players"], players_of(session, game)):
                entry["secret"] = player.secret
    if as_json:
        print_json(shown)
        return
    typer.echo(f"{shown['game']} ({shown['ruleset']}, seed {shown['seed']}): turn {shown['turn']}, "
               f"{shown['processed']} processed{', over' if shown['over'] else ''}")
    if shown["ended"]:
        reason = f" ({shown['ended']['reason']})" if shown["ended"]["reason"] else ""
        typer.echo(f"  {shown['ended']['text']}{reason}")
    for entry in shown["players"]:
        where = f" room {entry['room']}" if "room" in entry else ""
        secret = f" secret {entry['secret']}" if "secret" in entry else ""
        typer.echo(f"  {entry['name']} <{entry['email']}>{where}{secret}")
        for r in entry["robots"]:
            typer.echo(f"    {r['name']:<12} {r['mode']:<10} HP {r['hp']:>2}  {r['at'] or '-':<6} {r['facing']}")
    typer.echo("Standings:")
    for row in shown["standings"]:
        detail = ", ".join(f"{k.replace('_', ' ')} {'-' if v is None else v}" for k, v in row.items()
                           if k not in ("player", "place"))
        typer.echo(f"  {row['place']}. {row['player']} ({detail})")


def _show_match(session: Any, match: Any, show_secrets: bool, as_json: bool) -> None:
    """`game show` of a death match: its seats (address, time zone, secret when asked), its accepted moves and
    its position as the text board, as `pbem dm show` draws it."""
    from ..dm.base import get_game as rules_of
    from ..gm.moves import position
    from ..render.dm import write
    from ..store.controls import ended
    from ..store.games import players_of

    config, state, accepted = position(session, match)
    rules = rules_of(config.game)
    result, end = rules.result(state), ended(session, match)
    seats = [{"name": p.name, "email": p.email or None, "timezone": p.timezone,
              **({"secret": p.secret} if show_secrets else {})} for p in players_of(session, match)]
    winner = end.winner if end is not None else result.winner
    shown = {"game": match.name, "ruleset": match.ruleset, "seed": match.seed, "turn": len(accepted),
             "over": result.over or end is not None, "winner": winner, "players": seats,
             "position": rules.render_data(state),
             "ended": _ended(match.name, end)}
    if as_json:
        print_json(shown)
        return
    typer.echo(f"{match.name} ({match.ruleset}, seed {match.seed}): {len(accepted)} moves"
               + (f", over, won by {winner}" if shown["over"] and winner else ", over" if shown["over"] else ""))
    if end is not None:
        typer.echo(f"  {shown['ended']['text']}" + (f" ({end.reason})" if end.reason else ""))
    for seat in seats:
        secret = f" secret {seat['secret']}" if "secret" in seat else ""
        typer.echo(f"  {seat['name']} <{seat['email'] or 'not by mail'}>{secret}")
    typer.echo(write(config.game, shown["position"]), nl=False)


@game_app.command("import")
def import_(ctx: typer.Context, directory: Path = typer.Argument(..., help="A folder with game.yaml and turn-NNN/ "
                                                                         "(a death match's: and transcript.yaml)."),
            as_json: bool = typer.Option(False, "--json", help="Print the turns and hashes as JSON."),
            config_file: Optional[Path] = typer.Option(None, "--config", envvar="PBEM_MAIL_CONFIG",
                                                       help="Mail settings (YAML): a death match's GM address.")
            ) -> None:
    """Create a game from its folder: a campaign's every turn played, a death match's every move kept."""
    from ..formats.game import read_description
    from ..formats.matchgame import is_match_archive
    from ..gm.archive import import_game, import_match_archive
    from .mail import _config

    if is_match_archive(directory):
        sender = _config(config_file).sender
        with open_store(ctx, create=True) as store:
            match = import_match_archive(store, directory, at=clock(ctx), sender=sender)
        if as_json:
            print_json({"game": match.game, "moves": match.moves, "hash": match.hash})
        else:
            typer.echo(f"{match.game}: {match.moves} moves imported, position {match.hash}")
        return
    with open_store(ctx, create=True) as store:
        description = read_description(directory)
        with progress() as bar:
            task = bar.add_task(f"importing {description.name}", total=None)
            imported = import_game(store, directory, at=clock(ctx), on_turn=lambda result: bar.advance(task))
    rows = [{"turn": t.turn, "hash": t.after_hash} for t in imported.turns]
    if as_json:
        print_json({"game": imported.game, "turns": rows})
    else:
        typer.echo(f"{imported.game}: {len(rows)} turns imported"
                   + (f", final state {rows[-1]['hash']}" if rows else ""))


@game_app.command("export")
def export(ctx: typer.Context, name: str = typer.Argument(..., help="The game's name."),
           directory: Path = typer.Argument(..., help="The folder to write (game.yaml, rooms, deck, turn-NNN/)."),
           with_secrets: bool = typer.Option(True, "--secrets/--no-secrets",
                                             help="Write the players' secrets (leave them out for an archive to "
                                                  "share: an import then gives the players new ones)."),
           as_json: bool = typer.Option(False, "--json", help="Print the files written as JSON.")) -> None:
    """Write a game as a campaign folder that `pbem game import` reads back."""
    from ..gm.archive import export_game

    with open_store(ctx) as store:
        written = export_game(store, name, directory, secrets=with_secrets)
    if as_json:
        print_json([str(p) for p in written])
    else:
        typer.echo(f"{name}: {len(written)} files written to {directory}")


def _difference(turn: ReplayTurn) -> str:
    """What differs in a replayed turn, in words."""
    if turn.stored != turn.replayed:
        return f"DIFFERS: state hash stored {turn.stored}"
    if turn.stored_events != turn.replayed_events:
        return f"DIFFERS: events hash stored {turn.stored_events}, replayed {turn.replayed_events}"
    return f"DIFFERS: the stored events (hash {turn.recorded_events}) are not the turn's ({turn.stored_events})"


@app.command("replay")
def replay(ctx: typer.Context, name: str = typer.Argument(..., help="The game's name."),
           verify: bool = typer.Option(False, "--verify", help="Exit 1 naming the first turn (a death match: the "
                                                                "first move) that differs."),
           as_json: bool = typer.Option(False, "--json", help="Print the per-turn hashes as JSON.")) -> None:
    """Rebuild a game from its first state and the stored orders, turn by turn, and compare the state hashes and
    the events hashes (the events reports are built from); a death match from its set-up and accepted moves.

    Each of a death match's accepted moves must be accepted again; the first one the rules refuse now differs."""
    from ..gm import cycle
    from ..gm.matcharchive import replay_match
    from ..store.games import get_game, processed_turns

    with open_store(ctx, read_only=True) as store, store.session() as session:
        match = replay_match(session, name)
        if match is not None:
            _print_match_replay(match, as_json)
            raise typer.Exit(EXIT_REFUSED if verify and match.first_difference is not None else EXIT_OK)
        total = len(processed_turns(session, get_game(session, name)))
        with progress() as bar:
            task = bar.add_task(f"replaying {name}", total=total)
            result = cycle.replay(session, name, progress=lambda: bar.advance(task))
    first = result.first_difference
    if as_json:
        print_json({"game": result.game, "first_difference": first,
                    "turns": [asdict(t) | {"same": t.same} for t in result.turns]})
    else:
        for t in result.turns:
            typer.echo(f"turn {t.turn:>4}  {t.replayed}  {'same' if t.same else _difference(t)}")
        if first is None:
            typer.echo(f"{name}: {len(result.turns)} turns replayed, every state and events hash matches")
        else:
            typer.echo(f"{name}: turn {first} is the first that differs", err=True)
    raise typer.Exit(EXIT_REFUSED if verify and first is not None else EXIT_OK)


def _print_match_replay(match: MatchReplay, as_json: bool) -> None:
    """Each accepted move of a death match replayed: accepted again, or why the rules refuse it now."""
    first = match.first_difference
    if as_json:
        print_json({"game": match.game, "first_difference": first, "hash": match.hash,
                    "moves": [asdict(m) | {"same": m.refused is None} for m in match.moves]})
        return
    for move in match.moves:
        typer.echo(f"move {move.seq:>4}  {move.player}  "
                   + ("same" if move.refused is None else f"DIFFERS: the rules refuse it now: {move.refused}"))
    if first is None:
        typer.echo(f"{match.game}: {len(match.moves)} accepted moves replayed, every one accepted again; "
                   f"position {match.hash}")
    else:
        moved = next(m for m in match.moves if m.seq == first)
        typer.echo(f"{match.game}: move {first} ({moved.player} {json.dumps(moved.payload, sort_keys=True)}) is "
                   "the first that differs", err=True)
