"""One processed turn, rendered: its board pictures, HTML pages, and an email per player.

`build_turn_report` turns the engine's output (per board: snapshots and events)
into the report model and draws every picture once; `write_turn_report` writes
the turn's folder (pages, pictures, legend, one `.eml` per recipient);
`player_message` builds one player's email (also used by the mail sender).
"""
from __future__ import annotations

import re
import stat
from dataclasses import dataclass, field
from functools import lru_cache, partial
from pathlib import Path
from typing import TYPE_CHECKING, Any, Callable, Container, Iterable, Iterator, Mapping, Protocol, Sequence

from ..engine.events import Event
from ..engine.room import Room
from ..engine.state import Board
from ..engine.vocabulary import MissingOrders
from ..formats.names import DEFAULT_SENDER as DEFAULT_SENDER  # the CLI imports it from here
from . import html
from .model import BoardReport, board_report, missed_note
from .shelf import kept
from .text import turn_text

if TYPE_CHECKING:
    from email.message import EmailMessage

@dataclass(frozen=True)
class BoardTurn:
    """The engine's output for one board (a `TurnResult`): the snapshots taken at the start of each
    stage and at the end of the turn, the turn's events, and the board as the turn left it (in
    `room`, before a Geek-o player moves on); `players` are those who receive this board's report;
    `following`, the board the next turn starts from (fused registers as dealt), when known."""

    title: str
    room: Room
    snapshots: Sequence[Any]
    events: Sequence[Event]
    final: Board
    players: tuple[str, ...] = ()
    following: Board | None = None


@dataclass(frozen=True)
class Recipient:
    player: str
    address: str
    holder: str = ""  # who plays the seat now, when a newcomer took it over (`pbem game replace`)


class Addressed(Protocol):
    """A player with their address (a store's player row)."""

    name: str
    email: str


def recipients(players: Iterable[Addressed], holders: Mapping[str, str] | None = None) -> list[Recipient]:
    """Who gets a turn's report: each player at their address, in the order given (`holders`: seat -> the
    newcomer playing it)."""
    return [Recipient(p.name, p.email, (holders or {}).get(p.name, "")) for p in players]


@dataclass
class TurnReport:
    game: str
    turn: int
    reports: list[BoardReport]
    players: list[tuple[str, ...]]  # per report, who receives it
    images: Pictures = field(default_factory=lambda: Pictures({}))  # file name -> PNG (GIF), drawn when first read
    notices: dict[str, list[str]] = field(default_factory=dict)  # player -> lines only they are told (B4.6)
    ending: list[str] = field(default_factory=list)  # the game ended with this turn: the result and standings
    # the players' .eml files already made, by (recipients, sender, templates): a turn's mails are built once for
    # the outbox and the report folder (`eml_files`)
    mails: dict[tuple[tuple[Recipient, ...], str, tuple[str, ...]], dict[str, bytes]] = field(
        default_factory=dict, repr=False, compare=False)

    def for_player(self, player: str) -> list[BoardReport]:
        return [r for r, who in zip(self.reports, self.players) if player in who]


class ImageNames:
    """How pages name the pictures: file names on the site, `cid:` references in email."""

    def __init__(self, reports: list[BoardReport], inline: bool = False):
        self.reports, self.inline = reports, inline
        self.stage_pictures = not inline  # a mail carries the animation only (issue #24: under 200 KB)

    def _index(self, report: BoardReport) -> int:
        return next(i for i, r in enumerate(self.reports) if r is report)

    def file(self, report: BoardReport, stage: int | str) -> str:
        return image_file(self._index(report), stage)

    def src(self, report: BoardReport, stage: int | str) -> str:
        return self._address(self.file(report, stage))

    def animation_name(self, report: BoardReport) -> str:
        return animation_file(self._index(report))

    def animation(self, report: BoardReport) -> str:
        """The address of the board's animated turn (see `animation.turn_gif`)."""
        return self._address(self.animation_name(report))

    def _address(self, name: str) -> str:
        if not self.inline:
            return name
        from .message import cid

        return f"cid:{cid(name)}"

    def size(self, report: BoardReport) -> tuple[int, int]:
        """The pictures' width and height in pixels (for `<img>`: the page does not jump as they load)."""
        from .static import image_size

        return image_size(report.final.room)

    def animation_size(self, report: BoardReport) -> tuple[int, int]:
        """The animation's width and height (`animation.SCALE` of the pictures')."""
        from .animation import SCALE

        width, height = self.size(report)
        return width * SCALE[0] // SCALE[1], height * SCALE[0] // SCALE[1]

    def anchor(self, report: BoardReport, stage: int | str) -> str:
        """The heading's id on the page: the picture's file name without `.png`."""
        return self.file(report, stage).removesuffix(".png")


def image_file(index: int, stage: int | str) -> str:
    """`board1-stage2.png`, `board1-final.png` (never a typed name: they are not file-name safe)."""
    return f"board{index + 1}-{'stage' if stage != 'final' else ''}{stage}.png"


def animation_file(index: int) -> str:
    """`board1-turn.gif`: the board's turn as one animated picture."""
    return f"board{index + 1}-turn.gif"


def build_turn_report(game: str, turn: int, boards: Sequence[BoardTurn],
                      missed: Mapping[str, Mapping[str, Sequence[Any]]] | None = None,
                      missed_policy: MissingOrders = MissingOrders.FILL,
                      done: Mapping[str, Sequence[str]] | None = None, ending: Sequence[str] = ()) -> TurnReport:
    """`missed`: the players whose orders were missing, with what was played for them (`TurnOutcome.missed`)
    under the game's B4.6 `missed_policy`; `done`: lines for the players who have no more turns after this one;
    `ending`: the result and final standings, when the game ended with this turn."""
    from .animation import turn_gif
    from .board import position_png
    from .style import owner_colours

    colours = owner_colours([r.owner for b in boards for r in b.final.robots.values()])
    reports = [board_report(b.title, b.room, b.snapshots, b.events, b.final, b.following) for b in boards]
    notices = {player: missed_note(programs, missed_policy) for player, programs in sorted((missed or {}).items())}
    for player, lines in sorted((done or {}).items()):
        notices[player] = [*notices.get(player, []), *lines]
    result = TurnReport(game, turn, reports, [tuple(b.players) for b in boards], notices=notices,
                        ending=list(ending))
    drawn: dict[str, Callable[[], bytes]] = {}
    for i, report in enumerate(reports):
        for stage in report.stages:
            drawn[image_file(i, stage.number)] = partial(position_png, stage.position, colours)
        drawn[image_file(i, "final")] = partial(position_png, report.final, colours)
        board = boards[i]
        drawn[animation_file(i)] = partial(turn_gif, board.room, board.snapshots, board.events, colours)
    result.images = Pictures(drawn)
    return result


class Pictures(Mapping[str, bytes]):
    """A turn's pictures by file name, each drawn when first read (then kept): a turn whose pages are written again
    only for their links (the site, after a turn was added) keeps its pictures on disk and never draws them."""

    def __init__(self, drawings: Mapping[str, Callable[[], bytes]]):
        self._drawings, self._drawn = dict(drawings), {}  # type: dict[str, Callable[[], bytes]], dict[str, bytes]

    def __getitem__(self, name: str) -> bytes:
        if name not in self._drawn:
            self._drawn[name] = self._drawings[name]()
        return self._drawn[name]

    def __iter__(self) -> Iterator[str]:
        return iter(self._drawings)

    def __len__(self) -> int:
        return len(self._drawings)


@lru_cache(maxsize=1)
def legend_bytes() -> bytes:
    """The legend picture (drawn once per process, and kept on the shelf for the next: then its drawing code is
    never loaded)."""
    return kept("legend", _legend_png, bytes, bytes)


def _legend_png() -> bytes:
    from .legend import legend_png

    return legend_png()


def slug(text: str) -> str:
    """A file-name-safe form of a typed name."""
    return re.sub(r"[^A-Za-z0-9_.-]+", "-", text).strip("-.") or "x"


def player_message(report: TurnReport, recipient: Recipient, sender: str = DEFAULT_SENDER,
                   templates: Sequence[str] = ()) -> EmailMessage:
    """The player's report email: their boards (the body is the same for players with the same boards)."""
    return _report_mail(report, report.for_player(recipient.player), report.notices.get(recipient.player, []),
                        recipient.player, sender, recipient.address, _subject(report, recipient), templates)


def observer_message(report: TurnReport, address: str, sender: str = DEFAULT_SENDER,
                     templates: Sequence[str] = ()) -> EmailMessage:
    """An observer's report email: every board, nobody's robots marked, nobody's notices."""
    return _report_mail(report, list(report.reports), [], None, sender, address,
                        f"{report.game}: turn {report.turn} report", templates)


def whole_turn_message(report: TurnReport, sender: str, recipient: str, subject: str, notice: Sequence[str] = (),
                       templates: Sequence[str] = ()) -> EmailMessage:
    """Every board of the turn in one email, headed by `notice` (the GM's review of a previewed turn)."""
    return _report_mail(report, report.reports, list(notice), None, sender, recipient, subject, templates)


def _report_mail(report: TurnReport, boards: list[BoardReport], notice: list[str], player: str | None,
                 sender: str, recipient: str, subject: str, templates: Sequence[str]) -> EmailMessage:
    from .message import report_message

    names = ImageNames(report.reports, inline=True)
    page = html.render("turn_report.html", templates, game=report.game, turn=report.turn,
                       reports=boards, images=names, links=[], notice=notice, player=player, ending=report.ending)
    images = {names.animation_name(r): report.images[names.animation_name(r)] for r in boards}
    return report_message(
        sender=sender, recipient=recipient, subject=subject,
        text=turn_text(report.game, report.turn, boards, notice, player, report.ending), html=page, images=images)


def _subject(report: TurnReport, recipient: Recipient) -> str:
    reader = f"{recipient.holder}, in {recipient.player}'s seat" if recipient.holder else recipient.player
    return f"{report.game}: turn {report.turn} report for {reader}"


def eml_files(report: TurnReport, recipients: Sequence[Recipient], sender: str = DEFAULT_SENDER,
              templates: Sequence[str] = ()) -> dict[str, bytes]:
    """Each recipient's `.eml` (by a file-name-safe form of the player's name); a body is built once
    for all players who get the same boards and notices (on a shared board each player's own robots are marked,
    so each gets a body of their own). Players with no board this turn (done) get none. Made once per report for
    the same recipients, sender and templates."""
    key = (tuple(recipients), sender, tuple(templates))
    if key not in report.mails:
        report.mails[key] = _eml_files(report, recipients, sender, templates)
    return dict(report.mails[key])


def _eml_files(report: TurnReport, recipients: Sequence[Recipient], sender: str,
               templates: Sequence[str]) -> dict[str, bytes]:
    if not recipients:
        return {}  # the site's pages alone: no mail module (email, css_inline) loaded
    from .message import body_of, message_bytes, readdressed

    files: dict[str, bytes] = {}
    # (boards shown, notices, the player where the board is shared) -> the mail they make
    bodies: dict[tuple[tuple[int, ...], tuple[str, ...], str], tuple[EmailMessage, bytes]] = {}
    for recipient in recipients:
        boards = tuple(i for i, who in enumerate(report.players) if recipient.player in who)
        if not boards:
            continue
        shared = any(len({r.owner for r in report.reports[i].final.robots}) > 1 for i in boards)
        key = (boards, tuple(report.notices.get(recipient.player, ())), recipient.player if shared else "")
        if key not in bodies:
            message = player_message(report, recipient, sender, templates)
            bodies[key] = (message, body_of(message_bytes(message)))
        message, body = bodies[key]
        name = slug(recipient.player)
        while name in files:
            name += "_"
        files[name] = readdressed(message, body, recipient.address, _subject(report, recipient))
    return files


def _stage_links(report: TurnReport, position: int, up: str, before: str | None,
                 after: str | None) -> list[tuple[str, str | None]]:
    """Previous/next links of the stage pages of one turn (`position` 0 = stage 1; the last is the end)."""
    pages = stage_pages(report)
    prev = pages[position - 1][1] if position > 0 else before
    nxt = pages[position + 1][1] if position + 1 < len(pages) else after
    return [("← previous", prev), ("whole turn", up), ("next →", nxt), ("legend", "legend.png")]


StagePage = tuple[int | None, str]  # (stage number, or None for the end of the turn; its page's file name)


def stage_pages(report: TurnReport) -> list[StagePage]:
    """(stage number or None for the end of turn, file name) of every stage page of the turn."""
    count = max((len(r.stages) for r in report.reports), default=0)
    return [(n, f"stage-{n}.html") for n in range(1, count + 1)] + [(None, "final.html")]


def write_turn_report(out_dir: Path, report: TurnReport, recipients: Sequence[Recipient] = (),
                      sender: str = DEFAULT_SENDER, links: Sequence[tuple[str, str | None]] = (),
                      before: str | None = None, after: str | None = None,
                      templates: Sequence[str] = (), pictures_kept: bool = False) -> list[Path]:
    """Write the turn's folder; `links` head the turn page, `before`/`after` continue the stage
    pages' previous/next chain into the neighbouring turns. Returns the files written (a file that already
    held exactly its content is left as it was, and listed too). `pictures_kept`: the folder's pictures are this
    turn's already (its pages are written again for their links): one still there is neither drawn nor written."""
    out_dir.mkdir(parents=True, exist_ok=True)
    written: list[Path] = []

    def put(name: str, data: bytes | str) -> None:
        path = out_dir / name
        path.parent.mkdir(parents=True, exist_ok=True)
        _replace(path, data if isinstance(data, bytes) else data.encode("utf-8"))
        written.append(path)

    for name in sorted(report.images):
        if pictures_kept and (out_dir / name).is_file():
            written.append(out_dir / name)
        else:
            put(name, report.images[name])
    put("legend.png", legend_bytes())
    for name, page in turn_pages(report, links, before, after, templates).items():
        put(name, page)
    for name, data in eml_files(report, recipients, sender, templates).items():
        put(f"mail/{name}.eml", data)
    return written


def turn_pages(report: TurnReport, links: Sequence[tuple[str, str | None]], before: str | None, after: str | None,
               templates: Sequence[str] = (), only: Container[str] | None = None) -> dict[str, str]:
    """The turn's pages by file name (`only` these, when given): its index, headed by `links`, and its stage
    pages, whose previous/next chain runs into the neighbouring turns through `before` and `after`."""
    names = ImageNames(report.reports)
    pages = {}
    if only is None or "index.html" in only:
        pages["index.html"] = html.render("turn_report.html", templates, game=report.game, turn=report.turn,
                                          reports=report.reports, images=names, ending=report.ending,
                                          links=[*links, ("legend", "legend.png")])
    for position, (number, file) in enumerate(stage_pages(report)):
        if only is not None and file not in only:
            continue
        shown = [(r, r.stages[number - 1] if number is not None else None) for r in report.reports
                 if number is None or number <= len(r.stages)]
        pages[file] = html.render("stage.html", templates, game=report.game, turn=report.turn,
                                  heading=f"stage {number}" if number else "end of turn", shown=shown,
                                  images=names, links=_stage_links(report, position, "index.html", before, after))
    return pages


def rewrite_pages(out_dir: Path, pages: Mapping[str, str]) -> list[Path]:
    """Write pages of a turn whose folder is there (those carrying its "next" links, when the next turn came)."""
    for name, page in pages.items():
        _replace(out_dir / name, page.encode("utf-8"))
    return [out_dir / name for name in pages]


def _replace(path: Path, data: bytes) -> None:
    """`path` holding `data`: a plain file is left alone if it holds exactly that already (a turn processed again
    after a rollback), else written as a new file; anything else (a link) is written through. Overwriting a file
    in place cost more than comparing: ext4 flushes a file truncated to zero as it is closed, ~2 ms for each
    player's mail of a turn."""
    try:
        info = path.lstat()
    except FileNotFoundError:
        info = None
    if info is not None and stat.S_ISREG(info.st_mode):
        if info.st_size == len(data) and path.read_bytes() == data:
            return
        path.unlink()
    path.write_bytes(data)
