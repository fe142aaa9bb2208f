"""The one place where bundled death-match drawers are registered (by importing them)."""
from . import dm_gyulbot as _gyulbot  # noqa: F401
