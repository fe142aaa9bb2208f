"""What every command shares: the app, the global --db option, JSON output and exit codes."""
from __future__ import annotations

import json
import threading
import unicodedata
from contextlib import contextmanager
from datetime import datetime, timezone
from pathlib import Path
from typing import Any, Callable, Iterable, Iterator, NoReturn, Optional, TypeVar

import typer
from typer._completion_classes import completion_init
from typer._completion_shared import Shells
from typer.completion import install_callback, show_callback

from .lazy import LazyGroup
from .plainhelp import PlainTyper

EXIT_OK, EXIT_REFUSED, EXIT_USAGE = 0, 1, 2
T = TypeVar("T")
DEFAULT_DB = "sqlite:///pbem.db"

app = PlainTyper(
    cls=LazyGroup,
    name="pbem",
    help="A play-by-email game master for BotWars, the Geek-o Challenge and four death-match games.",
    no_args_is_help=True,
    add_completion=False,  # its --show-completion guesses the shell and takes none: ours below name it
    pretty_exceptions_enable=False,
)


completion_init()  # the shells' completers, for `_PBEM_COMPLETE=complete_bash pbem` (Typer: only with its options)


@app.callback()
def _global_options(
    ctx: typer.Context,
    db: str = typer.Option(DEFAULT_DB, "--db", envvar="PBEM_DB", metavar="URL", help="Database URL (SQLite file or PostgreSQL)."),
    now: Optional[str] = typer.Option(None, "--now", envvar="PBEM_NOW", metavar="TIME",
                                      help="Act as if the time were TIME (ISO 8601, e.g. 2026-12-01T20:00Z): "
                                           "to rehearse a schedule, or replay mail at its own times."),
    version: bool = typer.Option(False, "--version", is_eager=True, callback=lambda shown: _version(shown),
                                 help="Print pbem's version and stop."),
    show_completion: Optional[Shells] = typer.Option(None, "--show-completion", metavar="SHELL", is_eager=True,
                                                     callback=show_callback, expose_value=False,
                                                     help="Print the completion script for SHELL and stop."),
    install_completion: Optional[Shells] = typer.Option(None, "--install-completion", metavar="SHELL",
                                                        is_eager=True, callback=install_callback, expose_value=False,
                                                        help="Install completion for SHELL in its start-up file and "
                                                             "stop."),
) -> None:
    ctx.obj = {"db": db, "now": read_clock(now)}
    from ..engine.plugins import add_loader
    from .plugins import plugin_loader
    from .shelf import lend_shelf

    add_loader(plugin_loader(Path.cwd()))  # RULES G9: the campaign's and the installed mechanisms
    lend_shelf()


def _version(shown: bool) -> None:
    if shown:
        from .. import __version__

        typer.echo(f"pbem {__version__}")
        raise typer.Exit(EXIT_OK)


def read_clock(given: str | None, hint: str = "--now") -> datetime:
    """The command's one reading of the clock (UTC), or the time given by --now / PBEM_NOW (or by the option
    `hint`, for a time a command takes)."""
    if not given:
        return datetime.now(timezone.utc)
    try:
        moment = datetime.fromisoformat(given.strip().replace("Z", "+00:00").replace("z", "+00:00"))
    except ValueError:
        raise typer.BadParameter(f"{given!r} is not a time like 2026-12-01T20:00Z", param_hint=hint) from None
    return (moment if moment.tzinfo else moment.replace(tzinfo=timezone.utc)).astimezone(timezone.utc)


def clock(ctx: typer.Context) -> datetime:
    """The time this command runs at: read once, when the command started."""
    return (ctx.find_root().obj or {}).get("now") or read_clock(None)


def db_url(ctx: typer.Context) -> str:
    """The --db given to the top-level command."""
    root = ctx.find_root()
    return str((root.obj or {}).get("db", DEFAULT_DB))


HIDDEN = ("Cc", "Cf", "Cs", "Co", "Cn", "Zl", "Zp")  # control, formatting, surrogate, private, unassigned, breaks


def escaped(text: str) -> str:
    """A line printed from mail (addresses, subjects, names) with every control or invisible formatting character
    written as an escape (`\\x1b`, `\\u202e`): what a stranger writes never drives the GM's terminal."""
    return "".join(c if c == "\t" or unicodedata.category(c) not in HIDDEN else ascii(c)[1:-1] for c in text)


def say(text: str, err: bool = False) -> None:
    """Print a line that holds text from mail, escaped."""
    typer.echo(escaped(text), err=err)


def say_lines(text: str, indent: str = "", err: bool = False) -> None:
    """Print text from mail or a refusal's reason as whole lines, each escaped and ending its own: a reason that
    holds line breaks (LF, CRLF, CR…) goes on as lines indented under its first, trailing spaces and blank lines
    dropped, so nothing printed runs into the line after it."""
    for n, line in enumerate(line.rstrip() for line in text.splitlines() if line.strip()):
        say(f"{indent}{'  ' if n else ''}{line}", err)


def print_json(document: Any) -> None:
    """One JSON document on stdout, keys sorted, for scripts."""
    typer.echo(json.dumps(document, sort_keys=True, indent=2, ensure_ascii=False))


TIMEOUT = typer.Option(60.0, "--timeout", min=0.0, metavar="SECONDS",
                       help="Stop searching a puzzle after this long: no proof within the limit (exit 1).")
MAX_NODES = typer.Option(None, "--max-nodes", min=1, metavar="N",
                         help="Stop searching a puzzle after N positions: no proof within the limit (exit 1). "
                              "Default: no such budget.")


@contextmanager
def solver_timer(seconds: float) -> Iterator[Any]:
    """A solver's stop flag (pbem.dm.limits), set by a timer after `seconds`: the command line owns the clock."""
    from ..dm.limits import stop_flag

    flag = stop_flag()
    timer = threading.Timer(seconds, flag.__setitem__, (0, True))  # flag[0] = True
    timer.daemon = True
    timer.start()
    try:
        yield flag
    finally:
        timer.cancel()


def limit_text(err: Any, timeout: float, max_nodes: Optional[int]) -> str:
    """What a solver's NoProof says to the GM."""
    return f"no proof within the limit ({f'{timeout:g} s' if err.stopped else f'{max_nodes} positions'})"


def sub_app(name: str, help: str) -> typer.Typer:
    """A command group `pbem NAME …`."""
    group = PlainTyper(name=name, help=help, no_args_is_help=True, cls=LazyGroup)
    app.add_typer(group, name=name)
    return group


def refuse(reasons: list[str], code: int = EXIT_REFUSED) -> NoReturn:
    """Print every reason on stderr and exit with `code`."""
    for reason in reasons:
        typer.echo(reason, err=True)
    raise typer.Exit(code)


def read_or_refuse(read: Callable[..., T], *args: Any) -> T:
    """`read(*args)`; when it raises FormatError, every problem on stderr and exit 1."""
    from ..formats.problems import FormatError  # without YAML: a reader imports the parser when it reads a file

    try:
        return read(*args)
    except FormatError as err:
        refuse([str(p) for p in err.problems])


def read_each(paths: Iterable[Path], read: Callable[[Path], T], documents: list[dict[str, Any]],
              key: str = "problems", echo: bool = False) -> Iterator[tuple[Path, T]]:
    """Each file that `read` accepts, with its path. A refused one is added to `documents` as
    {"file": …, key: [its problems]} (the problems also printed on stderr when `echo`) and skipped,
    so the documents keep the order of `paths`."""
    from ..formats.yamlfile import FormatError

    for path in paths:
        try:
            item = read(path)
        except FormatError as err:
            problems = [str(p) for p in err.problems]
            if echo:
                for problem in problems:
                    typer.echo(problem, err=True)
            documents.append({"file": str(path), key: problems})
            continue
        yield path, item
