"""The top-level command group, loading each command's module only when that command runs (or shows its help).

`pbem --help` must not pay for SQLAlchemy or Pillow, so it lists the commands from the table below;
a test checks each summary against the command's own docstring.
"""
from __future__ import annotations

import importlib
from typing import Any, NamedTuple

import typer
from typer._click.core import Command, Context
from typer._click.exceptions import NoSuchOption
from typer.core import TyperCommand

from .plainhelp import PlainGroup


class Entry(NamedTuple):
    modules: tuple[str, ...]  # the pbem.cli modules that define the command (and, for a group, its subcommands)
    summary: str  # the first sentence of its help, as the group's help lists it


# Per group, the commands that load lazily. The top level, in the order a GM meets them: set up, play turns,
# publish, automate, death matches, tools. Below it, the subcommands another module adds to a group (appended).
COMMANDS: dict[str, dict[str, Entry]] = {
    "pbem": {
        "init": Entry(("game",), "Make a campaign folder with copies of the bundled rooms/, decks/ and templates/ "
                                 "to edit."),
        "warm": Entry(("warm",), "Load the death-match solvers now (their searches are compiled when pbem is "
                                 "installed) and say whether each is ready."),
        "demo": Entry(("game",), "Play the bundled sample campaign (turns/) end to end into a fresh ./pbem-demo.db; "
                                 "reports go to OUT."),
        "game": Entry(("game",), "Create, list, show, import and export games."),
        "turn": Entry(("turn",), "Run a game's turn cycle: deal, collect orders, process, roll back."),
        "report": Entry(("report",), "Write a processed turn's report: its pages and pictures, and each player's "
                                     "email as an .eml file."),
        "site": Entry(("report",), "Write the static campaign site: an index of the games, their turns, stages and "
                                   "standings, and of the death matches given with --match (or named among the "
                                   "games) and their results, each with its Atom feed."),
        "replay": Entry(("game",), "Rebuild a game from its first state and the stored orders, turn by turn, and "
                                   "compare the state hashes and the events hashes (the events reports are built "
                                   "from); a death match from its set-up and accepted moves."),
        "mail": Entry(("mail",), "Fetch orders from and send reports to the players."),
        "run": Entry(("run",), "One unattended pass over every scheduled game: fetch, remind, process what is due, "
                               "deal, send."),
        "status": Entry(("run",), "Every scheduled game: its turn, when it is due, who has not sent orders, and "
                                  "what `pbem run` does next."),
        "dm": Entry(("dm",), "Replay and run death-match games."),
        "flowers": Entry(("dm",), "Flower Field tools."),
        "gyulbot": Entry(("gyulbot",), "Solve and generate Gyulbot puzzles."),
        "ice": Entry(("ice",), "Solve and generate ice mazes."),
        "room": Entry(("room",), "Check and draw room files."),
        "scenario": Entry(("scenario",), "Run rule scenarios."),
    },
    "game": {"set": Entry(("run",), "Set a game's schedule for `pbem run`: only the options given change, and "
                                    "the whole schedule is printed."),
             "set-player": Entry(("run",), "Change a player's settings during a game: their time zone."),
             "autoplay": Entry(("autoplay",), "Let robot pilots play some or all players through the real turn "
                                              "cycle: deal, orders, process, reports."),
             "pause": Entry(("controls",), "Stop the game's clock: pbem run neither reminds nor processes it until "
                                           "`pbem game resume`."),
             "resume": Entry(("controls",), "Restart a paused game's clock with the time the running turn had "
                                            "left."),
             "replace": Entry(("controls",), "Give a player's seat to a newcomer with a new address and secret; what "
                                             "the seat did stays its own (a campaign's robots, standing and history; "
                                             "a death match's moves)."),
             "address": Entry(("controls",), "Change a player's address; the old and the new address are both "
                                             "told."),
             "away": Entry(("controls",), "Announce a player's absence in a campaign; its absence policy (pbem "
                                          "game policy) decides what happens to a turn due meanwhile, and every "
                                          "player is told."),
             "policy": Entry(("controls",), "Set (or, without options, show) the game's press and absence policies; "
                                            "options not given stay."),
             "observe": Entry(("controls",), "Let an address watch the game: each turn's report (a death match: its "
                                             "position, then each move's news) and the end, never sheets or secrets "
                                             "(--stop ends it)."),
             "end": Entry(("controls",), "End a game before its rules do, with a winner, as a draw or abandoned; "
                                         "every player and observer is told."),
             "history": Entry(("controls",), "The game's GM controls, oldest first: extensions, pauses, "
                                             "replacements, addresses, absences, press …")},
    "turn": {"approve": Entry(("run",), "Store a turn held for review (the result previewed to the GM, checked by "
                                        "its state hash), deal the next turn and queue the reports, as `pbem run` "
                                        "would have."),
             "extend": Entry(("controls",), "Move the running turn's deadline later, before it passes; every player "
                                            "is told and reminders follow.")},
    "mail": {"broadcast": Entry(("controls",), "Queue a message from the GM to every player and observer of a "
                                               "game, threaded with the game's mail.")},
    "room": {"analyse": Entry(("analyse",), "Let robot pilots play each room over several seeds: whether they get "
                                         "through, the turns they need, where robots died and why (exit 1 if a "
                                         "room is not passable in every run).")},
}


_BUILT: dict[typer.Typer, tuple[tuple[Any, ...], Any]] = {}


def click_command(app: typer.Typer) -> Any:
    """`app`'s click command tree, built again only when a module has added commands since: Typer builds the
    whole tree on every call (~17 ms), which every in-process run of a command paid (hundreds in the tests)."""
    registered = _registered(app)
    if app not in _BUILT or _BUILT[app][0] != registered:
        _BUILT[app] = registered, typer.main.get_command(app)
    return _BUILT[app][1]


def _registered(app: typer.Typer) -> tuple[Any, ...]:
    """What decides the tree: the commands and groups registered so far (modules only ever add them)."""
    return len(app.registered_commands), tuple(_registered(group.typer_instance) for group in app.registered_groups
                                              if group.typer_instance)


class _NotLoaded(TyperCommand):
    """Stands in for a command whose module is not imported yet: its name and summary, for the command list."""


class LazyGroup(PlainGroup):
    """A command group whose commands' modules are imported on first use (`pbem --help` imports none of them);
    at the top, a global option given after a command gets a hint saying where it goes."""

    def __init__(self, **kwargs: Any) -> None:
        super().__init__(**kwargs)
        lazy = COMMANDS.get(self.name or "", {})
        commands: dict[str, Command] = {name: _NotLoaded(name, help=entry.summary) for name, entry in lazy.items()}
        commands.update(self.commands)
        rank = {name: place for place, name in enumerate(lazy)}  # the group's own module's commands first
        self.commands = dict(sorted(commands.items(), key=lambda item: rank.get(item[0], -1)))

    def get_command(self, ctx: Context, cmd_name: str) -> Command | None:
        if isinstance(self.commands.get(cmd_name), _NotLoaded):
            for module in COMMANDS[self.name or ""][cmd_name].modules:
                importlib.import_module(f"{__package__}.{module}")
            from .common import app

            built = click_command(app)
            group = built if self.name == built.name else built.commands[self.name]
            self.commands[cmd_name] = group.commands[cmd_name]
        return self.commands.get(cmd_name)

    def invoke(self, ctx: Context) -> Any:
        try:
            return super().invoke(ctx)
        except NoSuchOption as err:
            if ctx.parent is None and err.option_name in {opt for param in self.params for opt in param.opts}:
                err.message += (f" ({err.option_name} is an option of pbem itself: put it before the command, "
                                f"as in pbem {err.option_name} … {ctx.invoked_subcommand} …)")
            raise
