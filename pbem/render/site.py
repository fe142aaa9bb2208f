"""The static campaign site: an index of games, each game's turns and standings, every turn's
pages with previous/next links running through all stages of all turns.

Rewriting only what changed: given a `version` (what else the pages are made from: code, templates), each game
folder keeps a manifest of its turns; a `StoredTurn` whose key, links and version match what the manifest says was
written (and whose folder is still there) is neither loaded nor drawn again. Adding a turn so rewrites that turn,
the one before it (its "next" links) and the indexes.
"""
from __future__ import annotations

import hashlib
import json
import os
from dataclasses import dataclass, field
from pathlib import Path
from typing import TYPE_CHECKING, Any, Callable, Iterable, Iterator, NamedTuple, Sequence, Union, overload

from markupsafe import Markup

from ..formats.game import turn_folder_name
from . import html
from .memory import give_back
from .rulebook import rules_markdown
from .turn import (
    Recipient,
    StagePage,
    TurnReport,
    legend_bytes,
    rewrite_pages,
    slug,
    stage_pages,
    turn_pages,
    write_turn_report,
)

if TYPE_CHECKING:
    from .dm_page import MatchPage


MANIFEST = ".pbem-site.json"
RULES_MADE = ".pbem-site-rules"  # what the rulebook page was made from
INDEX = ".pbem-site-index.json"  # every game and match the site's index lists, from every run
EPOCH = "1970-01-01T00:00:00Z"  # a turn's time when the report came without one (never from a clock)


@dataclass(frozen=True)
class StoredTurn:
    """A turn the site can skip: `key` names what it was made from (a turn played again gets another), `load`
    builds its report when it must be written."""

    turn: int
    key: str
    load: Callable[[], TurnReport]
    at: str = ""  # when it was processed (ISO 8601, UTC), for the game's feed


class Written:
    """The files a run wrote, kept as their names under `folder`: a 1,000-turn build writes ~18,500, which as `Path`s
    took ~9 MB, held to the end of the build."""

    def __init__(self, folder: Path):
        self.folder, self._names = folder, []  # type: Path, list[str]

    def extend(self, paths: Iterable[Path]) -> None:
        self._names += (str(path.relative_to(self.folder)) for path in paths)

    def __iter__(self) -> Iterator[Path]:
        return (self.folder / name for name in self._names)

    def __len__(self) -> int:
        return len(self._names)

    def __contains__(self, path: object) -> bool:
        return isinstance(path, Path) and path.is_relative_to(self.folder) and \
            str(path.relative_to(self.folder)) in self._names


@dataclass
class Summary:
    """What a game's index shows beside its turns (its feed's newest entry, the site's index: the winners)."""

    standings: list[dict[str, Any]] = field(default_factory=list)  # `pbem.engine.campaign.standings` rows
    ending: list[str] = field(default_factory=list)  # the game is over: the result and the final standings
    press: list[dict[str, Any]] = field(default_factory=list)  # the players' press ({at, by, to, text}), once over
    named: list[str] | None = None  # the winners the GM named ending it (pbem game end; [] none); None: the rules'

    @property
    def over(self) -> bool:
        """The engine said the game has ended, or the GM ended it (its ending was told)."""
        return bool(self.ending)

    @property
    def winners(self) -> list[str]:
        """Who won: the GM's word when they ended the game, else the first place of the final standings."""
        if self.named is not None:
            return self.named
        return [row["player"] for row in self.standings if row.get("place") == 1] if self.over else []


@dataclass
class GameHistory:
    name: str
    turns: list[Union[TurnReport, StoredTurn]]  # in turn order
    summary: Summary | Callable[[], Summary] = field(default_factory=Summary)  # a function: called when shown
    recipients: list[Recipient] = field(default_factory=list)  # when given, each turn gets their .eml files
    key: str = ""  # names what the summary is made of ("": unknown); a run that finds it, and the same turns, in
    # the manifest keeps the game's index and feed and never asks for the summary

    def told(self) -> Summary:
        if not isinstance(self.summary, Summary):
            self.summary = self.summary()
        return self.summary


class WrittenGame(NamedTuple):
    files: Written
    winners: list[str]


def _turn_dir(turn: int) -> str:
    return turn_folder_name(turn)


def _stored(turn: TurnReport | StoredTurn) -> StoredTurn:
    """A report given as such is always written (no key)."""
    return turn if isinstance(turn, StoredTurn) else StoredTurn(turn.turn, "", lambda: turn)


@dataclass
class TurnEntry:
    """A turn's line of the game's manifest (JSON lines, after its head): what the turn's pages were made from, and
    its pieces of the game's index and feed, rendered once."""

    turn: int
    key: str  # the `StoredTurn`'s key
    pages: list[StagePage]  # its stage pages (number, file), for the turn after's links and the index
    made: str  # what its pages were made from besides its report (`_Around.made`)
    at: str  # when it was processed
    line: str  # its line on the game's index
    entry: str  # its entry in the game's feed (without the winners)
    open: dict[str, str] | None = None  # the last turn's pages with its next links left open (`_open_pages`)

    def text(self) -> str:
        return json.dumps({"turn": self.turn, "key": self.key, "pages": self.pages, "made": self.made, "at": self.at,
                           "line": self.line, "entry": self.entry, **({"open": self.open} if self.open else {})})

    @classmethod
    def read(cls, line: str) -> TurnEntry:
        data = json.loads(line)
        return cls(data["turn"], data["key"], [(number, file) for number, file in data["pages"]], data["made"],
                   data["at"], data["line"], data["entry"], data.get("open"))


class _Manifest(NamedTuple):
    head: dict[str, Any]  # the version, the game's name and address (`shown`), the key and winners of its index
    turns: dict[int, tuple[TurnEntry, str]]  # turn -> its entry, and its line as written


def _manifest(out_dir: Path, version: str) -> _Manifest:
    """What an earlier run with the same `version` wrote (nothing when there is no version). The manifest is JSON
    lines: its head, then a line for each turn, which a run that keeps the turn writes back as it was."""
    try:
        head, *lines = (out_dir / MANIFEST).read_text(encoding="utf-8").splitlines() if version else [""]
        kept = json.loads(head) if head else {}
        if not isinstance(kept, dict) or kept.get("version") != version:
            return _Manifest({}, {})
        turns = {}
        for line in lines:
            entry = TurnEntry.read(line)
            turns[entry.turn] = (entry, line)
    except (OSError, ValueError, KeyError, TypeError):
        return _Manifest({}, {})
    return _Manifest(kept, turns)


def _game_key(game: GameHistory, turns: Sequence[StoredTurn], shown: str) -> str:
    """What the game's index and feed are made of: its summary's key, its name and address, and every turn's key
    and time ("" when one is unknown: they are made every run)."""
    if not game.key or not all(t.key for t in turns):
        return ""
    made = json.dumps([game.key, shown, [[t.turn, t.key, t.at] for t in turns]])
    return hashlib.sha256(made.encode()).hexdigest()


class _Listed(Sequence[dict[str, Any]]):
    """The turns as a template made before the kept pieces reads them (`turns`: a campaign folder's copy of
    game_index.html or feed.xml), each made only when read."""

    def __init__(self, count: int, item: Callable[[int], dict[str, Any]]):
        self._count, self._item = count, item

    def __len__(self) -> int:
        return self._count

    @overload
    def __getitem__(self, i: int) -> dict[str, Any]: ...
    @overload
    def __getitem__(self, i: slice) -> list[dict[str, Any]]: ...
    def __getitem__(self, i: int | slice) -> dict[str, Any] | list[dict[str, Any]]:
        if isinstance(i, slice):
            return [self._item(n) for n in range(self._count)[i]]
        if not -self._count <= i < self._count:
            raise IndexError(i)
        return self._item(i % self._count)


def feed_page(game: str, noun: str, base: str, items: Sequence[dict[str, Any]], winners: Sequence[str],
              templates: Sequence[str], entries: Sequence[str] | None = None) -> str:
    """The Atom feed of a game or a match: `items` (number or title, href, at, summary), oldest first, the newest
    saying who won; `entries`, theirs as rendered without the winners (kept from an earlier run), else rendered."""
    pieces = html.pieces(templates)
    if entries is None:
        entries = [pieces.feed_entry(game, slug(game), noun, base, item, []) for item in items]
    shown = [pieces.feed_entry(game, slug(game), noun, base, items[-1], winners) if i == 0 and winners else
             Markup(entry) for i, entry in enumerate(reversed(entries))]
    return html.render("feed.xml", templates, game=game, slug=slug(game), winners=list(winners), base=base,
                       noun=noun, entries=shown, updated=items[-1]["at"] if items else EPOCH, turns=items)


def write_game(out_dir: Path, game: GameHistory, templates: Sequence[str] = (), version: str = "",
               progress: Callable[[], None] | None = None, base_url: str = "") -> WrittenGame:
    """The game's folder; returns the files written (not those kept from an earlier run with the same `version`)
    and who won. `base_url`, the folder's address on the web when the site knows it, makes the feed's links
    absolute.

    Turn by turn (`_Turns`), `progress` called after each; then the game's index and feed. Each turn's line on the
    index and entry in the feed are kept in the manifest, so one more turn renders only its own; with nothing new
    (the game's `key` and every turn as the manifest says), neither the index nor the feed is made again and the
    game's summary is not asked for."""
    out_dir.mkdir(parents=True, exist_ok=True)
    old = _manifest(out_dir, version)
    shown = json.dumps([game.name, base_url])
    turns = _Turns(out_dir, game, templates, version, base_url, old.turns, old.head.get("shown") == shown)
    written = Written(out_dir)
    manifest: list[str] = []  # each turn's line of the manifest, as JSON text (as objects, 1,000 turns' took ~3 MB)
    lines, entries = [], []  # each turn's line on the index and entry in the feed
    same = True  # every turn's entry in the manifest as it was
    for i in range(len(turns)):
        step = turns.write(i)
        written.extend(step.files)
        manifest.append(step.kept_line or step.entry.text())
        same = same and step.kept_line is not None
        lines.append(step.entry.line)
        entries.append(step.entry.entry)
        if progress:
            progress()
    key = _game_key(game, turns.turns, shown)
    index, feed_xml, legend = out_dir / "index.html", out_dir / "feed.xml", out_dir / "legend.png"
    kept_game = old.head.get("game") or {}
    if key and kept_game.get("key") == key and index.is_file() and feed_xml.is_file() and legend.is_file():
        winners: list[str] = kept_game["winners"]
    else:
        summary = game.told()
        winners = summary.winners
        index.write_text(html.render("game_index.html", templates, game=game.name, lines=map(Markup, lines),
                                     turns=_Listed(len(turns), turns.index_item), standings=summary.standings,
                                     ending=summary.ending, press=summary.press), encoding="utf-8")
        feed_xml.write_text(feed_page(game.name, "turn", base_url, _Listed(len(turns), turns.feed_item), winners,
                                      templates, entries), encoding="utf-8")
        legend.write_bytes(legend_bytes())
        written.extend([index, feed_xml, legend])
        same = False
    if version and not (same and not turns.old):
        head = json.dumps({"version": version, "shown": shown, "game": {"key": key, "winners": winners}})
        (out_dir / MANIFEST).write_text("\n".join([head, *manifest]) + "\n", encoding="utf-8")
    return WrittenGame(written, winners)


class _Around(NamedTuple):
    """How a turn's pages link into the turns beside it."""

    prev: str | None  # the turn before's folder
    before: str | None  # its last stage page
    ahead: tuple[str, str] | None  # the turn after's index and first stage page

    @property
    def links(self) -> list[tuple[str, str | None]]:
        return _turn_links(self.prev, self.ahead)

    @property
    def after(self) -> str | None:
        return self.ahead[1] if self.ahead else None

    def made(self, readers: str) -> str:
        """What the turn's pages are made from besides its report (kept in the manifest): the pages they link to
        (the turn's own links follow from them) and `readers`, who get its mails."""
        return json.dumps([self.before, self.ahead, readers])


class _Step(NamedTuple):
    """One turn written: its files written (none when kept), its entry of the manifest, and the manifest's line as
    it was when nothing of the turn changed (None: `entry` is new)."""

    files: list[Path]
    entry: TurnEntry
    kept_line: str | None


class _Turns:
    """A game's turns written in order. A turn's pages link to the last page of the turn before and the first of
    the turn after, so at most two reports are loaded at a time (the turn written and the next), and each turn's
    files are written before the next is drawn: memory stays flat in the number of turns. A turn the manifest
    (`old`) lists with the same key is loaded only when its pages must be written again."""

    def __init__(self, out_dir: Path, game: GameHistory, templates: Sequence[str], version: str, base_url: str,
                 old: dict[int, tuple[TurnEntry, str]], pieces_kept: bool):
        self.out_dir, self.game, self.templates = out_dir, game, templates
        self.version, self.base_url = version, base_url
        self.old = old  # what the manifest says of each turn not written yet
        self.pieces_kept = pieces_kept  # the lines and entries kept were made for the game's name and address
        self.turns = [_stored(t) for t in game.turns]
        self._folders = [_turn_dir(t.turn) for t in self.turns]
        self._readers = json.dumps([[r.player, r.address] for r in game.recipients])
        self._reports: dict[int, TurnReport] = {}
        self._pages: dict[int, list[StagePage]] = {}  # turn index -> its stage pages (number, file)

    def __len__(self) -> int:
        return len(self.turns)

    def write(self, i: int) -> _Step:
        """Turn `i`'s pages (unless kept), its entry of the manifest and its pieces of the index and feed."""
        entry, folders = self.turns[i], self._folders
        prev = folders[i - 1] if i > 0 else None
        nxt = folders[i + 1] if i + 1 < len(folders) else None
        around = _Around(prev, f"../{prev}/{self.pages_of(i - 1)[-1][1]}" if prev else None,
                         (f"../{nxt}/index.html", f"../{nxt}/{self.pages_of(i + 1)[0][1]}") if nxt else None)
        made = around.made(self._readers)
        kept = self._unchanged(entry)
        there = os.path.isfile(f"{self.out_dir}/{folders[i]}/index.html") if kept else False
        files: list[Path] = []
        if kept and there and kept.made == made:
            opened = kept.open if not around.ahead else None  # see _open_pages
        else:
            files, opened = self._pages_written(i, around, kept, there)
        if kept and self.pieces_kept and kept.at == entry.at:
            line, feed = kept.line, kept.entry
        else:
            pieces = html.pieces(self.templates)
            line, feed = str(pieces.index_line(self.index_item(i))), str(pieces.feed_entry(
                self.game.name, slug(self.game.name), "turn", self.base_url, self.feed_item(i), []))
        step = TurnEntry(entry.turn, entry.key, self.pages_of(i), made, entry.at, line, feed, opened)
        listed = self.old.pop(entry.turn, None)  # read for the last time
        self._reports.pop(entry.turn, None)  # written: only the next turn's report stays loaded
        give_back()  # and the memory its pictures took goes back to the system
        return _Step(files, step, listed[1] if listed and step == listed[0] else None)

    def _pages_written(self, i: int, around: _Around, kept: TurnEntry | None,
                       there: bool) -> tuple[list[Path], dict[str, str] | None]:
        """The turn's folder written again (`kept`: the manifest's entry of the same turn, its folder `there`): the
        files written, and the pages with their next links left open when it is the last turn. A turn that was the
        last has its open pages filled in with the next turn's addresses, without loading its report."""
        folder, recipients = self.out_dir / self._folders[i], self.game.recipients
        if kept and there and kept.open and around.ahead and not recipients \
                and kept.made == around._replace(ahead=None).made(self._readers):
            return rewrite_pages(folder, {name: _filled(page, NEXT_TOKENS[0], around.ahead)
                                          for name, page in kept.open.items()}), None
        report = self._report(self.turns[i])
        files = write_turn_report(folder, report, recipients, links=around.links, templates=self.templates,
                                  before=around.before, after=around.after, pictures_kept=kept is not None)
        last = not around.ahead and bool(self.version) and not recipients
        return files, _open_pages(report, around.prev, around.before, self.templates) if last else None

    def _report(self, entry: StoredTurn) -> TurnReport:
        if entry.turn not in self._reports:
            self._reports[entry.turn] = entry.load()
        return self._reports[entry.turn]

    def _unchanged(self, entry: StoredTurn) -> TurnEntry | None:
        kept = self.old.get(entry.turn)
        return kept[0] if entry.key and kept and kept[0].key == entry.key else None

    def pages_of(self, i: int) -> list[StagePage]:
        if i not in self._pages:
            kept = self._unchanged(self.turns[i])
            self._pages[i] = kept.pages if kept else stage_pages(self._report(self.turns[i]))
        return self._pages[i]

    def index_item(self, i: int) -> dict[str, Any]:
        """Turn `i` as the game's index lists it."""
        folder = self._folders[i]
        return {"number": self.turns[i].turn, "href": f"{folder}/index.html",
                "stages": [(str(n) if n else "end", f"{folder}/{file}") for n, file in self.pages_of(i)]}

    def feed_item(self, i: int) -> dict[str, Any]:
        """Turn `i` as the game's feed lists it."""
        turn = self.turns[i].turn
        return {"number": turn, "href": f"{self._folders[i]}/index.html", "at": self.turns[i].at or EPOCH,
                "summary": f"Turn {turn} of {self.game.name} has been played: its report, stage by stage."}


NEXT_TOKENS = ("pbem:next-turn:", "pbem:next-stage:"), ("pbem:other-next-turn-page:", "pbem:its-first-stage:")


def _turn_links(prev: str | None, ahead: tuple[str, str] | None) -> list[tuple[str, str | None]]:
    """The links heading a turn's page: the turn before (`prev`, its folder), the game's index, the turn after
    (`ahead`: its index and first stage page)."""
    return [("← previous turn", f"../{prev}/index.html" if prev else None), ("game index", "../index.html"),
            ("next turn →", ahead[0] if ahead else None)]


def _open_pages(report: TurnReport, prev: str | None, before: str | None,
                templates: Sequence[str]) -> dict[str, str] | None:
    """The last turn's pages that carry its "next" links (its index and last stage page), made with a token where
    the next turn's addresses go and kept in the manifest: when the next turn comes they are filled in and written
    without this turn's report (its states and events read, ~0.03 s). None when the templates do not show the
    addresses as given: each pair of tokens (of other lengths) filled in with the other must give the other's pages."""
    only = {"index.html", stage_pages(report)[-1][1]}
    made = [turn_pages(report, _turn_links(prev, tokens), before, tokens[1], templates, only) for tokens in NEXT_TOKENS]
    return made[0] if all(_filled(page, NEXT_TOKENS[0], NEXT_TOKENS[1]) == made[1][name]
                          for name, page in made[0].items()) else None


def _filled(page: str, tokens: tuple[str, str], ahead: tuple[str, str]) -> str:
    return page.replace(tokens[0], ahead[0]).replace(tokens[1], ahead[1])


def write_site(out_dir: Path, games: Sequence[GameHistory], templates: Sequence[str] = (),
               version: str = "", matches: Sequence[MatchPage] = (),
               progress: Callable[[], None] | None = None, base_url: str = "") -> Written:
    """Write the site under `out_dir` (with a `version`, only what changed since the last run), death matches under
    `matches/` with their result on the index; returns the files written. The index lists these games and matches
    and every one an earlier run put in `out_dir`. `progress` is called after each turn of each game. `base_url` is
    the site's address on the web (`https://example.org/games/`), when it has one: each game's feed then links to
    its pages by their absolute addresses, as feed readers want them."""
    out_dir.mkdir(parents=True, exist_ok=True)
    written = Written(out_dir)
    entries = []
    for game in games:
        name = slug(game.name)
        files, winners = write_game(out_dir / name, game, templates, version, progress,
                                    f"{base_url.rstrip('/')}/{name}/" if base_url else "")
        written.extend(files)
        entries.append({"name": game.name, "href": f"{name}/index.html", "turns": len(game.turns),
                        "winners": winners})
    for match in matches:
        folder = out_dir / "matches" / slug(match.name)
        folder.mkdir(parents=True, exist_ok=True)
        for file, content in match.files.items():
            (folder / file).write_bytes(content if isinstance(content, bytes) else content.encode("utf-8"))
            written.extend([folder / file])
        entries.append({**match.entry, "href": f"matches/{slug(match.name)}/index.html"})
    rules = _rules(out_dir, templates, version)
    if rules:
        written.extend([rules])
    written.extend([write_index(out_dir, entries, templates)])
    return written


def _rules(out_dir: Path, templates: Sequence[str], version: str) -> Path | None:
    """The rulebook page, when it is not there already (returned when written). The same on every run: with a
    `version`, a run that finds the page made from the same version, templates and rules neither renders it again
    nor loads the Markdown parser (RULES_MADE keeps what it was made from)."""
    made = hashlib.sha256(json.dumps([version, list(templates), rules_markdown()]).encode()).hexdigest()
    rules, marker = out_dir / "rules.html", out_dir / RULES_MADE
    if version and rules.is_file() and marker.is_file() and marker.read_text(encoding="utf-8") == made:
        return None
    from .rulebook import rules_page

    page = rules_page(templates)
    written = not rules.is_file() or rules.read_text(encoding="utf-8") != page
    if written:
        rules.write_text(page, encoding="utf-8")
    if version:
        marker.write_text(made, encoding="utf-8")
    return rules if written else None


def write_index(out_dir: Path, entries: Sequence[dict[str, Any]], templates: Sequence[str] = ()) -> Path:
    """The site's index: `entries` (games: name, href, turns; death matches: name, href, game, players, result) with
    those of earlier runs into the same folder (kept in INDEX), in name order; a newer entry replaces its older one."""
    try:
        kept = json.loads((out_dir / INDEX).read_text(encoding="utf-8"))
    except (OSError, ValueError):
        kept = []
    known = {entry["name"]: entry for entry in kept if isinstance(entry, dict) and "name" in entry
             and (out_dir / str(entry.get("href", ""))).is_file()}
    known |= {entry["name"]: dict(entry) for entry in entries}
    listed = [known[name] for name in sorted(known)]
    (out_dir / INDEX).write_text(json.dumps(listed, ensure_ascii=False, sort_keys=True), encoding="utf-8")
    games = [entry for entry in listed if "players" not in entry]
    matches = [entry for entry in listed if "players" in entry]
    (out_dir / "index.html").write_text(html.render("site_index.html", templates, games=games, matches=matches),
                                        encoding="utf-8")
    return out_dir / "index.html"
