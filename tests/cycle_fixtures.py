"""Small games for the turn-cycle tests: five copies of a 3x3 hall (gate r1c1, pit r2c3), two players."""
from __future__ import annotations

from datetime import datetime, timezone
from pathlib import Path

from pbem.formats.game import GameDescription, PlayerEntry, SourceFile
from pbem.gm.setup import create_game
from pbem.store.games import Store

HALL = """name: Hall {n}
size: 3x3
starts: [r3c1, r3c3]
elements:
  - {{type: gate, at: r1c1, open: true}}
  - {{type: pit, at: r2c3}}
"""
AT = datetime(2026, 1, 1, 12, 0, tzinfo=timezone.utc)  # the time stamp of steps whose time is not the point
DECK = Path(__file__).resolve().parent.parent / "decks" / "geeko.yaml"


def halls_description(name: str = "halls", seed: str = "5") -> GameDescription:
    rooms = [SourceFile(f"hall-{n}.yaml", HALL.format(n=n)) for n in range(1, 6)]
    players = [PlayerEntry("alice", "alice@example.org", ["Zapper", "Spanner"], "s-alice"),
               PlayerEntry("bob", "bob@example.org", ["Bolt", "Nut"], "s-bob")]
    return GameDescription(name, "geeko", seed, rooms, SourceFile("decks/geeko.yaml", DECK.read_text()), players)


def two_halls(folder: Path) -> str:
    """A SQLite database in FOLDER holding two hall games, `halls` and `keep`; its URL."""
    url = f"sqlite:///{folder / 'pbem.db'}"
    store = Store(url)
    with store.session() as session:
        for name in ("halls", "keep"):
            create_game(session, halls_description(name), AT)
        session.commit()
    store.close()
    return url


def order(game: str, turn: int, player: str, programs: dict[str, list], reboot=(), no_cards: bool = False) -> bytes:
    lines = [f"game: {game}", f"turn: {turn}", f"player: {player}", "robots:"]
    lines += [f"  {robot}: {{program: [{', '.join(str(c) for c in cards)}]}}" for robot, cards in programs.items()]
    if reboot:
        lines.append(f"reboot: [{', '.join(reboot)}]")
    if no_cards:
        lines.append("no_cards: true")
    return ("\n".join(lines) + "\n").encode()


def sheets_with_clock(db: str, name: str, dealt: datetime) -> list:
    """The game's first turn dealt with its clock started at `dealt` (as `pbem run` does): every player's sheet."""
    from pbem.gm import cycle
    from pbem.store.games import get_game
    from pbem.store.schedule import start_clock

    store = Store(db)
    try:
        with store.session() as session:
            cycle.deal(session, name)
            start_clock(session, get_game(session, name), 1, dealt)
            session.commit()
            return cycle.deal(session, name)[1]
    finally:
        store.close()
