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
from dataclasses import dataclass, field
from pathlib import Path
from typing import TYPE_CHECKING, Any, Callable, Iterable, Iterator, Sequence, Union

from ..formats.game import turn_folder_name
from . import html
from .memory import give_back
from .rulebook import rules_markdown
from .turn import Recipient, StagePage, TurnReport, legend_bytes, slug, stage_pages, write_turn_report

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


@dataclass
class GameHistory:
    name: str
    turns: list[Union[TurnReport, StoredTurn]]  # in turn order
    standings: list[dict[str, Any]] = field(default_factory=list)  # `pbem.engine.campaign.standings` rows
    recipients: list[Recipient] = field(default_factory=list)  # when given, each turn gets their .eml files
    ending: list[str] = field(default_factory=list)  # the game is over: the result and the final standings
    press: list[dict[str, Any]] = field(default_factory=list)  # the players' press ({at, by, to, text}), once the game is over
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


def _turn_dir(turn: int) -> str:
    return turn_folder_name(turn)


def _stored(turn: TurnReport | StoredTurn) -> StoredTurn:
    """A report given as such is always written (no key)."""
    return turn if isinstance(turn, StoredTurn) else StoredTurn(turn.turn, "", lambda: turn)


def _manifest(out_dir: Path, version: str) -> dict[str, Any]:
    """What an earlier run with the same `version` wrote, per turn (nothing when there is no version)."""
    try:
        kept = json.loads((out_dir / MANIFEST).read_text(encoding="utf-8")) if version else {}
    except (OSError, ValueError):
        return {}
    return kept.get("turns", {}) if isinstance(kept, dict) and kept.get("version") == version else {}


def write_game(out_dir: Path, game: GameHistory, templates: Sequence[str] = (), version: str = "",
               progress: Callable[[], None] | None = None, base_url: str = "") -> Written:
    """The game's folder; returns the files written (not those kept from an earlier run with the same `version`).
    `base_url`, the folder's address on the web when the site knows it, makes the feed's links absolute.

    Turn by turn: a turn's pages link to the last page of the turn before and the first of the turn after, so at
    most two reports are loaded at a time (the turn written and the next), and each turn's files are written
    before the next is drawn; memory stays flat in the number of turns. `progress` is called after each turn."""
    out_dir.mkdir(parents=True, exist_ok=True)
    old = _manifest(out_dir, version)
    turns = [_stored(t) for t in game.turns]
    reports: dict[int, TurnReport] = {}
    pages: dict[int, list[StagePage]] = {}  # turn index -> its stage pages (number, file)

    def report(entry: StoredTurn) -> TurnReport:
        if entry.turn not in reports:
            reports[entry.turn] = entry.load()
        return reports[entry.turn]

    def unchanged(entry: StoredTurn) -> dict[str, Any] | None:
        kept = old.get(str(entry.turn))
        return kept if entry.key and kept and kept["key"] == entry.key else None

    def pages_of(i: int) -> list[StagePage]:
        if i not in pages:
            kept = unchanged(turns[i])
            pages[i] = [tuple(p) for p in kept["pages"]] if kept else stage_pages(report(turns[i]))
        return pages[i]

    written = Written(out_dir)
    manifest: dict[str, str] = {}  # turn -> its entry as JSON (as objects, 1,000 turns' took ~3 MB)
    for i, entry in enumerate(turns):
        prev = turns[i - 1].turn if i > 0 else None
        nxt = turns[i + 1].turn if i + 1 < len(turns) else None
        links = [("← previous turn", f"../{_turn_dir(prev)}/index.html" if prev else None),
                 ("game index", "../index.html"),
                 ("next turn →", f"../{_turn_dir(nxt)}/index.html" if nxt else None)]
        before = f"../{_turn_dir(prev)}/{pages_of(i - 1)[-1][1]}" if prev else None
        after = f"../{_turn_dir(nxt)}/{pages_of(i + 1)[0][1]}" if nxt else None
        made = json.dumps([links, before, after, [[r.player, r.address] for r in game.recipients]])
        folder = out_dir / _turn_dir(entry.turn)
        kept = unchanged(entry)
        if kept and kept["made"] == made and (folder / "index.html").is_file():
            names = kept["files"]
        else:
            files = write_turn_report(folder, report(entry), game.recipients, links=links, templates=templates,
                                      before=before, after=after, pictures_kept=kept is not None)
            written.extend(files)
            names = [str(f.relative_to(out_dir)) for f in files]
        manifest[str(entry.turn)] = json.dumps({"key": entry.key, "pages": pages_of(i), "made": made, "files": names})
        old.pop(str(entry.turn), None)  # read for the last time
        reports.pop(entry.turn, None)  # written: only the next turn's report stays loaded
        give_back()  # and the memory its pictures took goes back to the system
        if progress:
            progress()
    pages_in_order = [pages_of(i) for i in range(len(turns))]
    index = [{"number": t.turn, "href": f"{_turn_dir(t.turn)}/index.html",
              "stages": [(str(n) if n else "end", f"{_turn_dir(t.turn)}/{file}") for n, file in p]}
             for t, p in zip(turns, pages_in_order)]
    winners = game.winners
    page = html.render("game_index.html", templates, game=game.name, turns=index, standings=game.standings,
                       ending=game.ending, press=game.press)
    (out_dir / "index.html").write_text(page, encoding="utf-8")
    feed = html.render("feed.xml", templates, game=game.name, slug=slug(game.name), winners=winners, base=base_url,
                       noun="turn", turns=[{"number": t.turn, "href": entry["href"], "at": t.at or EPOCH, "summary":
                                            f"Turn {t.turn} of {game.name} has been played: its report, stage by stage."}
                                           for t, entry in zip(turns, index)])
    (out_dir / "feed.xml").write_text(feed, encoding="utf-8")
    legend = out_dir / "legend.png"
    legend.write_bytes(legend_bytes())
    if version:
        turns_json = ", ".join(f"{json.dumps(turn)}: {entry}" for turn, entry in manifest.items())
        (out_dir / MANIFEST).write_text(f'{{"version": {json.dumps(version)}, "turns": {{{turns_json}}}}}',
                                        encoding="utf-8")
    written.extend([out_dir / "index.html", out_dir / "feed.xml", legend])
    return written


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
        written.extend(write_game(out_dir / name, game, templates, version, progress,
                              f"{base_url.rstrip('/')}/{name}/" if base_url else ""))
        winners = game.winners
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
