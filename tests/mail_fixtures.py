"""A campaign to play by mail (the turn-cycle tests' halls game: alice and bob, secrets s-alice and s-bob),
and players' messages built as their mail programs would."""
from __future__ import annotations

import atexit
import shutil
import tempfile
from email.message import EmailMessage
from email.policy import SMTP
from functools import cache
from pathlib import Path

from cycle_fixtures import AT, halls_description, order

from pbem.gm import cycle
from pbem.gm.setup import create_game
from pbem.store.games import Store

SECRETS = {"alice": "s-alice", "bob": "s-bob"}
ADDRESSES = {"alice": "alice@example.org", "bob": "bob@example.org"}
ROBOTS = {"alice": ("Zapper", "Spanner"), "bob": ("Bolt", "Nut")}


def new_campaign(folder: Path, url: str | None = None) -> tuple[str, dict[str, list[str]]]:
    """A dealt halls game in `url` (default: folder/pbem.db, a copy of the one SQLite file `_dealt_halls` made):
    (database URL, each player's hand)."""
    if url is not None:
        return url, _deal(url)
    template, hands = _dealt_halls()
    shutil.copyfile(template, folder / "pbem.db")
    return f"sqlite:///{folder / 'pbem.db'}", {player: list(cards) for player, cards in hands.items()}


@cache
def _dealt_halls() -> tuple[Path, dict[str, list[str]]]:
    """The dealt halls game in a SQLite file, made once per process (its schema migrated, the game created and
    dealt: ~60 ms of CPU that each mail test paid); nothing in it depends on the time it was made."""
    folder = Path(tempfile.mkdtemp(prefix="pbem-halls-"))
    atexit.register(shutil.rmtree, folder, True)
    return folder / "pbem.db", _deal(f"sqlite:///{folder / 'pbem.db'}")


def _deal(url: str) -> dict[str, list[str]]:
    store = Store(url)
    try:
        with store.session() as session:
            create_game(session, halls_description(), AT)
            session.commit()
            _, sheets = cycle.deal(session, "halls")
    finally:
        store.close()
    return {sheet.player: sheet.hands[sheet.player] for sheet in sheets}


def orders_text(player: str, hand: list[str], secret: str | None = "same", turn: int = 1) -> str:
    """Two-card programs for both robots (the first four cards of the hand), with the player's secret."""
    first, second = ROBOTS[player]
    text = order("halls", turn, player, {first: hand[0:2], second: hand[2:4]}).decode()
    if secret == "same":
        secret = SECRETS[player]
    return text if secret is None else text.replace("robots:", f"secret: {secret}\nrobots:", 1)


def mail(sender: str, body: str, message_id: str, subject: str = "orders",
         attachments: tuple[tuple[str, str, bytes], ...] = ()) -> bytes:
    """A message as a mail program sends it; attachments are (file name, MIME type, bytes)."""
    message = EmailMessage(policy=SMTP)
    message["From"] = sender
    message["To"] = "Game Master <gm@example.org>"
    message["Subject"] = subject
    message["Message-ID"] = message_id
    message.set_content(body)
    for name, mime, data in attachments:
        maintype, subtype = mime.split("/")
        message.add_attachment(data, maintype=maintype, subtype=subtype, filename=name)
    return message.as_bytes()


def order_mail(player: str, hand: list[str], message_id: str, *, sender: str | None = None,
               secret: str | None = "same", turn: int = 1) -> bytes:
    """The player's orders pasted into a reply, under a greeting, above a signature and the quoted turn sheet."""
    body = (f"Hello GM,\n\nmy orders:\n\n{orders_text(player, hand, secret, turn)}\nCheers,\n-- \n{player}\n\n"
            f"> Your order file (edit the programs and send it back):\n> game: halls\n> turn: 1\n")
    return mail(sender or f"{player.title()} <{ADDRESSES[player]}>", body, message_id)
