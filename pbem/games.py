"""Every game pbem plays, listed once, in the order they are shown: BotWars and the Geek-o Challenge (campaigns),
then the four death matches.

Each entry names where the game's parts live — its rules object, its file formats, its pictures and text board,
its mail texts — as `module` or `module:attribute` paths, resolved only when asked (`part`). So this list sits
beside every layer without importing any: the pure rules (`dm/`) look a game up here without pulling in
`render/`, and a new game is one entry here plus its modules.
"""
from __future__ import annotations

import importlib
from dataclasses import dataclass
from enum import StrEnum
from typing import Any


class Kind(StrEnum):
    """How a game is played: a campaign of turns played at once by every player (orders by mail, turn sheets,
    stage reports), or a two-player death match of single actions (`pbem dm`)."""

    CAMPAIGN = "campaign"
    MATCH = "death match"


@dataclass(frozen=True)
class Entry:
    name: str
    title: str
    kind: Kind
    rules: str  # the `dm.base.Game` playing it
    formats: tuple[str, ...]  # the readers and writers of its files
    picture: str | None  # death matches: render data -> image; campaigns: their stage reports' module
    text: str | None  # death matches: render data -> text board (None: YAML); campaigns: their turn sheets'
    mail: str  # builds its mails


_CAMPAIGN_FORMATS = ("pbem.formats.game", "pbem.formats.orders", "pbem.formats.rooms", "pbem.formats.roommap",
                     "pbem.formats.decks", "pbem.formats.scenario", "pbem.formats.schedule")
_CAMPAIGN_RENDER = dict(picture="pbem.render.turn", text="pbem.render.sheet", mail="pbem.mail.post")

GAMES: tuple[Entry, ...] = (
    Entry("botwars", "BotWars", Kind.CAMPAIGN, "pbem.dm.campaign:BotWars", _CAMPAIGN_FORMATS, **_CAMPAIGN_RENDER),
    Entry("geeko", "Geek-o Challenge", Kind.CAMPAIGN, "pbem.dm.campaign:Geeko", _CAMPAIGN_FORMATS,
          **_CAMPAIGN_RENDER),
    Entry("gyulbot", "Gyulbot", Kind.MATCH, "pbem.dm.gyulbot.game:Gyulbot",
          ("pbem.formats.transcript", "pbem.formats.dmpuzzles", "pbem.formats.gyulbot"),
          "pbem.render.dm_gyulbot:draw_gyulbot", "pbem.render.dm_gyulbot:gyulbot_text", "pbem.mail.dmpost"),
    Entry("ice", "Ice maze", Kind.MATCH, "pbem.dm.icemaze.game:IceMaze",
          ("pbem.formats.transcript", "pbem.formats.dmpuzzles", "pbem.formats.icemaze"),
          "pbem.render.dm_ice:draw_ice", "pbem.render.dm_ice:ice_text", "pbem.mail.dmpost"),
    Entry("takebacktoe", "Take-Back-Toe", Kind.MATCH, "pbem.dm.takebacktoe:TakeBackToe",
          ("pbem.formats.transcript",),
          "pbem.render.dm_takebacktoe:picture", "pbem.render.dm_takebacktoe:text", "pbem.mail.dmpost"),
    Entry("flowerfield", "Flower Field", Kind.MATCH, "pbem.dm.flowerfield.game:FlowerField",
          ("pbem.formats.transcript", "pbem.formats.flowerboard"),
          "pbem.render.dm_flowerfield:picture", "pbem.render.dm_flowerfield:text", "pbem.mail.dmpost"),
)
BY_NAME = {entry.name: entry for entry in GAMES}


def names(kind: Kind | None = None) -> tuple[str, ...]:
    """The games' names in the listed order (of one kind, when given)."""
    return tuple(entry.name for entry in GAMES if kind is None or entry.kind == kind)


def entry(name: str, kind: Kind | None = None) -> Entry:
    """The game called `name` (of `kind`, when given); KeyError naming the known ones."""
    found = BY_NAME.get(name)
    if found is None or (kind is not None and found.kind != kind):
        raise KeyError(f"unknown game {name!r}; known: {', '.join(names(kind))}")
    return found


def part(path: str) -> Any:
    """What a `module` or `module:attribute` path names, imported now."""
    module, _, attribute = path.partition(":")
    found = importlib.import_module(module)
    return getattr(found, attribute) if attribute else found
