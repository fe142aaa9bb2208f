"""The one place where bundled death-match games are registered (by importing them)."""
from .gyulbot import game as _gyulbot  # noqa: F401
