"""Every game pbem plays, listed once, in the order they are shown: BotWars and the Geek-o Challenge (campaigns),
then the four death matches.

Each entry names where the game's parts live — its rules object, its file formats, its pictures and text board
— as `module` or `module:attribute` paths, resolved only when asked (`part`). So this list sits
beside every layer without importing any: the pure rules (`dm/`) look a game up here without pulling in
`render/`, and a new game is one entry here plus its modules.

`GAMES` is the list pbem ships; `register` adds a game from elsewhere (a test's game folder, a GM's own package),
and an installed package adds its death matches through the entry-point group `pbem.games` (each entry point, named
as its game, names an `Entry`: `nim = nimgame:ENTRY`). Every reader asks `entries`, `names`, `find` or `entry`, so
an added game is played, listed and rendered as a shipped one is. The installed packages are read the first time a
game is asked for that is not shipped or registered, or the list of matches is (never by the quiet tick, which
tells a match from a campaign by the campaigns' names), and a broken entry point ends that with `InstalledGameError`
naming its package.
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
class PuzzleFile:
    """A death-match file a GM may give where a room is expected (`pbem room check`): the top-level fields that
    tell it from a room, what it is called, and its reader (raw data, source -> the game's object)."""

    fields: tuple[str, ...]
    title: str
    reader: str


@dataclass(frozen=True)
class Solver:
    """A game's exact solver, whose search is a C extension compiled when pbem is installed (`setup.py`)."""

    module: str  # has warm_up()
    title: str  # what `pbem warm` calls it


@dataclass(frozen=True)
class Entry:
    name: str
    title: str
    kind: Kind
    rules: str  # the `dm.base.Game` playing it
    formats: tuple[str, ...]  # the readers and writers of its files
    picture: str | None  # death matches: render data -> image; campaigns: their stage reports' module
    text: str | None  # death matches: render data -> text board (None: YAML); campaigns: their turn sheets'
    puzzles: str | None = None  # the `formats.dmpuzzles.PuzzleFormat` of a match whose Config takes puzzles
    puzzle_file: PuzzleFile | None = None  # its puzzle or board file, told from a room
    solver: Solver | None = None
    deck: str | None = None  # campaigns: the deck a room is rehearsed with (`pbem room analyse`)


_CAMPAIGN_FORMATS = ("pbem.formats.game", "pbem.formats.orders", "pbem.formats.rooms", "pbem.formats.roommap",
                     "pbem.formats.decks", "pbem.formats.scenario", "pbem.formats.schedule")


def _campaign(name: str, title: str, rules: str, deck: str) -> Entry:
    """A campaign: its files, stage reports, turn sheets and mails are every campaign's."""
    return Entry(name, title, Kind.CAMPAIGN, rules, _CAMPAIGN_FORMATS, "pbem.render.turn", "pbem.render.sheet", deck=deck)


GAMES: tuple[Entry, ...] = (
    _campaign("botwars", "BotWars", "pbem.dm.campaign:BotWars", "decks/standard.yaml"),
    _campaign("geeko", "Geek-o Challenge", "pbem.dm.campaign:Geeko", "decks/geeko.yaml"),
    Entry("gyulbot", "Gyulbot", Kind.MATCH, "pbem.dm.gyulbot.game:Gyulbot",
          ("pbem.formats.transcript", "pbem.formats.dmpuzzles", "pbem.formats.gyulbot"),
          "pbem.render.dm_gyulbot:draw_gyulbot", "pbem.render.dm_gyulbot:gyulbot_text",
          puzzles="pbem.formats.gyulbot:PUZZLES",
          puzzle_file=PuzzleFile(("goal",), "Gyulbot puzzle", "pbem.formats.gyulbot:parse_puzzle"),
          solver=Solver("pbem.dm.gyulbot.solver", "the Gyulbot solver")),
    Entry("ice", "Ice maze", Kind.MATCH, "pbem.dm.icemaze.game:IceMaze",
          ("pbem.formats.transcript", "pbem.formats.dmpuzzles", "pbem.formats.icemaze"),
          "pbem.render.dm_ice:draw_ice", "pbem.render.dm_ice:ice_text",
          puzzles="pbem.formats.icemaze:PUZZLES",
          puzzle_file=PuzzleFile(("map",), "Ice maze", "pbem.formats.icemaze:parse_maze"),
          solver=Solver("pbem.dm.icemaze.solver", "the ice-maze solver")),
    Entry("takebacktoe", "Take-Back-Toe", Kind.MATCH, "pbem.dm.takebacktoe:TakeBackToe",
          ("pbem.formats.transcript",),
          "pbem.render.dm_takebacktoe:picture", "pbem.render.dm_takebacktoe:text"),
    Entry("flowerfield", "Flower Field", Kind.MATCH, "pbem.dm.flowerfield.game:FlowerField",
          ("pbem.formats.transcript", "pbem.formats.flowerboard"),
          "pbem.render.dm_flowerfield:picture", "pbem.render.dm_flowerfield:text",
          puzzle_file=PuzzleFile(("board", "variant"), "Flower Field board",
                                 "pbem.formats.flowerboard:parse_flower_board")),
)
_BY_NAME = {entry.name: entry for entry in GAMES}  # the shipped games, then the registered and installed ones
ENTRY_POINT_GROUP = "pbem.games"
_installed_read = False  # whether the installed packages' games are in _BY_NAME


class InstalledGameError(Exception):
    """An installed package's `pbem.games` entry point that cannot be played: it does not load, names no death
    match's `Entry`, or its name is another game's. The message names the package."""


def _read_installed() -> None:
    """Add the installed packages' games (`pbem.games` entry points), once per process; InstalledGameError, adding
    none, when one of them cannot be played."""
    global _installed_read
    if _installed_read:
        return
    from importlib.metadata import entry_points

    found = {}
    for point in sorted(entry_points(group=ENTRY_POINT_GROUP), key=lambda p: p.name):
        added = _installed(point)
        if added.name in found:
            raise InstalledGameError(f"{_where(point)}: the game {added.name!r} is installed twice")
        found[added.name] = added
    _BY_NAME.update(found)
    _installed_read = True


def _installed(point: Any) -> Entry:
    """The death match an entry point names, checked."""
    try:
        added = point.load()
    except Exception as err:  # any fault in an installed package is reported with its name, never a traceback
        raise InstalledGameError(f"{_where(point)} does not load: {type(err).__name__}: {err}") from err
    if not isinstance(added, Entry) or added.kind is not Kind.MATCH:
        raise InstalledGameError(f"{_where(point)} names {type(added).__name__}, not the pbem.games.Entry of a "
                                 "death match (kind=Kind.MATCH)")
    if added.name != point.name:
        raise InstalledGameError(f"{_where(point)} names the game {added.name!r}: the entry point is named as its "
                                 "game")
    shipped = _BY_NAME.get(added.name)
    if shipped is not None and shipped != added:
        built_in = "pbem's built-in" if shipped in GAMES else "a registered"
        raise InstalledGameError(f"{_where(point)}: its name {added.name!r} is {built_in} game's ({shipped.title})")
    return added


def _where(point: Any) -> str:
    """'the installed package nim-by-mail 1.0 (entry point pbem.games: nim = nimgame:ENTRY)'."""
    package = f"{point.dist.name} {point.dist.version}" if point.dist is not None else "(unknown)"
    return f"the installed package {package} (entry point {ENTRY_POINT_GROUP}: {point.name} = {point.value})"


def register(added: Entry) -> None:
    """Play `added` beside the shipped games, listed after them (again: nothing changes); ValueError if another game
    has its name."""
    if _BY_NAME.get(added.name) == added:
        return
    if added.name in _BY_NAME:
        raise ValueError(f"a game named {added.name!r} is registered already")
    _BY_NAME[added.name] = added


def unregister(name: str) -> None:
    """Forget a game `register` added (a test's game, once the test is done); the shipped ones stay."""
    if name not in {shipped.name for shipped in GAMES}:
        _BY_NAME.pop(name, None)


def entries(kind: Kind | None = None) -> tuple[Entry, ...]:
    """Every game, shipped, registered and installed, in the listed order (of one kind, when given). The campaigns
    are read without the installed packages, which add death matches only: so every game not a campaign is a match,
    which is how the quiet tick's plain SQL tells them apart without reading them."""
    if kind is not Kind.CAMPAIGN:
        _read_installed()
    return tuple(found for found in _BY_NAME.values() if kind is None or found.kind == kind)


def names(kind: Kind | None = None) -> tuple[str, ...]:
    """The games' names in the listed order (of one kind, when given)."""
    return tuple(found.name for found in entries(kind))


def find(name: str) -> Entry | None:
    """The game called `name`, or None."""
    if name not in _BY_NAME:
        _read_installed()
    return _BY_NAME.get(name)


def entry(name: str, kind: Kind | None = None) -> Entry:
    """The game called `name` (of `kind`, when given); KeyError naming the known ones."""
    found = find(name)
    if found is None or (kind is not None and found.kind != kind):
        raise KeyError(f"unknown game {name!r}; known: {', '.join(names(kind))}")
    return found


def part(path: str) -> Any:
    """What a `module` or `module:attribute` path names, imported now."""
    module, _, attribute = path.partition(":")
    found = importlib.import_module(module)
    return getattr(found, attribute) if attribute else found
