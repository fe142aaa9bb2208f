"""The one place where bundled death-match games are registered (by importing them)."""
from .icemaze import game as _ice  # noqa: F401
