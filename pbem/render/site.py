"""The static campaign site: an index of games, each game's turns and standings, every turn's
pages with previous/next links running through all stages of all turns."""
from __future__ import annotations

from dataclasses import dataclass, field
from pathlib import Path
from typing import Sequence

from ..formats.game import turn_folder_name
from . import html
from .turn import Recipient, TurnReport, legend_bytes, slug, stage_pages, write_turn_report


@dataclass
class GameHistory:
    name: str
    turns: list[TurnReport]  # in turn order
    standings: list[dict] = field(default_factory=list)  # `pbem.engine.campaign.standings` rows
    recipients: list[Recipient] = field(default_factory=list)  # when given, each turn gets their .eml files


def _turn_dir(report: TurnReport) -> str:
    return turn_folder_name(report.turn)


def write_game(out_dir: Path, game: GameHistory, templates: Sequence[str] = ()) -> list[Path]:
    out_dir.mkdir(parents=True, exist_ok=True)
    written: list[Path] = []
    turns = game.turns
    for i, report in enumerate(turns):
        prev = turns[i - 1] if i > 0 else None
        nxt = turns[i + 1] if i + 1 < len(turns) else None
        links = [("← previous turn", f"../{_turn_dir(prev)}/index.html" if prev else None),
                 ("game index", "../index.html"),
                 ("next turn →", f"../{_turn_dir(nxt)}/index.html" if nxt else None)]
        written += write_turn_report(
            out_dir / _turn_dir(report), report, game.recipients, links=links, templates=templates,
            before=f"../{_turn_dir(prev)}/{stage_pages(prev)[-1][1]}" if prev else None,
            after=f"../{_turn_dir(nxt)}/{stage_pages(nxt)[0][1]}" if nxt else None)
    index = [{"number": r.turn, "href": f"{_turn_dir(r)}/index.html",
              "stages": [(str(n) if n else "end", f"{_turn_dir(r)}/{file}") for n, file in stage_pages(r)]}
             for r in turns]
    page = html.render("game_index.html", templates, game=game.name, turns=index, standings=game.standings)
    (out_dir / "index.html").write_text(page, encoding="utf-8")
    legend = out_dir / "legend.png"
    legend.write_bytes(legend_bytes())
    return written + [out_dir / "index.html", legend]


def write_site(out_dir: Path, games: Sequence[GameHistory], templates: Sequence[str] = ()) -> list[Path]:
    """Write the whole site under `out_dir`; returns the files written."""
    out_dir.mkdir(parents=True, exist_ok=True)
    written: list[Path] = []
    entries = []
    for game in games:
        folder = slug(game.name)
        written += write_game(out_dir / folder, game, templates)
        entries.append({"name": game.name, "href": f"{folder}/index.html", "turns": len(game.turns)})
    (out_dir / "index.html").write_text(html.render("site_index.html", templates, games=entries),
                                        encoding="utf-8")
    return written + [out_dir / "index.html"]
