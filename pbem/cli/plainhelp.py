"""Plain, fast help pages: no Rich (its import alone costs more than a whole `pbem --help` may), no type noise.

Typer labels every value `<str>`, `<bool>` or `<list[str]>`; a GM reads `--out OUT`, `--ruleset [botwars|geeko]`
and `FILES...` instead. The Typer subclass gives every command and group these help pages.
"""
from __future__ import annotations

from typing import Any, Callable

import typer
from typer._click.core import Command, Context
from typer._click.formatting import HelpFormatter
from typer.core import TyperCommand, TyperGroup
from typer.models import CommandFunctionType


def value_name(param: Any) -> str:
    """What a value is called in help: its metavar, its choices, else its option's (or argument's) name."""
    if param.metavar:
        return str(param.metavar)
    choices = getattr(param.type, "choices", None)
    if choices:
        return "[" + "|".join(str(getattr(c, "value", c)) for c in choices) + "]"
    name = param.opts[0].lstrip("-") if param.param_type_name == "option" else param.name
    return str(name).upper().replace("-", "_")


def _shown(param: Any) -> str:
    """A parameter's left column: `--out OUT`, `--json`, `--secrets / --no-secrets`, `FILES...`."""
    repeated = "..." if param.nargs != 1 else ""
    if param.param_type_name == "argument":
        return value_name(param) + repeated
    if param.is_flag or param.count:
        return " / ".join(", ".join(opts) for opts in (param.opts, param.secondary_opts) if opts)
    return f"{', '.join(param.opts)} {value_name(param)}{repeated}"


def _usage(param: Any) -> str:
    shown = _shown(param)
    return shown if param.required else f"[{shown}]"


class _PlainHelp(Command):
    """The help page of a command or group: usage, text, then arguments and options without type labels."""

    def format_help(self, ctx: Context, formatter: HelpFormatter) -> None:
        self.format_usage(ctx, formatter)
        self.format_help_text(ctx, formatter)
        self.format_options(ctx, formatter)
        self.format_epilog(ctx, formatter)

    def collect_usage_pieces(self, ctx: Context) -> list[str]:
        pieces = [self.options_metavar] if self.options_metavar else []
        pieces += [_usage(p) for p in self.get_params(ctx) if p.param_type_name == "argument"]
        return pieces + ([self.subcommand_metavar] if hasattr(self, "subcommand_metavar") else [])

    def format_options(self, ctx: Context, formatter: HelpFormatter) -> None:
        sections: dict[str, list[tuple[str, str]]] = {"argument": [], "option": []}
        for param in self.get_params(ctx):
            record = param.get_help_record(ctx)
            if record is not None and param.param_type_name in sections:
                sections[param.param_type_name].append((_shown(param), record[1]))
        for title, rows in (("Arguments", sections["argument"]), ("Options", sections["option"])):
            if rows:
                with formatter.section(title):
                    formatter.write_dl(rows)
        if isinstance(self, PlainGroup):
            self.format_commands(ctx, formatter)


class PlainCommand(_PlainHelp, TyperCommand):
    """A command with a plain help page."""


class PlainGroup(_PlainHelp, TyperGroup):
    """A command group with a plain help page."""

    def format_commands(self, ctx: Context, formatter: HelpFormatter) -> None:
        """Each subcommand with the first sentence of its help, whole (wrapped, not cut at the terminal width)."""
        rows = [(name, command.get_short_help_str(limit=10_000)) for name, command in self.commands.items()
                if not command.hidden]
        if rows:
            with formatter.section("Commands"):
                formatter.write_dl(rows)


class PlainTyper(typer.Typer):
    """A Typer whose commands and groups have plain help pages and plain error messages."""

    def __init__(self, *args: Any, cls: type = PlainGroup, **kwargs: Any) -> None:
        super().__init__(*args, cls=cls, rich_markup_mode=None, **kwargs)

    def command(self, name: str | None = None, *, cls: type[TyperCommand] | None = PlainCommand,
                **kwargs: Any) -> Callable[[CommandFunctionType], CommandFunctionType]:
        return super().command(name, cls=cls, **kwargs)
