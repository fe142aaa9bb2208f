"""A death match to play by mail in the attack tests (#37): the Ice match `ice`, ann and bob by mail (secrets
ann-secret and bob-secret), its first buzz window open from T0; and players' action mails as their mail programs
send them, stamped with the time the GM's server received them (RULES D5)."""
from __future__ import annotations

import atexit
import shutil
import tempfile
from functools import cache
from pathlib import Path

from cli_process import run_pbem
from mail_fixtures import mail

T0 = "2026-12-01T20:00:00+00:00"
MATCH = "ice"
PLAYERS = ("ann", "bob")


def new_match(folder: Path, url: str | None = None) -> str:
    """The match in `url` (default: folder/pbem.db, a copy of the one SQLite file `_made_match` made); its URL."""
    if url is not None:
        _make(url, folder)
        return url
    shutil.copyfile(_made_match(), folder / "pbem.db")
    return f"sqlite:///{folder / 'pbem.db'}"


@cache
def _made_match() -> Path:
    folder = Path(tempfile.mkdtemp(prefix="pbem-ice-"))
    atexit.register(shutil.rmtree, folder, True)
    _make(f"sqlite:///{folder / 'pbem.db'}", folder)
    return folder / "pbem.db"


def _make(url: str, folder: Path) -> None:
    made = run_pbem("--db", url, "--now", T0, "dm", "new", MATCH, "--game", "ice", "--player", "ann", "--player",
                    "bob", "--option", f"start={T0}", "--option", "size=6x6", "--option", "moves=3", "--out", folder,
                    cwd=folder)
    assert made.returncode == 0, made.stderr
    for player in PLAYERS:
        seated = run_pbem("--db", url, "mail", "dm-player", MATCH, player, f"{player}@example.org", "--secret",
                          f"{player}-secret", cwd=folder)
        assert seated.returncode == 0, seated.stderr


def action_mail(player: str, action: str, message_id: str, received: str | None = "20:00:30", *,
                match: str = MATCH, secret: str | None = None, sender: str | None = None) -> bytes:
    """`player`'s action in a reply, as the match's mail offers it, received on 1 December 2026 at `received`
    (None: no stamp, the action counts when it is read)."""
    body = (f"Hi,\n\nmatch: {match}\nplayer: {player}\nsecret: {secret or player + '-secret'}\naction: {action}\n\n"
            f"-- \n{player}\n")
    stamp = f"Received: from mx.example.org by gm.example.org; Tue, 01 Dec 2026 {received} +0000\r\n".encode() \
        if received else b""
    return stamp + mail(sender or f"{player.title()} <{player}@example.org>", body, message_id, subject="Re: ice")


def honest_actions() -> list[bytes]:
    """The mails the fuzz mutates, counting when they are read: both players' claims and skips (taken or refused
    as the round stands), a wrong secret, a player and a match that are not there, and a stranger sending ann's
    action."""
    return [action_mail("ann", "{claim: 4}", "<a1@ann>", None), action_mail("bob", "{claim: 3}", "<b1@bob>", None),
            action_mail("bob", "{skip: true}", "<b2@bob>", None), action_mail("ann", "{skip: true}", "<a4@ann>", None),
            action_mail("ann", "{claim: 2}", "<a2@ann>", None, secret="guess"),
            action_mail("carol", "{claim: 5}", "<c1@carol>", None),
            action_mail("ann", "{claim: 4}", "<a3@ann>", None, match="nice"),
            action_mail("ann", "{claim: 4}", "<m1@evil>", None, sender="mallory@evil.example")]
