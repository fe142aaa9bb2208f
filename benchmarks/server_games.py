"""The games of the server benchmark (issue #36), made quickly: one game of each kind built through the CLI — a
four-player BotWars campaign, a two-player Geek-o campaign, a Gyulbot death match whose claim deadlines pass —
then copied as many times as asked with plain SQL (new ids and names: `NAME-N`), every row of every table keyed
by the game (players and robots renumbered, the orders pointing at the new players). A helper of server.py.
"""
from __future__ import annotations

import subprocess
import sys
from pathlib import Path

from child_cpu import ENVIRONMENT  # benchmarks/, beside this script

ROOT = Path(__file__).resolve().parent.parent
T0 = "2026-12-01T20:00Z"
DUE = "2026-12-04T20:00Z"  # three days later: every 2-day deadline and every round's claim time has passed
KINDS = {"botwars": "botwars-demo", "geeko": "geeko-demo", "match": "gyulbot-match"}
MIX = ("botwars", "botwars", "botwars", "geeko", "match")  # of every five games: three BotWars, a Geek-o, a match
# the tables keyed by the game's id, beside players and robots (renumbered) and the orders (pointing at players)
GAME_ROWS = ("dealt_hands", "events", "game_schedules", "gm_events", "state_snapshots", "turn_deadlines", "turns")


def templates(folder: Path, url: str) -> None:
    """One game of each kind in the empty database at `url`, through the CLI: scheduled (2-day deadlines), dealt,
    clocks started and the match opened at T0; the outbox emptied, so that it holds only what a tick queues."""
    pbem = [sys.executable, "-m", "pbem", "--db", url]
    commands = []
    for kind in ("botwars", "geeko"):
        (folder / kind).mkdir()
        (folder / kind / "game.yaml").write_text(
            (ROOT / "turns" / kind / "game.yaml").read_text().replace("rooms: [rooms/", f"rooms: [{ROOT}/rooms/")
            .replace("deck: decks/", f"deck: {ROOT}/decks/"))
        commands += [["game", "import", str(folder / kind)],
                     ["--now", T0, "game", "set", KINDS[kind], "--deadline", "2d"]]
    commands.append(["--now", T0, "dm", "new", KINDS["match"], "--game", "gyulbot", "--player", "ann", "--player",
                     "bob", "--option", f"start={T0}", "--out", str(folder)])
    commands += [["mail", "dm-player", KINDS["match"], p, f"{p}@example.org"] for p in ("ann", "bob")]
    commands.append(["--now", T0, "run", "--out", str(folder / "dealt")])
    for args in commands:
        subprocess.run(pbem + args, cwd=folder, env={**ENVIRONMENT, "PYTHONPATH": str(ROOT)}, check=True,
                       capture_output=True)
    _execute(url, ["DELETE FROM mail_outbox"])


def mixed(games: int) -> dict[str, int]:
    """How many copies of each kind make `games` games in MIX's proportions."""
    counts = {kind: 0 for kind in KINDS}
    for n in range(games):
        counts[MIX[n % len(MIX)]] += 1
    return counts


def copy_games(url: str, copies: dict[str, int]) -> list[str]:
    """Each kind's template copied `copies[kind]` times in the database at `url` (copies 1..n named `NAME-n`, the
    template itself dropped); the names of every game now in it."""
    statements = ["CREATE TEMP TABLE copies AS SELECT g.id AS old, n, g.name || '-' || n AS name, "
                  "nextval('games_id_seq') AS new FROM games g JOIN (VALUES "
                  + ", ".join(f"('{KINDS[kind]}', {count})" for kind, count in copies.items() if count)
                  + ") AS k(name, count) ON k.name = g.name, generate_series(1, k.count) AS n",
                  "INSERT INTO games (id, name, ruleset, seed, setup, created_at) SELECT c.new, c.name, g.ruleset, "
                  "g.seed, g.setup, g.created_at FROM games g JOIN copies c ON c.old = g.id",
                  "CREATE TEMP TABLE player_copies AS SELECT p.id AS old, c.new AS game, "
                  "nextval('players_id_seq') AS new FROM players p JOIN copies c ON c.old = p.game_id",
                  "INSERT INTO players (id, game_id, position, name, email, secret, timezone) SELECT pc.new, pc.game, "
                  "p.position, p.name, p.email, p.secret, p.timezone FROM players p JOIN player_copies pc ON pc.old = p.id",
                  "INSERT INTO robots (game_id, player_id, position, name) SELECT pc.game, pc.new, r.position, r.name "
                  "FROM robots r JOIN player_copies pc ON pc.old = r.player_id",
                  "INSERT INTO order_versions (game_id, turn, player_id, version, source, text, submission, "
                  "submitted_at, accepted, reason, mail, actor) SELECT c.new, o.turn, pc.new, o.version, o.source, "
                  "o.text, o.submission, o.submitted_at, o.accepted, o.reason, o.mail, o.actor FROM order_versions o "
                  "JOIN copies c ON c.old = o.game_id LEFT JOIN player_copies pc ON pc.old = o.player_id AND "
                  "pc.game = c.new"]
    columns = _columns(url)
    for table in GAME_ROWS:
        kept = ", ".join(c for c in columns[table] if c not in ("id", "game_id"))
        statements.append(f"INSERT INTO {table} (game_id, {kept}) SELECT c.new, {', '.join(f't.{c}' for c in kept.split(', '))} "
                          f"FROM {table} t JOIN copies c ON c.old = t.game_id")
    templates_of = "(SELECT id FROM games WHERE name IN (" + ", ".join(f"'{n}'" for n in KINDS.values()) + "))"
    statements += [f"DELETE FROM {table} WHERE game_id IN {templates_of}"
                   for table in ("robots", "order_versions", *GAME_ROWS, "players")]
    statements.append("DELETE FROM games WHERE name IN (" + ", ".join(f"'{n}'" for n in KINDS.values()) + ")")
    _execute(url, statements)
    return sorted(f"{KINDS[kind]}-{n}" for kind, count in copies.items() for n in range(1, count + 1))


def _columns(url: str) -> dict[str, list[str]]:
    import psycopg

    with psycopg.connect(libpq(url)) as conn:
        rows = conn.execute("SELECT table_name, column_name FROM information_schema.columns WHERE table_schema = "
                            "'public' ORDER BY ordinal_position").fetchall()
    columns: dict[str, list[str]] = {}
    for table, column in rows:
        columns.setdefault(table, []).append(f'"{column}"' if column == "over" else column)
    return columns


def _execute(url: str, statements: list[str]) -> None:
    """The statements run in one transaction on the database at `url`."""
    import psycopg

    with psycopg.connect(libpq(url)) as conn:
        for statement in statements:
            conn.execute(statement)  # type: ignore[arg-type]  # the benchmark's own SQL, no input in it


def libpq(url: str) -> str:
    return url.replace("postgresql+psycopg://", "postgresql://")
